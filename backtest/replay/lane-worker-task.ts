import { parentPort } from 'node:worker_threads';
import type { Decimal } from '../../src/model/decimal.js';
import type { RiskLimits } from '../../src/engine/risk-limits.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { decodeDecimals, laneToWire, wireTransfers } from './lane-wire.js';
import { replayStopFrom } from './replay-stop.js';
import { runBacktest } from './run-backtest.js';
import type { LaneTask, LaneTaskAnswer } from './run-parallel.js';

/** One lane of a parallel backtest, in a thread of its own: the same runBacktest, one fill assumption. */
async function runLane(task: LaneTask): Promise<LaneTaskAnswer> {
  const strategies = [];
  for (const s of task.sources) {
    strategies.push({
      id: s.id,
      definition: await loadStrategy(builtinStrategies, s.use, s.cwd, s.loadWhere),
      params: s.params,
      market: s.market,
      ...(s.risk !== undefined ? { risk: decodeDecimals(s.risk) as RiskLimits } : {}),
      ...(s.where !== undefined ? { where: s.where } : {}),
    });
  }
  const r = await runBacktest({
    ...task.options,
    balances: decodeDecimals(task.balances) as Record<string, Decimal>,
    strategies,
    assumptions: [task.assumption],
    ...(task.stopBuffer !== undefined ? { stop: replayStopFrom(task.stopBuffer) } : {}),
  });
  const lane = r.lanes[0]!;
  const facts = { startT: r.startT, endT: r.endT, snapshots: r.snapshots, trades: r.trades, ...(r.partial === true ? { partial: true } : {}) };
  return { ok: true, lane: laneToWire(lane, [r.market.stock, r.market.money], task.digest === true), facts };
}

// One task per message: the thread stays up between runs (run-parallel.ts keeps it warm for the next one).
parentPort!.on('message', (task: LaneTask) => {
  runLane(task).then(
    (answer) => parentPort!.postMessage(answer, answer.ok ? wireTransfers(answer.lane) : []),
    (error: unknown) => {
      const e = error as { message?: string; code?: string; name?: string };
      parentPort!.postMessage({ ok: false, error: { message: e.message ?? String(error), code: e.code, name: e.name } } satisfies LaneTaskAnswer);
    },
  );
});
