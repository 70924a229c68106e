/**
 * A recorded session on a controlled venue, for the parity tests: the market maker trading over loopback HTTP
 * against the simulated exchange replaying a generated recording R (`bot sim --replay R`; its matching is the
 * backtest's pessimistic assumption), on virtual time (test/backtest/lockstep-daemon.ts), with the books it polls
 * recorded by the daemon's own session recorder, as `record:` does. Leaves in `dir` what a real session leaves: the journal
 * (journal.jsonl), the recording of the polls (session.jsonl.gz) and the daemon config beside the journal
 * (daemon.yaml, naming the journal), plus R itself (market.jsonl.gz).
 *
 * The quotes sit inside the recorded depth (12 and 18 ticks from the mid, the book showing 20 levels a side), so
 * the displayed quantities at their prices change under them: the optimistic lane, which reads decreases as
 * trades, fills where the venue did not, and the two lanes make a band.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRecording } from '../../../backtest/data/generate-recording.js';
import { D } from '../../../src/model/decimal.js';
import { loadRecordedBooks } from '../../../src/sim/recorded-flow.js';
import { loadStrategy } from '../../../src/strategy/load-strategy.js';
import { planPolling } from '../../../src/streams/polling-plan.js';
import { builtinStrategies } from '../../../strategies/index.js';
import { runDaemonAgainstReplayingSim, type LockstepResult } from '../lockstep-daemon.js';
import { generatedBtcUsdtMarket } from '../fixtures.js';

export const MM_PARAMS = { spread: '0.000008', size: '0.01', levels: 2, levelSpacing: '0.000002', maxInventory: '0.05', refreshThreshold: '0.000003' };
export const POLLING_WISHES = { bookMs: 1000, balancesMs: 5000, openOrdersMs: 5000, dealsMs: 1000 };

export interface SessionFiles {
  readonly dir: string;
  readonly journal: string;
  readonly recording: string;
  readonly config: string;
  readonly market: string;
  readonly daemon: LockstepResult;
}

export async function recordSession(dir: string, o: { snapshots: number; seed?: number }): Promise<SessionFiles> {
  const market = join(dir, 'market.jsonl.gz');
  const recording = join(dir, 'session.jsonl.gz');
  const journal = join(dir, 'journal.jsonl');
  const config = join(dir, 'daemon.yaml');
  const wm = generatedBtcUsdtMarket({ takerFeePercent: '0.2' });
  await generateRecording({
    out: market,
    market: wm,
    snapshots: o.snapshots,
    intervalMs: 1000,
    startT: 1_700_000_000_000,
    startTicks: 3_000_000,
    stepTicks: 4,
    seed: o.seed ?? 7,
    minQty: 0.5,
  });
  const books = await loadRecordedBooks(market);
  const mm = await loadStrategy(builtinStrategies, 'market-maker');
  const plan = planPolling({ markets: ['BTC_USDT'], wishes: POLLING_WISHES });
  const daemon = await runDaemonAgainstReplayingSim({
    books,
    balances: { BTC: D('1'), USDT: D('100000') },
    strategies: [{ id: 'mm', definition: mm, market: 'BTC_USDT', params: MM_PARAMS }],
    polling: { ...plan.intervals, bookLimit: 20 },
    record: recording,
  });
  writeFileSync(journal, daemon.journal.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(
    config,
    [
      '# the daemon config of the session (venue: the sim replaying market.jsonl.gz)',
      'venue: { kind: rest, baseUrl: "http://127.0.0.1:8080", apiKey: "${BOT_API_KEY}", apiSecret: "${BOT_API_SECRET}" }',
      'strategies:',
      `  - { id: mm, use: market-maker, market: BTC_USDT, params: ${JSON.stringify(MM_PARAMS)}, risk: { unlimited: true } }`,
      `polling: { bookMs: ${POLLING_WISHES.bookMs}, balancesMs: ${POLLING_WISHES.balancesMs}, openOrdersMs: ${POLLING_WISHES.openOrdersMs}, dealsMs: ${POLLING_WISHES.dealsMs}, bookLimit: 20 }`,
      'journal: { path: var/journal.jsonl }',
      '',
    ].join('\n'),
  );
  return { dir, journal, recording, config, market, daemon };
}
