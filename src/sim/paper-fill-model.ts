/**
 * The backtest's fill model (src/fill-model/fill-model.ts) applied to the paper venue's resting orders, one market,
 * at each upstream book of the live flow (live-flow.ts).
 *
 * The mirror (book-mirror.ts) already gives one term of the model through the sim's matching: when the upstream's
 * book shows the other side at or through an order's price, the flow's orders placed there cross it and it fills, as
 * maker. What no order of the mirrored book shows is the rest of the evidence: sell-aggressor trades through a buy's
 * price or at it beyond the queue ahead (pessimistic), or, optimistic, any of that, or a decrease at the price that
 * trades explain with the order near the front. So each resting order of a client carries the model's QueueState
 * (from `initialQueue` on the upstream book current when it was first seen resting) and, at each new upstream book,
 * `fillStep` from the previous book to the new one with the upstream trades taken since (the feed polls trades, so
 * `hasTrades`; a trade counts for an order only when it is younger than the order) says what it fills. The part
 * the mirror's crossing did not already fill in the same step, rounded down to the amount step, fills as maker at the
 * order's price against the flow account (SimExchange.fillResting: matching's own fill and settlement).
 *
 * So per step an order fills max(what the mirror's crossing filled, the model's fill). The crossing fills
 * min(left, max(0, X1 - X0)), the model's through term (the mirror does not place again what the order ate while the
 * upstream still shows it: mirror-eaten.ts), so the model's fill is at least the crossing's and the paper venue fills
 * as the backtest does (test/backtest/paper-parity.test.ts checks the two are equal).
 *
 * A stale spell (live-flow.ts: no upstream book for `staleAfterMs`) is a gap in the recording, as the backtest sees
 * one: no book comes, so no step is taken and nothing fills, but the queue states, the last book before the spell
 * (the next step's `before`) and the upstream trades taken in the spell are all kept; the first fresh book is one
 * step from the last book before the spell, with every trade since. That is what the backtest's fill model does
 * between two recorded snapshots with a gap between them (X0 carried, the trades in between counted), so the two
 * stay equal across the spell (test/backtest/paper-parity.test.ts). Forgetting the queues instead re-joined each
 * order with X0 = the fresh book's through-quantity (no through fill) while the mirror placed that quantity and its
 * crossing filled it: more than the backtest. The mirror keeps its eaten memory through the spell for the same reason.
 */
import type { OrderBook, PublicTrade } from '../model/book.js';
import { ZERO, type Decimal } from '../model/decimal.js';
import { gt, lte } from '../model/decimal-compare.js';
import type { Market } from '../model/market.js';
import { amountStep } from '../rules/index.js';
import { fillStep, initialQueue, type FillAssumption, type QueueState, type TickTrade } from '../fill-model/fill-model.js';
import { modelShares, type FillModelParams } from '../fill-model/fill-model-params.js';
import { snapshotOfBook } from '../recording/book-snapshot.js';
import { priceToTicks, type RecordedSnapshot } from '../recording/recording-format.js';
import type { SimExchange } from './exchange.js';

export interface PaperFillModelOptions {
  readonly market: Market;
  /** The flow account: its orders make the mirrored book and it is the counterparty of the model's fills. */
  readonly flowAccount: string;
  readonly assumption: FillAssumption;
  /** The optimistic bound's parameters (the `fillModel:` block). Default: queueAhead 1, decreaseTrades 1. */
  readonly params?: FillModelParams | undefined;
}

interface Followed {
  state: QueueState;
  /** What the order had left before the mirror moved to the new book (the model's `left` for this step). */
  leftBefore: Decimal;
}

export class PaperFillModel {
  /** The last upstream book (kept through a stale spell: the step's `before`); undefined before the first book. */
  #snapshot: RecordedSnapshot | undefined;
  #orders = new Map<number, Followed>();
  /** Upstream trades taken since the last book: the evidence of the next step. */
  #trades: TickTrade[] = [];
  readonly #tickScale: number;
  readonly #step: Decimal;
  /** The model's shares as Decimals, undefined where the model as it always was applies (1, or pessimistic). */
  readonly #queueAhead: Decimal | undefined;
  readonly #decreaseTrades: Decimal | undefined;

