/**
 * The backtest's exchange for ONE account on ONE recorded market, synchronous and deterministic.
 * The public book is the recording; our orders never enter it: they fill by the fill model
 * (src/fill-model/fill-model.ts) as snapshots and trades arrive.
 *
 * Balances live in the simulated exchange's own `Ledger` (exact integer units at the scale the sim
 * itself requires for the market, available/freeze cells, fee pool) and move only through the sim's own
 * `Settlement` (src/sim/settlement.ts: the lock when an order is accepted, each fill as maker or taker, the
 * release when it ends), on integer price ticks; the recorded market is the counterparty of every fill.
 * Stop-limit orders activate on the last recorded trade price; a recording without trades uses the
 * snapshot's mid as the last price. Once active they behave as limit orders (take, then rest).
 */
import { Decimal, ZERO } from '../../src/model/decimal.js';
import { dadd, dsub } from '../../src/model/decimal-small.js';
import { gt, gte, lte, minOf as dmin } from '../../src/model/decimal-compare.js';
import type { Market } from '../../src/model/market.js';
import type { Deal, DealRole, Order, OrderKind } from '../../src/model/order.js';
import { amountStep, roundToStep } from '../../src/rules/index.js';
import { Ledger } from '../../src/sim/ledger.js';
import { toTicks } from '../../src/sim/order-input.js';
import { requiredScale, Settlement } from '../../src/sim/settlement.js';
import type { CancelBy, LimitOrderInput, PlaceResult, StopLimitInput } from '../../src/sim/sim-types.js';
import { LedgerViews } from './ledger-views.js';
import { AccountOrders, toOrder, type OrderQuery, type VirtualOrder as SimOrder } from './account-orders.js';
import { virtualOrder } from './virtual-order.js';
import type { RecordedSnapshot } from '../../src/recording/recording-format.js';
import { crossesBook, levelsThrough, midPrice, oppositeSide } from '../../src/fill-model/book-queries.js';
import { fillStep, initialQueue, type FillAssumption, type QueueState, type TickTrade } from '../../src/fill-model/fill-model.js';
import { modelShares, type FillModelParams } from '../../src/fill-model/fill-model-params.js';
import { isQuietStep, quietSteps } from '../../src/fill-model/quiet-step.js';

export const BACKTEST_ACCOUNT = 'backtest';

export interface VirtualExchangeOptions {
  readonly market: Market;
  readonly assumption: FillAssumption;
  /** Initial trade balances. */
  readonly balances: Readonly<Record<string, Decimal>>;
  /** The recording carries trades (lets them tighten the fill band). */
  readonly hasTrades: boolean;
  /** Virtual clock, ms. */
  readonly now: () => number;
  /** The optimistic lane's parameters (fill-model-params.ts). Default: DEFAULT_FILL_MODEL. */
  readonly fillModel?: FillModelParams | undefined;
}

/** One fill of ours, as the report needs it. */
export interface FillRecord extends Deal {
  /** Virtual time, ms. */
  readonly t: number;
}

interface Resting {
  readonly order: SimOrder;
  queue: QueueState;
  ref: RecordedSnapshot;
  arrivedAt: number;
}

export class VirtualExchange {
  readonly market: Market;
  readonly ledger: Ledger;
  readonly account = new AccountOrders();
  readonly fills: FillRecord[] = [];
  readonly rejections = new Map<string, number>();
  placed = 0;
  canceled = 0;
  /** Base amount of every accepted order (fill ratio). */
  orderedBase: Decimal = ZERO;
  #snapshot: RecordedSnapshot | undefined;
  #tradesSince: TickTrade[] = [];
  #lastTradePrice: Decimal | undefined;
  /** Without recorded trades the last price is the mid of this (two-sided) snapshot, made a Decimal only when a stop needs it. */
  #lastMidBook: RecordedSnapshot | undefined;
  readonly #resting = new Map<number, Resting>();
  readonly #stops = new Map<number, SimOrder>();
  /** Liquidity our takers used from the current snapshot, by price tick. */
  #consumed = new Map<number, Decimal>();
  #orderId = 0;
  readonly #views: LedgerViews;
  #dealId = 0;
  readonly #step: Decimal;
  readonly #settlement: Settlement;
  /** The fill model's shares as Decimals, undefined where the model as it always was applies (1, or a pessimistic lane). */
  readonly #queueAhead: Decimal | undefined;
  readonly #decreaseTrades: Decimal | undefined;

