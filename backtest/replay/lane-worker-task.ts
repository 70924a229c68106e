import { parentPort, workerData } from 'node:worker_threads';
import type { Decimal } from '../../src/model/decimal.js';
import type { RiskLimits } from '../../src/engine/risk-limits.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { decodeDecimals, laneToWire } from './lane-wire.js';
import { runBacktest } from './run-backtest.js';
import type { LaneTask, LaneTaskAnswer } from './run-parallel.js';

/** One lane of a parallel backtest, in its own thread: the same runBacktest, one fill assumption. */
async function runLane(task: LaneTask): Promise<LaneTaskAnswer> {
  const strategies = [];
  for (const s of task.sources) {
    strategies.push({
      id: s.id,
      definition: await loadStrategy(s.use, s.cwd, s.loadWhere),
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
  });
  const lane = r.lanes[0]!;
  return { ok: true, lane: laneToWire(lane, [r.market.stock, r.market.money], task.digest === true), facts: { startT: r.startT, endT: r.endT, snapshots: r.snapshots, trades: r.trades } };
}

runLane(workerData as LaneTask).then(
  (answer) => parentPort!.postMessage(answer),
  (error: unknown) => {
    const e = error as { message?: string; code?: string; name?: string };
    parentPort!.postMessage({ ok: false, error: { message: e.message ?? String(error), code: e.code, name: e.name } } satisfies LaneTaskAnswer);
  },
);
