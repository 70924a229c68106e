/**
 * One lane of a backtest: a virtual exchange with one fill assumption, the venue in front of it, and the
 * daemon's runtime (same strategies, gate, risk, executor, tracker) driving it. A backtest runs one lane
 * per fill assumption over the same data, on the same virtual clock.
 */
import { pino, type Logger } from 'pino';
import type { Decimal } from '../../src/model/decimal.js';
import type { Market } from '../../src/model/market.js';
import type { Deal } from '../../src/model/order.js';
import { DISCARDING_JOURNAL, MemoryJournal } from '../../src/engine/journal.js';
import { createRuntime, type PollingOptions, type Runtime, type RuntimeStrategy } from '../../src/engine/runtime.js';
import type { EngineEvent } from '../../src/engine/events.js';
import type { RunSummary } from '../../src/engine/run-summary.js';
import type { Intent } from '../../src/strategy/intents.js';
import type { FillAssumption } from '../../src/fill-model/fill-model.js';
import type { FillModelParams } from '../../src/fill-model/fill-model-params.js';
import { midPrice, midTicks } from '../../src/fill-model/book-queries.js';
import type { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { BacktestVenue, type LatencyModel } from './backtest-venue.js';
import { EquityCurve } from './equity-curve.js';
import type { LaneMarks } from './lane-view.js';
import type { SteppingScheduler } from './stepping-scheduler.js';
import type { RecentTrades } from './recent-trades.js';
import { VirtualExchange } from './virtual-exchange.js';

export interface LaneOptions {
  readonly assumption: FillAssumption;
  /** The optimistic lane's parameters (fill-model-params.ts). Default: the model's defaults. */
  readonly fillModel?: FillModelParams | undefined;
  readonly market: Market;
  readonly scheduler: SteppingScheduler;
  readonly balances: Readonly<Record<string, Decimal>>;
  readonly hasTrades: boolean;
  readonly strategies: readonly RuntimeStrategy[];
  readonly polling: PollingOptions;
  readonly latency?: LatencyModel;
  readonly rateLimits?: boolean;
  readonly logger?: Logger;
  /** Keep the runtime's journal records (`journal`). Default true. */
  readonly keepJournal?: boolean;
  /** The recording's trades, served by the venue's recent-trades endpoint (strategies' trades$ and candles). */
  readonly trades?: RecentTrades | undefined;
}

export interface IntentRecord {
  readonly t: number;
  readonly strategyId: string;
  readonly intent: Intent;
}

export class Lane {
  readonly assumption: FillAssumption;
  readonly exchange: VirtualExchange;
  readonly venue: BacktestVenue;
  readonly runtime: Runtime;
  readonly equity = new EquityCurve();
  readonly intents: IntentRecord[] = [];
  /** Engine rejections by reason (`rules:32`, `risk:...`, `venue:10`). */
  readonly rejections = new Map<string, number>();
  readonly errors: string[] = [];
  /** Fills as the engine learnt them (through the deals endpoint), each once. */
  readonly engineFills: Deal[] = [];
  summary: RunSummary | undefined;
  /** The runtime's journal (in memory), as the daemon would have written it; undefined when not kept. */
  readonly journal: MemoryJournal | undefined;
  readonly #market: Market;
  /** The snapshot of the last equity point: its exact mid marks the report's PnL. */
  #lastSampled: RecordedSnapshot | undefined;
  /** The exchange's totals of the market's assets as numbers (what totalNumber answers), asked on every sample. */
  readonly #stockTotal: () => number;
  readonly #moneyTotal: () => number;

  constructor(o: LaneOptions) {
    this.assumption = o.assumption;
    this.#market = o.market;
    this.journal = o.keepJournal === false ? undefined : new MemoryJournal();
    const now = (): number => o.scheduler.now();
    this.exchange = new VirtualExchange({
      market: o.market,
      assumption: o.assumption,
      balances: o.balances,
      hasTrades: o.hasTrades,
      now,
      fillModel: o.fillModel,
    });
    this.venue = new BacktestVenue({
      exchange: this.exchange,
      scheduler: o.scheduler,
      ...(o.latency ? { latency: o.latency } : {}),
      ...(o.rateLimits === undefined ? {} : { rateLimits: o.rateLimits }),
      trades: o.trades,
    });
    this.runtime = createRuntime({
      api: this.venue,
      scheduler: o.scheduler,
      clock: { now },
      logger: o.logger ?? pino({ level: 'silent' }),
      markets: new Map([[o.market.name, o.market]]),
      strategies: o.strategies,
      polling: o.polling,
      // not kept: the records are dropped, and the runtime skips making those of its hot paths (Journal.discards)
      journal: this.journal ?? DISCARDING_JOURNAL,
      cancelOnStop: true,
    });
    this.runtime.events$.subscribe((e) => this.#onEvent(e));
    this.#stockTotal = this.exchange.totalNumberOf(o.market.stock);
    this.#moneyTotal = this.exchange.totalNumberOf(o.market.money);
  }

  #onEvent(e: EngineEvent): void {
    if (e.type === 'intent') this.intents.push({ t: e.at, strategyId: e.strategyId, intent: e.intent });
    else if (e.type === 'rejected') this.rejections.set(e.reason, (this.rejections.get(e.reason) ?? 0) + 1);
    else if (e.type === 'error') this.errors.push(`${e.code}: ${e.message}`);
    else if (e.type === 'fill') this.engineFills.push(e.deal);
  }

  /** Records an equity point at the current snapshot's mid. */
  sample(t: number): void {
    const s = this.exchange.snapshot;
    const mid = s === undefined ? undefined : midTicks(s);
    if (mid === undefined || s === undefined) return;
    this.#lastSampled = s;
    const midNumber = mid / s.tickScale;
    const stockN = this.#stockTotal();
    const moneyN = this.#moneyTotal();
    this.equity.push(t, midNumber, moneyN + stockN * midNumber, stockN);
  }

  /** Read once the runtime has stopped: its books no longer change then. */
  get marks(): LaneMarks {
    return {
      engineMid: this.runtime.status().markets.find((m) => m.market === this.#market.name)?.mid,
      lastMid: this.#lastSampled === undefined ? undefined : midPrice(this.#lastSampled),
    };
  }
}