  constructor(private readonly options: VirtualExchangeOptions) {
    this.market = options.market;
    this.#step = amountStep(options.market);
    this.ledger = new Ledger([options.market.stock, options.market.money], Math.max(requiredScale(options.market), 8));
    this.ledger.openAccount(BACKTEST_ACCOUNT, options.balances, {});
    this.#settlement = new Settlement(options.market, this.ledger);
    this.#views = new LedgerViews(this.ledger, BACKTEST_ACCOUNT);
    ({ queueAhead: this.#queueAhead, decreaseTrades: this.#decreaseTrades } = modelShares(options.assumption, options.fillModel));
  }

  get snapshot(): RecordedSnapshot | undefined {
    return this.#snapshot;
  }

  /** `ledger.tradeBalances` of the account, Decimals reused while unchanged (see ledger-views.ts). */
  tradeBalances(): ReturnType<Ledger['tradeBalances']> {
    return this.#views.tradeBalances();
  }

  /** Total (available + freeze) of an asset. */
  total(asset: string): Decimal {
    const c = this.ledger.cell(BACKTEST_ACCOUNT, asset);
    return this.ledger.decimal(c.available + c.freeze);
  }

  /** `total(asset)` as a number (chart data), recomputed only when the ledger cell changed. */
  totalNumber(asset: string): number {
    return this.#views.totalNumber(asset);
  }

  /** `totalNumber(asset)` as a function of no arguments (the equity sample asks it on every snapshot). */
  totalNumberOf(asset: string): () => number {
    return this.#views.totalNumberOf(asset);
  }

  openOrders(f?: OrderQuery): Order[] {
    return this.account.openOrders(f);
  }

  deals(f?: OrderQuery): readonly Deal[] {
    return this.account.deals(f);
  }

  // ------------------------------------------------------------------ market data

  /** A recorded trade: evidence for the fill model, and the last price for stop activation. */
  onTrade(trade: TickTrade, price: Decimal): void {
    this.#tradesSince.push(trade);
    this.#lastTradePrice = price;
    this.#lastMidBook = undefined;
  }

  /** A new snapshot becomes current: resting orders are filled by the model, stops may fire. */
  onSnapshot(s: RecordedSnapshot): void {
    const trades = this.#tradesSince;
    // New containers only when the old ones hold something (most snapshots come without trades or takers).
    if (trades.length > 0) this.#tradesSince = [];
    if (this.#consumed.size > 0) this.#consumed = new Map();
    const before = this.#snapshot;
    this.#snapshot = s;
    if (before !== undefined && this.#resting.size > 0) {
      // the usual step of most resting orders is told without the fill model's step (quiet-step.ts): nothing changes
      // but the snapshot the order was last looked at against
      const quiet = quietSteps(this.options.assumption, s, trades);
      // Straight over the map: a fill may only delete the order being advanced, which a Map iteration allows.
      for (const r of this.#resting.values()) {
        if (quiet && isQuietStep(r.order.side, r.order.ticks, r.queue, s)) {
          r.ref = s;
          r.arrivedAt = s.t;
        } else this.#advance(r, s, trades);
      }
    }
    if (!this.options.hasTrades && s.levelCount('asks') > 0 && s.levelCount('bids') > 0) this.#lastMidBook = s;
    this.#fireStops();
  }

  #advance(r: Resting, after: RecordedSnapshot, trades: readonly TickTrade[]): void {
    const o = r.order;
    const step = fillStep({
      side: o.side,
      priceTicks: o.ticks,
      left: o.left,
      state: r.queue,
      before: r.ref,
      after,
      trades: r.arrivedAt > r.ref.t ? trades.filter((tr) => tr.t > r.arrivedAt) : trades,
      hasTrades: this.options.hasTrades,
      assumption: this.options.assumption,
      decreaseTrades: this.#decreaseTrades,
    });
    r.queue = step.state;
    r.ref = after;
    r.arrivedAt = after.t;
    // no fill (the usual step): #lots would make it ZERO again
    if (step.fill === ZERO) return;
    const amount = this.#lots(step.fill);
    if (gt(amount, ZERO)) this.#fill(o, amount, o.price, o.ticks, 'maker');
  }

  // ------------------------------------------------------------------ orders

  placeLimit(input: LimitOrderInput): PlaceResult {
    const s = this.#snapshot;
    const ticks = toTicks(input.price, this.market.moneyPrec);
    if ((input.postOnly === true || input.rpi === true) && s !== undefined && crossesBook(s, input.side, ticks)) {
      return this.#reject('post-only', 'Order would be filled immediately; post-only orders must rest.');
    }
    const o = this.#newOrder(input, 'limit', ticks);
    if (!o.ok) return o;
    this.#submit(o.order);
    return { ok: true, order: toOrder(o.order) };
  }

  placeStopLimit(input: StopLimitInput): PlaceResult {
    const o = this.#newOrder(input, 'stop-limit', toTicks(input.price, this.market.moneyPrec));
    if (!o.ok) return o;
    this.#stops.set(o.order.id, o.order);
    this.#fireStops();
    return { ok: true, order: toOrder(o.order) };
  }

  cancel(by: CancelBy): Order | undefined {
    const o = this.account.findOpen(this.market.name, by);
    if (o === undefined) return undefined;
    this.#resting.delete(o.id);
    this.#stops.delete(o.id);
    this.#finish(o, 'CANCELED');
    this.canceled += 1;
    return toOrder(o);
  }

  #newOrder(input: LimitOrderInput | StopLimitInput, kind: OrderKind, ticks: number): { ok: true; order: SimOrder } | (PlaceResult & { ok: false }) {
    const m = this.market;
    if (input.market !== m.name) return this.#reject('market', 'Market is not available.');
    const clientOrderId = input.clientOrderId ?? '';
    if (clientOrderId !== '' && this.account.isClientOrderIdUsed(clientOrderId)) {
      return this.#reject('client-order-id', 'This client order id is already used.');
    }
    const limit = input as LimitOrderInput;
    const makerOnly = kind === 'limit' && (limit.postOnly === true || limit.rpi === true);
    const hold = this.#settlement.lock(BACKTEST_ACCOUNT, input.side, this.ledger.units(input.amount), BigInt(ticks), makerOnly);
    if (hold === undefined) return this.#reject('balance', 'Not enough balance.');
    const order = virtualOrder(input, kind, ++this.#orderId, ticks, this.options.now(), hold);
    this.account.add(order);
    this.placed += 1;
    this.orderedBase = dadd(this.orderedBase, input.amount);
    return { ok: true, order };
  }

  /** Takes what the current snapshot offers up to the limit price, then rests (or cancels an ioc remainder). */
  #submit(order: SimOrder): void {
    const s = this.#snapshot;
    if (s !== undefined) {
      // the levels at or through the limit price, best first
      const name = oppositeSide(order.side);
      const through = levelsThrough(s, order.side, order.ticks);
      for (let i = 0; i < through && gt(order.left, ZERO); i++) {
        const t = s.levelTicks(name, i);
        const used = this.#consumed.get(t) ?? ZERO;
        const avail = s.levelAmount(name, i).sub(used);
        const amount = this.#lots(dmin(order.left, avail));
        if (lte(amount, ZERO)) continue;
        this.#consumed.set(t, used.add(amount));
        const price = s.levelPrice(name, i);
        // the recorded price itself, on the market's grid (it throws otherwise), settles the fill: not its float ticks
        this.#fill(order, amount, price, toTicks(price, this.market.moneyPrec), 'taker');
      }
    }
    if (!order.open) return;
    if (order.ioc || s === undefined) {
      // ioc remainder; or no book at all yet (the replay loads the first snapshot before the engine starts)
      this.#finish(order, 'CANCELED');
      return;
    }
    this.#resting.set(order.id, { order, queue: initialQueue(s, order.side, order.ticks, this.#queueAhead), ref: s, arrivedAt: this.options.now() });
  }

  #fireStops(): void {
    if (this.#stops.size === 0) return;
    if (this.#lastMidBook !== undefined) {
      this.#lastTradePrice = midPrice(this.#lastMidBook);
      this.#lastMidBook = undefined;
    }
    const last = this.#lastTradePrice;
    if (last === undefined) return;
    for (const o of [...this.#stops.values()]) {
      const a = o.activationPrice!;
      if (o.side === 'buy' ? gte(last, a) : lte(last, a)) {
        this.#stops.delete(o.id);
        this.#submit(o);
      }
    }
  }

  #fill(o: SimOrder, amount: Decimal, price: Decimal, ticks: number, role: DealRole): void {
    const m = this.market;
    const L = this.ledger;
    const units = L.units(amount);
    const dealU = this.#settlement.notional(units, BigInt(ticks));
    const feeU = this.#settlement.fill(o, units, dealU, role);
    const deal = L.decimal(dealU);
    const fee = L.decimal(feeU);
    // decimal-small: the same Decimals as decimal.js's sub/add, on integers when small (every fill passes here)
    o.left = dsub(o.left, amount);
    o.dealStock = dadd(o.dealStock, amount);
    o.dealMoney = dadd(o.dealMoney, deal);
    o.dealFee = dadd(o.dealFee, fee);
    const now = this.options.now();
    const d: FillRecord = {
      id: ++this.#dealId,
      time: now / 1000,
      t: now,
      market: m.name,
      side: o.side,
      role,
      amount,
      price,
      deal,
      fee,
      orderId: o.id,
      clientOrderId: o.clientOrderId,
    };
    this.account.addDeal(d);
    this.fills.push(d);
    if (o.left.isZero()) {
      this.#resting.delete(o.id);
      this.#finish(o, 'FILLED');
    } else o.status = 'PARTIALLY_FILLED';
  }

  #finish(o: SimOrder, status: 'FILLED' | 'CANCELED'): void {
    this.#settlement.release(o);
    o.status = status;
    o.open = false;
    this.account.finish(o);
  }

  #lots(amount: Decimal): Decimal {
    // floor(amount / step) × step with the market's step 10^-p is rounding down to p places (rules/steps: exact, and
    // no Decimal at all when the amount is on the step already)
    return lte(amount, ZERO) ? ZERO : roundToStep(amount, this.#step, Decimal.ROUND_FLOOR);
  }

  #reject(reason: string, message: string): PlaceResult & { ok: false } {
    this.rejections.set(reason, (this.rejections.get(reason) ?? 0) + 1);
    return { ok: false, reason: reason as 'balance', message };
  }
}
