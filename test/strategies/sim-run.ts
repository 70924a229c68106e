import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { createRuntime } from '../../src/engine/runtime.js';
import type { RunSummary } from '../../src/engine/run-summary.js';
import type { EngineEvent } from '../../src/engine/events.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { JournalRecord } from '../../src/engine/journal-records.js';
import type { Market } from '../../src/model/market.js';
import { D, type Decimal } from '../../src/model/decimal.js';
import { DaemonConfigSchema, type DaemonConfig, type DaemonStrategyConfig } from '../../src/settings/daemon-config.js';
import { loadYamlConfig } from '../../src/settings/load-yaml.js';
import type { SimStats } from '../../src/sim/http/sim-stats.js';
import { DEFAULT_SIM_CONFIG_INPUT, parseSimConfig, type SimConfigInput } from '../../src/sim/sim-config.js';
import { loadStrategy } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import { VirtualSim } from '../helpers/virtual-sim.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The strategy entries of one of the repo's example configs, validated with the daemon's schema. */
export function exampleConfig(name: string): { account: string; strategies: DaemonStrategyConfig[]; polling: DaemonConfig['polling'] } {
  const cfg = loadYamlConfig(`${repoRoot}config/${name}.yaml`, DaemonConfigSchema, {});
  if (cfg.venue.kind !== 'sim') throw new Error(`config/${name}.yaml: expected venue kind sim`);
  return { account: cfg.venue.account ?? 'bob', strategies: cfg.strategies, polling: cfg.polling };
}

/**
 * The built-in simulated exchange with its market running `speed`× faster, in-process on a virtual clock
 * (test/helpers/virtual-sim.ts): its synthetic flow and matching are the sim's, a run takes no wall-clock time.
 */
export function startFastSim(speed: number, patch: (input: SimConfigInput) => SimConfigInput = (i) => i): VirtualSim {
  return new VirtualSim({ config: parseSimConfig(patch({ ...DEFAULT_SIM_CONFIG_INPUT, speed })) });
}

export interface SimRunResult {
  readonly summary: RunSummary;
  readonly events: EngineEvent[];
}

/**
 * Runs strategies through the real runtime (gate, risk, executor, tracker, journal) and the real REST client
 * against `sim` (in-process, see startFastSim) for `ms` of virtual time, then stops it. Pass the same `journal` to a
 * second run to restart: the runtime replays it and adopts the account's open orders.
 */
export async function runAgainstSim(o: {
  sim: VirtualSim;
  account: string;
  strategies: readonly DaemonStrategyConfig[];
  journal: MemoryJournal;
  ms: number;
  cancelOnStop: boolean;
  polling?: { bookMs?: number; balancesMs?: number; openOrdersMs?: number; dealsMs?: number };
  /** Called once, half-way through the run (e.g. to move the market). */
  midway?: () => void;
}): Promise<SimRunResult> {
  const { sim } = o;
  const client = sim.client(o.account);
  const events: EngineEvent[] = [];
  try {
    const markets = new Map<string, Market>((await sim.run(client.markets())).map((m) => [m.name, m]));
    const strategies = [];
    for (const s of o.strategies) {
      strategies.push({ id: s.id, definition: await loadStrategy(builtinStrategies, s.use), params: s.params, market: s.market, risk: s.risk });
    }
    const scheduler = sim.scheduler;
    const runtime = createRuntime({
      api: client,
      scheduler,
      clock: { now: () => scheduler.now() },
      logger: pino({ level: 'silent' }),
      markets,
      strategies,
      polling: { bookMs: 500, balancesMs: 1000, openOrdersMs: 1000, dealsMs: 500, ...o.polling },
      journal: o.journal,
      cancelOnStop: o.cancelOnStop,
    });
    const sub = runtime.events$.subscribe((e) => events.push(e));
    await sim.run(runtime.start());
    await sim.advance(o.ms / 2);
    let midwayError: Error | undefined;
    try {
      o.midway?.();
    } catch (error) {
      midwayError = error instanceof Error ? error : new Error(String(error)); // stop the runtime first, then report it
    }
    await sim.advance(o.ms / 2);
    const summary = await sim.run(runtime.stop({ cancelOpenOrders: o.cancelOnStop }));
    sub.unsubscribe();
    if (midwayError !== undefined) throw midwayError;
    return { summary, events };
  } finally {
    client.close();
  }
}

