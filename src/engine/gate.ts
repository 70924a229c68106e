import type { OrderBook } from '../model/book.js';
import { bestPrice } from '../model/book-levels.js';
import { Decimal, fmt } from '../model/decimal.js';
import { gt, gte, lte } from '../model/decimal-compare.js';
import { dadd, dmul } from '../model/decimal-small.js';
import type { Market } from '../model/market.js';
import type { OrderRequest, OrderTerms } from '../model/order.js';
import { describeViolations, priceStep, rememberValid, toMarketSteps, validateNewOrder, type RuleViolation } from '../rules/index.js';
import type { PlaceLimitIntent, PlaceStopLimitIntent } from '../strategy/intents.js';
import { checkPriceBand, maxDeviationOf, type PriceReference } from './price-band.js';
import { checkOrderRisk, type RiskLimits, type RiskState } from './risk-limits.js';
import type { Writable } from '../model/writable.js';

/**
 * An order that passed the gate: an OrderRequest on the market's steps, valid, within risk, with its client order id
 * and the strategy's tag. Exactly what will be sent: the executor hands it to the venue as it is.
 */
export type GatedOrder = OrderRequest & { readonly clientOrderId: string; readonly tag?: string };
export type GatedLimitOrder = Extract<GatedOrder, { readonly kind: 'limit' }>;

export type GateResult =
  | { readonly ok: true; readonly order: GatedOrder }
  | { readonly ok: false; readonly stage: 'rules' | 'risk'; readonly reason: string; readonly message: string };

export interface GateInput {
  readonly market: Market;
  readonly intent: PlaceLimitIntent | PlaceStopLimitIntent;
  readonly clientOrderId: string;
  readonly risk: RiskLimits;
  readonly riskState: RiskState;
  /** Money/stock the account can still commit (see `freeFunds`); undefined = not known yet, not checked. */
  readonly free?: FreeFunds | undefined;
  /** Latest book, for the post-only pre-check; undefined = not checked. */
  readonly book?: OrderBook | undefined;
  /** The price band's reference (see price-band.ts; the band itself is `risk.maxDeviation`); undefined = not checked. */
  readonly band?: { readonly reference: PriceReference | undefined } | undefined;
  readonly nowMs: number;
}

/** What the account can still commit (see `freeFunds`). */
export interface FreeFunds {
  readonly stock: Decimal;
  readonly money: Decimal;
  /**
   * True only when the funds surely cover an order of this side, amount and price (a buy's moneyLock, a sell's amount):
   * the exact check would pass. False or absent: the exact figures decide (see lazy-free-funds.ts).
   */
  plainlyCovers?(side: 'buy' | 'sell', amount: Decimal, price: Decimal): boolean;
}

const rulesReject = (v: readonly RuleViolation[]): GateResult => ({
  ok: false,
  stage: 'rules',
  reason: `rules:${v[0]?.code ?? 30}`,
  message: describeViolations(v),
});

/**
 * The one way an intent becomes an order: quantize (price toward the passive side, amount down), validate
 * the whole request with the rules module exactly as the venue will (one check: what `quantizeOrder` checks
 * and the id, flags and activation price), then the price band, the post-only and funds pre-checks, then risk.
 * Pure. A rejection is a value with a reason; nothing is ever sent for it.
 */
