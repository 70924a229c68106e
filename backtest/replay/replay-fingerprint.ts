import { createHash } from 'node:crypto';
import { journalDeal, journalIntent } from '../../src/engine/journal-records.js';
import type { BacktestResult } from './run-backtest.js';

/**
 * One sha256 over everything a replay decides, lane by lane: the intents (with their virtual times), the fills the
 * engine learnt, the venue's own fills, the equity curve, the journal and the summary. Two replays with the same
 * fingerprint made the same decisions at the same virtual times; speed work on the replay must leave it unchanged.
 */
export function replayFingerprint(r: BacktestResult): string {
  const h = createHash('sha256');
  h.update(`${r.market.name}|${r.startT}|${r.endT}|${r.snapshots}|${r.trades}\n`);
  for (const lane of r.lanes) {
    h.update(`lane ${lane.assumption}\n`);
    for (const i of lane.intents) h.update(`i ${i.t} ${i.strategyId} ${JSON.stringify(journalIntent(i.intent))}\n`);
    for (const d of lane.engineFills) h.update(`f ${JSON.stringify(journalDeal(d))}\n`);
    for (const d of lane.exchange.fills) h.update(`x ${JSON.stringify(d, (_k, v: unknown) => (v !== null && typeof v === 'object' && 'toFixed' in v ? (v as { toFixed(): string }).toFixed() : v))}\n`);
    for (const p of lane.equity) h.update(`e ${p.t} ${p.mid} ${p.equity} ${p.inventory}\n`);
    for (const rec of lane.journal.records()) h.update(`j ${JSON.stringify(rec)}\n`);
    h.update(`s ${JSON.stringify(lane.summary)}\n`);
  }
  return h.digest('hex');
}