  constructor(private readonly o: PaperFillModelOptions) {
    this.#tickScale = 10 ** o.market.moneyPrec;
    this.#step = amountStep(o.market);
    // as the backtest's virtual exchange makes them, so the two fill alike
    ({ queueAhead: this.#queueAhead, decreaseTrades: this.#decreaseTrades } = modelShares(o.assumption, o.params));
  }

  /** Upstream trades taken at a step, stale spells included: evidence for the next book (none before the first). */
  addTrades(trades: readonly PublicTrade[]): void {
    if (this.#snapshot === undefined) return;
    for (const t of trades) {
      this.#trades.push({ t: t.time, priceTicks: priceToTicks(t.price.toFixed(), this.#tickScale), amount: t.amount, takerSide: t.takerSide });
    }
  }

  /**
   * Before the mirror moves to a new book: orders that started resting since the last book join their queue in the
   * book current when they came (the one still current; after a stale spell the last before it, as the backtest's
   * current snapshot across a gap), and every order's `left` is noted, so that what the mirror's crossing fills next
   * is told from the model's fill.
   */
  beforeBook(ex: SimExchange): void {
    const s = this.#snapshot;
    if (s === undefined) return;
    const resting = ex.restingOrders(this.o.market.name, this.o.flowAccount);
    const seen = new Set<number>();
    for (const r of resting) {
      seen.add(r.orderId);
      const f = this.#orders.get(r.orderId);
      if (f !== undefined) f.leftBefore = r.left;
      else this.#orders.set(r.orderId, { state: initialQueue(s, r.side, r.ticks, this.#queueAhead), leftBefore: r.left });
    }
    for (const id of this.#orders.keys()) if (!seen.has(id)) this.#orders.delete(id);
  }

  /** After the mirror moved to `book` (taken at `nowMs`): each resting order takes the model's step, and fills by it. */
  afterBook(ex: SimExchange, book: OrderBook, nowMs: number): void {
    const before = this.#snapshot;
    const after = snapshotOfBook(book, nowMs, this.o.market.moneyPrec);
    this.#snapshot = after;
    const trades = this.#trades;
    this.#trades = [];
    const market = this.o.market.name;
    const resting = ex.restingOrders(market, this.o.flowAccount);
    if (before === undefined) {
      // the first book: every order joins the back of its queue here
      this.#orders.clear();
      for (const r of resting) this.#orders.set(r.orderId, { state: initialQueue(after, r.side, r.ticks, this.#queueAhead), leftBefore: r.left });
      return;
    }
    const kept = new Map<number, Followed>();
    for (const r of resting) {
      const f = this.#orders.get(r.orderId);
      if (f === undefined) {
        // came during this step (a stop the mirror's fills fired): it joins the queue of the new book
        kept.set(r.orderId, { state: initialQueue(after, r.side, r.ticks, this.#queueAhead), leftBefore: r.left });
        continue;
      }
      const step = fillStep({
        side: r.side,
        priceTicks: r.ticks,
        left: f.leftBefore,
        state: f.state,
        before,
        after,
        trades: trades.length === 0 ? trades : trades.filter((t) => t.t > r.placedMs),
        hasTrades: true,
        assumption: this.o.assumption,
        decreaseTrades: this.#decreaseTrades,
      });
      kept.set(r.orderId, { state: step.state, leftBefore: r.left });
      // the mirror's crossing filled part of the step already (as matching does): only the rest, whole lots, is due
      const crossed = f.leftBefore.sub(r.left);
      const owed = step.fill.sub(crossed);
      const due = this.#lots(gt(owed, r.left) ? r.left : owed);
      if (gt(due, ZERO)) ex.fillResting(r.account, market, r.orderId, due, this.o.flowAccount);
    }
    this.#orders = kept;
  }

  #lots(amount: Decimal): Decimal {
    return lte(amount, ZERO) ? ZERO : amount.div(this.#step).floor().mul(this.#step);
  }
}
