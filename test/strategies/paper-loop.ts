import { NEVER, ReplaySubject, Subject, VirtualTimeScheduler, type Subscription } from 'rxjs';
import { pino } from 'pino';
import { D, ZERO, type Decimal } from '../../src/model/decimal.js';
import type { Balances } from '../../src/model/balance.js';
import type { OrderBook } from '../../src/model/book.js';
import type { Market } from '../../src/model/market.js';
import type { Deal } from '../../src/model/order.js';
import type { Intent, OwnOrder, StrategyDefinition } from '../../src/strategy/index.js';

interface Book {
  orders: Map<string, OwnOrder>;
  seq: number;
  now: number;
  dealId: number;
  balances: { stock: Decimal; money: Decimal };
}

/**
 * A tiny synchronous stand-in for the engine and a venue, for property tests of a strategy's order bookkeeping
 * (a test double of our own SDK interface, not a mock of a module). Places show up at once as `pending` and turn
 * `open` on the next book; cancels are flagged `cancelRequested` and go through on the next book (so a strategy
 * sees them in flight); a resting limit fills whole when the book trades through it; an activated stop-limit
 * fills at once. Records the most orders ever live at once under one tag.
 */
export class PaperLoop {
  private readonly book$ = new ReplaySubject<OrderBook>(1);
  private readonly orders$ = new ReplaySubject<readonly OwnOrder[]>(1);
  private readonly fills$ = new Subject<Deal>();
  private readonly balances$ = new ReplaySubject<Balances>(1);
  private readonly queue: Intent[] = [];
  private readonly subscription: Subscription;
  private readonly state: Book;
  /** Timers of the strategy (e.g. `interval(…, ctx.scheduler)`) run on this, up to the loop's clock. */
  private readonly scheduler = new VirtualTimeScheduler();
  maxPerTag = 0;
  everPlaced = 0;
  badCancels = 0;
  fills = 0;
  readonly placed: Intent[] = [];
  completed = false;

  constructor(
    def: StrategyDefinition,
    params: unknown,
    private readonly market: Market,
    private readonly options: { fillsFirst?: boolean; stock?: Decimal; money?: Decimal } = {},
    carried?: Book,
  ) {
    this.state = carried ?? { orders: new Map(), seq: 0, now: 0, dealId: 0, balances: { stock: options.stock ?? D(10), money: options.money ?? D(100_000) } };
    const ctx = {
      params,
      market,
      book$: this.book$,
      balances$: this.balances$,
      orders$: this.orders$,
      fills$: this.fills$,
      // no public trades here: the strategies it tests do not read them
      trades$: NEVER,
      candles: () => NEVER,
      scheduler: this.scheduler,
      clock: { now: () => this.state.now },
      log: pino({ level: 'silent' }),
      id: 'paper',
    };
    this.orders$.next(this.live());
    this.pushBalances();
    this.subscription = def.create(ctx).subscribe({ next: (i) => this.queue.push(i), complete: () => (this.completed = true) });
    this.drain();
  }

  /** A fresh strategy instance over the same open orders (what the engine's adoption gives after a restart). */
  restart(def: StrategyDefinition, params: unknown): PaperLoop {
    this.dispose();
    const next = new PaperLoop(def, params, this.market, this.options, this.state);
    next.maxPerTag = this.maxPerTag;
    next.everPlaced = this.everPlaced;
    next.badCancels = this.badCancels;
    next.fills = this.fills;
    next.placed.push(...this.placed);
    return next;
  }

  dispose(): void {
    this.subscription.unsubscribe();
  }

  maxOrdersPerTag(): number {
    return this.maxPerTag;
  }

  /** The base balance (starts at `options.stock`, moves with every fill). */
  stockBalance(): Decimal {
    return this.state.balances.stock;
  }

  live(): OwnOrder[] {
    return [...this.state.orders.values()];
  }

