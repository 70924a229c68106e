import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { publicGet, signedPost } from '../helpers/sim-request.js';

/** `bot sim --json`: first stdout line is the hand-over object; SIGTERM closes it with exit 0. */
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

function startBotSim(args: string[]) {
  const child = spawn(process.execPath, ['bin/bot.js', 'sim', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const lines = createInterface({ input: child.stdout });
  const firstLine = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`bot sim exited ${code} before printing: ${stderr}`)));
  });
  // Tests that expect an early exit never await the first line.
  firstLine.catch(() => undefined);
  return { child, firstLine, stderr: () => stderr };
}

describe('bot sim', () => {
  it('--json --port 0: prints {baseUrl, accounts} first, serves the v4 API, exits 0 on SIGTERM', async () => {
    const { child, firstLine } = startBotSim(['--json', '--port', '0']);
    try {
      const handOver = JSON.parse(await firstLine) as { baseUrl: string; accounts: Array<{ apiKey: string; apiSecret: string; partner: boolean }> };
      expect(handOver.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(handOver.accounts.map((a) => a.partner).sort()).toEqual([false, true]);
      expect((await publicGet(handOver.baseUrl, '/api/v4/public/ping')).json).toEqual(['pong']);
      const partner = handOver.accounts.find((a) => a.partner)!;
      expect((await signedPost(handOver.baseUrl, '/api/v4/main-account/smart/investments', partner)).status).toBe(200);
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('--faults FILE and --dialect exchange are applied', async () => {
    const { child, firstLine } = startBotSim(['--json', '--dialect', 'exchange', '--faults', 'test/sim/fixtures/faults-orderbook-503.yaml']);
    try {
      const { baseUrl, accounts } = JSON.parse(await firstLine) as { baseUrl: string; accounts: Array<{ apiKey: string; apiSecret: string }> };
      expect((await publicGet(baseUrl, '/api/v4/public/orderbook/BTC_USDT')).status).toBe(503);
      const placed = await signedPost(baseUrl, '/api/v4/order/new', accounts[0]!, { market: 'BTC_USDT', side: 'buy', amount: '0.001', price: '10000' });
      expect(placed.json).toHaveProperty('orderId');
      expect((await publicGet(baseUrl, '/api/v4/public/ping')).status).toBe(200);
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      expect((await exited)[0]).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('--config with a bad file exits 2 naming the file and the path', async () => {
    const { child, stderr } = startBotSim(['--config', 'test/sim/fixtures/bad-sim.yaml', '--json']);
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr()).toContain('bad-sim.yaml');
    expect(stderr()).toContain('markets');
  });
});