/** Rejections seen in the journal and the events, by stage ('rules', 'risk', 'venue', ...). */
export function rejectionsByStage(records: readonly JournalRecord[], events: readonly EngineEvent[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (stage: string, what: string) => (out[stage] ??= []).push(what);
  for (const r of records) if (r.type === 'rejected') add(r.stage, `${r.reason}: ${r.message}`);
  for (const r of records) if (r.type === 'outcome' && r.state === 'rejected') add('venue-outcome', `${r.clientOrderId}: ${r.reason ?? ''}`);
  for (const e of events) if (e.type === 'rejected' && e.stage === 'venue') add('venue-event', `${e.reason}: ${e.message}`);
  return out;
}

/**
 * Requests the sim REJECTED (4xx with a venue code), by code, leaving out code 0: that is the nonce check
 * ("Too many requests." when a nonce arrives below the last one, exchange-facts §1), hit when the client's
 * concurrent polls overtake each other on the wire; the client retries those and they say nothing about the
 * orders. `nonceErrors` counts them apart; `where` lists the endpoint and status of every 4xx.
 */
export function simRejections(
  sim: { readonly stats: SimStats },
  records: readonly JournalRecord[],
): { byCode: Record<number, number>; nonceErrors: number; racedCancels: number; where: string[] } {
  const where = sim.stats.arrivals.filter((a) => a.status >= 400).map((a) => `${a.endpoint} ${a.status}`);
  const byCode = new Map([...sim.stats.rejectionsByCode].filter(([code]) => code !== 0));
  // Code 2 on a cancel ("Unexecuted order was not found.") for an order that the journal shows FILLED is the
  // unavoidable race of a cancel with a fill (the engine reconciles it); only the rest counts.
  const racedCancels = cancelsOfFilledOrders(records);
  const notFound = (byCode.get(2) ?? 0) - racedCancels;
  if (notFound > 0) byCode.set(2, notFound);
  else byCode.delete(2);
  return { byCode: Object.fromEntries(byCode), nonceErrors: sim.stats.rejectionsByCode.get(0) ?? 0, racedCancels, where };
}

function cancelsOfFilledOrders(records: readonly JournalRecord[]): number {
  const amount = new Map<string, Decimal>();
  const dealt = new Map<string, Decimal>();
  const seen = new Set<number>();
  for (const r of records) {
    if (r.type === 'submit') amount.set(r.clientOrderId, D(r.order.amount));
    if (r.type === 'fill' && !seen.has(r.deal.id)) {
      seen.add(r.deal.id);
      dealt.set(r.deal.clientOrderId, (dealt.get(r.deal.clientOrderId) ?? D(0)).plus(D(r.deal.amount)));
    }
  }
  const filled = (id: string) => amount.has(id) && (dealt.get(id) ?? D(0)).gte(amount.get(id)!);
  return new Set(records.flatMap((r) => (r.type === 'cancel' && filled(r.clientOrderId) ? [r.clientOrderId] : []))).size;
}

/**
 * Lifetimes of orders from the journal: from `submit` (or `adopt`, for an order taken over from the account) to
 * its first terminal outcome (filled, canceled, rejected, or a fill that completes it), or open to the end.
 * Groups them by `keyOf` (default: the order's tag; e.g. `(o) => o.price` per price level) and returns, per key,
 * the most orders that were live at the same moment.
 */
export function maxLivePerTag(
  records: readonly JournalRecord[],
  keyOf: (o: { tag?: string; price: string }) => string | undefined = (o) => o.tag,
): Map<string, number> {
  const keyOfOrder = new Map<string, string>();
  const spans = new Map<string, { start: number; end: number; amount: Decimal; dealt: Decimal }>();
  const seenDeals = new Set<number>();
  for (const r of records) {
    if ((r.type === 'submit' || r.type === 'adopt') && !spans.has(r.clientOrderId)) {
      const key = keyOf({ ...(r.type === 'submit' && r.tag !== undefined ? { tag: r.tag } : {}), price: r.order.price });
      if (key === undefined) continue;
      keyOfOrder.set(r.clientOrderId, key);
      spans.set(r.clientOrderId, { start: r.t, end: Infinity, amount: D(r.type === 'adopt' ? r.left : r.order.amount), dealt: D(0) });
    }
    if (r.type === 'outcome' && (r.state === 'filled' || r.state === 'canceled' || r.state === 'rejected')) {
      const span = spans.get(r.clientOrderId);
      if (span && span.end === Infinity) span.end = r.t;
    }
    // a fill that completes the order ends it (the engine learns fills from deals, not from an outcome record)
    if (r.type === 'fill' && !seenDeals.has(r.deal.id)) {
      seenDeals.add(r.deal.id);
      const span = spans.get(r.deal.clientOrderId);
      if (!span) continue;
      span.dealt = span.dealt.plus(D(r.deal.amount));
      if (span.end === Infinity && span.dealt.gte(span.amount)) span.end = r.t;
    }
  }
  const byKey = new Map<string, Array<{ start: number; end: number }>>();
  for (const [id, span] of spans) {
    const key = keyOfOrder.get(id)!;
    (byKey.get(key) ?? byKey.set(key, []).get(key)!).push(span);
  }
  const result = new Map<string, number>();
  for (const [key, list] of byKey) {
    // sweep: +1 at start, −1 at end; an end and a start at the same ms do not overlap (ends first)
    const points = list
      .flatMap((s) => [
        { t: s.start, d: 1 },
        { t: s.end, d: -1 },
      ])
      .sort((a, b) => a.t - b.t || a.d - b.d);
    let live = 0;
    let most = 0;
    for (const p of points) most = Math.max(most, (live += p.d));
    result.set(key, most);
  }
  return result;
}