  /** One poll: time passes, cancels and places settle, orders the book trades through fill, then the book is shown. */
  setBook(bid: Decimal, ask: Decimal, advanceMs = 1000): void {
    this.state.now += advanceMs;
    this.scheduler.maxFrames = this.state.now;
    this.scheduler.flush();
    this.drain();
    const { orders } = this.state;
    for (const [id, o] of orders) {
      if (o.cancelRequested) orders.delete(id);
      else if (o.state === 'pending') orders.set(id, { ...o, state: 'open' });
    }
    const deals: Deal[] = [];
    for (const [id, o] of orders) {
      if (o.state !== 'open') continue;
      const stop = o.kind === 'stop-limit';
      const trades = stop
        ? o.side === 'sell'
          ? bid.lte(o.activationPrice!)
          : ask.gte(o.activationPrice!)
        : o.side === 'buy'
          ? ask.lte(o.price)
          : bid.gte(o.price);
      if (!trades) continue;
      orders.delete(id);
      deals.push(this.deal(o));
    }
    const book: OrderBook = {
      market: this.market.name,
      timestamp: this.state.now / 1000,
      bids: [{ price: bid, amount: D(1) }],
      asks: [{ price: ask, amount: D(1) }],
    };
    if (this.options.fillsFirst) for (const d of deals) this.fills$.next(d);
    this.orders$.next(this.live());
    if (deals.length > 0) this.pushBalances();
    if (!this.options.fillsFirst) for (const d of deals) this.fills$.next(d);
    this.book$.next(book);
    this.drain();
  }

  private deal(o: OwnOrder): Deal {
    const amount = o.left;
    const money = amount.times(o.price);
    const b = this.state.balances;
    if (o.side === 'buy') {
      b.stock = b.stock.plus(amount);
      b.money = b.money.minus(money);
    } else {
      b.stock = b.stock.minus(amount);
      b.money = b.money.plus(money);
    }
    this.state.dealId += 1;
    this.fills += 1;
    return {
      id: this.state.dealId,
      time: this.state.now / 1000,
      market: this.market.name,
      side: o.side,
      role: 'maker',
      amount,
      price: o.price,
      deal: money,
      fee: ZERO,
      orderId: this.state.dealId,
      clientOrderId: o.clientOrderId,
    };
  }

  private pushBalances(): void {
    const b = this.state.balances;
    this.balances$.next({ [this.market.stock]: { available: b.stock, freeze: ZERO }, [this.market.money]: { available: b.money, freeze: ZERO } });
  }

  private drain(): void {
    for (let round = 0; this.queue.length > 0; round++) {
      if (round > 50) throw new Error('strategy keeps emitting intents: no fixed point after 50 rounds');
      const batch = this.queue.splice(0);
      for (const intent of batch) this.apply(intent);
      this.orders$.next(this.live());
    }
  }

  private apply(intent: Intent): void {
    const { orders } = this.state;
    if (intent.kind === 'cancel') {
      const o = orders.get(intent.clientOrderId);
      if (!o || o.cancelRequested) this.badCancels += 1;
      else orders.set(o.clientOrderId, { ...o, cancelRequested: true });
      return;
    }
    if (intent.kind === 'cancel-all') {
      for (const [id, o] of orders) orders.set(id, { ...o, cancelRequested: true });
      return;
    }
    this.state.seq += 1;
    this.everPlaced += 1;
    this.placed.push(intent);
    const id = `p${this.state.seq}`;
    orders.set(id, {
      clientOrderId: id,
      market: this.market.name,
      side: intent.side,
      kind: intent.kind === 'place-stop-limit' ? 'stop-limit' : 'limit',
      price: intent.price,
      ...(intent.kind === 'place-stop-limit' ? { activationPrice: intent.activationPrice } : {}),
      amount: intent.amount,
      left: intent.amount,
      state: 'pending',
      ...(intent.tag !== undefined ? { tag: intent.tag } : {}),
      updatedAt: this.state.now,
    });
    const perTag = new Map<string, number>();
    for (const o of orders.values()) if (o.tag) perTag.set(o.tag, (perTag.get(o.tag) ?? 0) + 1);
    this.maxPerTag = Math.max(this.maxPerTag, ...perTag.values());
  }
}
