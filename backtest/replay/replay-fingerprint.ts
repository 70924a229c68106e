import { createHash } from 'node:crypto';
import { journalDeal, journalIntent } from '../../src/engine/journal-records.js';
import { Lane } from './lane.js';
import type { LaneView, ReplayOutcome } from './lane-view.js';

/**
 * One sha256 over everything a lane decided: the intents (with their virtual times), the fills the engine learnt,
 * the venue's own fills, the equity curve, the journal and the summary. Computed where the lane ran (a worker
 * thread sends it back with the lane).
 */
export function laneDigest(lane: Lane): string {
  if (lane.journal === undefined) throw new Error(`lane ${lane.assumption}: its journal was not kept (keepJournal: false), so it has no fingerprint`);
  const h = createHash('sha256');
  h.update(`lane ${lane.assumption}\n`);
  for (const i of lane.intents) h.update(`i ${i.t} ${i.strategyId} ${JSON.stringify(journalIntent(i.intent))}\n`);
  for (const d of lane.engineFills) h.update(`f ${JSON.stringify(journalDeal(d))}\n`);
  for (const d of lane.exchange.fills)
    h.update(
      `x ${JSON.stringify(d, (_k, v: unknown) => (v !== null && typeof v === 'object' && 'toFixed' in v ? (v as { toFixed(): string }).toFixed() : v))}\n`,
    );
  for (const p of lane.equity) h.update(`e ${p.t} ${p.mid} ${p.equity} ${p.inventory}\n`);
  for (const rec of lane.journal.records()) h.update(`j ${JSON.stringify(rec)}\n`);
  h.update(`s ${JSON.stringify(lane.summary)}\n`);
  return h.digest('hex');
}

/**
 * The replay's fingerprint: the run's facts and every lane's digest, in lane order. Two replays with the same
 * fingerprint made the same decisions at the same virtual times, whether their lanes ran in one thread or several;
 * speed work on the replay must leave it unchanged.
 */
export function replayFingerprint(r: ReplayOutcome): string {
  const h = createHash('sha256');
  h.update(`${r.market.name}|${r.startT}|${r.endT}|${r.snapshots}|${r.trades}\n`);
  for (const lane of r.lanes) h.update(`${digestOf(lane)}\n`);
  return h.digest('hex');
}

function digestOf(lane: LaneView): string {
  if (lane instanceof Lane) return laneDigest(lane);
  const digest = (lane as { digest?: string }).digest;
  if (digest === undefined) throw new Error(`lane ${lane.assumption}: no digest (not a Lane, not from a worker)`);
  return digest;
}