export function gatePlace(input: GateInput): GateResult {
  const { market, intent } = input;
  const q = toMarketSteps(market, { side: intent.side, price: intent.price, amount: intent.amount });
  const stop = intent.kind === 'place-stop-limit';
  // The activation price is a trigger, not a limit: put it on the nearest step.
  const activationPrice = stop ? intent.activationPrice.toNearest(priceStep(market), Decimal.ROUND_HALF_UP) : undefined;
  // The order, built once and complete (the tag too): what is validated is what is sent, and the very object the
  // executor hands to the venue. Built by property stores in the order the keys always had (kind, terms, flags, stp,
  // client order id, tag; absent ones absent), not by spreads: V8 takes its slow path for a spread followed by keys,
  // and this runs for every place.
  const order = (
    stop
      ? { kind: 'stop-limit', market: market.name, side: intent.side, price: q.price, amount: q.amount, activationPrice: activationPrice! }
      : { kind: 'limit', market: market.name, side: intent.side, price: q.price, amount: q.amount }
  ) as MutableOrder;
  if (!stop) {
    if (intent.postOnly !== undefined) order.postOnly = intent.postOnly;
    if (intent.ioc !== undefined) order.ioc = intent.ioc;
    if (intent.rpi !== undefined) order.rpi = intent.rpi;
  }
  if (intent.stp) order.stp = intent.stp;
  order.clientOrderId = input.clientOrderId;
  if (intent.tag !== undefined) order.tag = intent.tag;
  // the order was made just above: validated in full, not looked up among the requests validated before
  const violations = validateNewOrder(market, order, { kind: order.kind });
  if (violations.length > 0) return rulesReject(violations);
  // a venue in this process that gets this very object checks only what the gate cannot: the id's uniqueness
  rememberValid(order, market, order.kind);

  // Before the book and funds checks: a price far from any sane one is the first thing to say about such an order.
  if (input.band) {
    const band = checkPriceBand(
      maxDeviationOf(input.risk),
      input.band.reference,
      activationPrice ? { side: intent.side, price: q.price, activationPrice } : { side: intent.side, price: q.price },
    );
    if (!band.ok) return { ok: false, stage: 'risk', reason: `risk:${band.reason}`, message: band.message };
  }

  const book = input.book;
  if (!stop && (intent.postOnly || intent.rpi) && book) {
    // the side the order would take only
    const bestAsk = intent.side === 'buy' ? bestPrice(book, 'asks') : undefined;
    const bestBid = intent.side === 'sell' ? bestPrice(book, 'bids') : undefined;
    if (intent.side === 'buy' && bestAsk && gte(q.price, bestAsk)) {
      return {
        ok: false,
        stage: 'rules',
        reason: 'rules:post-only-would-take',
        message: `post-only buy at ${fmt(q.price)} would take the ask ${fmt(bestAsk)}`,
      };
    }
    if (intent.side === 'sell' && bestBid && lte(q.price, bestBid)) {
      return {
        ok: false,
        stage: 'rules',
        reason: 'rules:post-only-would-take',
        message: `post-only sell at ${fmt(q.price)} would take the bid ${fmt(bestBid)}`,
      };
    }
  }

  // the estimates settle most checks (plenty of funds): then no exact figure of the funds or the need is made
  if (input.free && input.free.plainlyCovers?.(intent.side, q.amount, q.price) !== true) {
    const need = intent.side === 'buy' ? moneyLock(market, q.amount, q.price) : q.amount;
    const have = intent.side === 'buy' ? input.free.money : input.free.stock;
    if (gt(need, have)) {
      const asset = intent.side === 'buy' ? market.money : market.stock;
      return { ok: false, stage: 'risk', reason: 'risk:insufficient-balance', message: `needs ${fmt(need)} ${asset}, about ${fmt(have)} free` };
    }
  }

  const risk = checkOrderRisk(input.risk, market, input.riskState, { side: intent.side, price: q.price, amount: q.amount }, input.nowMs);
  if (!risk.ok) return { ok: false, stage: 'risk', reason: `risk:${risk.reason}`, message: risk.message };

  return { ok: true, order: order as GatedOrder };
}

/** A gated order of either kind while it is built key by key: the model's flat terms of an order, writable. */
type MutableOrder = Writable<OrderTerms & Pick<GatedOrder, 'clientOrderId' | 'tag'>>;

const ONE = new Decimal(1);

/** Money a buy locks, with headroom for the larger fee (the venue may reserve it). */
export function moneyLock(market: Market, amount: Decimal, price: Decimal): Decimal {
  return dmul(dmul(amount, price), feeFactor(market));
}

// The last market's 1 + its larger fee (markets are immutable values; the funds estimate asks it per live order).
let factorOf: Market | undefined;
let factor: Decimal = ONE;
/** 1 + the market's larger fee: what moneyLock multiplies amount × price by. */
export function feeFactor(market: Market): Decimal {
  if (market !== factorOf) {
    factor = dadd(gt(market.takerFee, market.makerFee) ? market.takerFee : market.makerFee, ONE);
    factorOf = market;
  }
  return factor;
}
