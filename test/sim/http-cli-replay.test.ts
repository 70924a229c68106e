import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import { readRecordingLines } from '../../src/recording/recording-format.js';
import type { OrderBookResponse, WireMarket } from '../../src/venue/wire.js';
import { publicGet } from '../helpers/sim-request.js';

/** `bot sim --replay FILE`: the sim takes its market (rules and books) from a recording, so a daemon can paper-trade it. */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const SAMPLE = 'backtest/sample-data/sim-btc-usdt.jsonl.gz';

async function recording(): Promise<{ market: WireMarket; books: OrderBookResponse[] }> {
  let market: WireMarket | undefined;
  const books: OrderBookResponse[] = [];
  for await (const line of readRecordingLines(`${repoRoot}${SAMPLE}`)) {
    if (line.type === 'market') market = line.market;
    else if (line.type === 'book' && books.length < 20) books.push(line.book);
  }
  if (!market) throw new Error('sample has no market record');
  return { market, books };
}

const top = (b: { bids: unknown[][]; asks: unknown[][] }) => `${D(String(b.bids[0]?.[0])).toFixed()}/${D(String(b.asks[0]?.[0])).toFixed()}`;

describe('bot sim --replay', () => {
  it("serves the recording's market rules and its books over HTTP, and exits 0 on SIGTERM", async () => {
    const rec = await recording();
    const child = spawn(process.execPath, ['bin/bot.js', 'sim', '--json', '--replay', SAMPLE, '--replay-speed', '1'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const { baseUrl } = JSON.parse(line) as { baseUrl: string };

      const markets = (await publicGet(baseUrl, '/api/v4/public/markets')).json as WireMarket[];
      const m = markets.find((x) => x.name === rec.market.name);
      expect(m).toBeDefined();
      expect({ stockPrec: m!.stockPrec, moneyPrec: m!.moneyPrec, minAmount: D(m!.minAmount).toFixed(), minTotal: D(m!.minTotal).toFixed() }).toEqual({
        stockPrec: rec.market.stockPrec,
        moneyPrec: rec.market.moneyPrec,
        minAmount: D(rec.market.minAmount).toFixed(),
        minTotal: D(rec.market.minTotal).toFixed(),
      });

      // The flow shows the first snapshot at its first step; at speed 1 the next ones follow a second apart.
      let served = '';
      for (let i = 0; i < 50; i++) {
        const book = (await publicGet(baseUrl, `/api/v4/public/orderbook/${rec.market.name}?limit=5`)).json as OrderBookResponse;
        if (book.bids.length > 0 && book.asks.length > 0) {
          served = top(book);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(rec.books.map(top)).toContain(served);

      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      expect((await exited)[0]).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('a file that is not a recording exits 2 with a message naming it', async () => {
    const child = spawn(process.execPath, ['bin/bot.js', 'sim', '--json', '--replay', 'package.json'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('--replay package.json');
    expect(stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
