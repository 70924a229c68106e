import { Decimal, ZERO, type Balances, type Intent, type Market, type OwnOrder, type Side } from '../../src/strategy/index.js';
import type { StopGuardParams } from './params.js';

/** The stop order the guard wants for the current position and market. */
export interface StopTarget {
  readonly side: Side;
  readonly amount: Decimal;
  readonly activationPrice: Decimal;
  readonly price: Decimal;
  /** The reference price it was computed from (best bid for a long, best ask for a short). */
  readonly reference: Decimal;
}

/** What the guard remembers between evaluations (the caller keeps it; the planner is pure). */
export interface GuardState {
  /** Reference price of the current stop: trailing compares against it. Unknown after a restart: derived from the stop. */
  readonly anchor?: Decimal | undefined;
  /** Since when (engine ms) the live stop has not matched the position. */
  readonly mismatchSince?: number | undefined;
}

export interface GuardInput {
  readonly market: Market;
  readonly params: StopGuardParams;
  readonly balances: Balances;
  readonly bestBid?: Decimal;
  readonly bestAsk?: Decimal;
  /** The strategy's live orders (`ctx.orders$`). */
  readonly live: readonly OwnOrder[];
  /** Client ids whose cancel this strategy already asked for. */
  readonly canceling: ReadonlySet<string>;
  /** A place intent was emitted and its order is not on `orders$` yet. */
  readonly placing: boolean;
  /**
   * Do not place now: a stop just left `orders$` without a cancel of ours (it fired and filled, most likely), and
   * the balances may not show that fill yet; a new stop sized from them would guard a position that is gone.
   */
  readonly hold?: boolean;
  readonly now: number;
  readonly state: GuardState;
}

export interface GuardDecision {
  readonly intents: Intent[];
  readonly state: GuardState;
  /** Why the intents were emitted (for the log). */
  readonly why?: string;
}

const step = (places: number) => new Decimal(10).pow(-places);

/** Base-asset position relative to the baseline: total (available + freeze) − baseline. Positive = long. */
export function positionOf(balances: Balances, market: Market, baseline: Decimal): Decimal {
  const asset = balances[market.stock];
  const total = asset ? asset.available.plus(asset.freeze) : ZERO;
  return total.minus(baseline);
}

/**
 * The stop for `position`: a long is guarded by a SELL stop-limit `trail` below the best bid (limit `limitOffset`
 * further down), a short by a BUY stop-limit `trail` above the best ask. Prices are put on the price step away from
 * the market, the amount down to the amount step and within what the balance can lock (`spare`: base for a sell,
 * quote for a buy, beyond what the guard's own stop already locks). undefined when there is nothing the market's
 * minimums allow to protect.
 */
export function stopTarget(
  market: Market,
  params: StopGuardParams,
  position: Decimal,
  top: { bestBid?: Decimal; bestAsk?: Decimal },
  spare: Decimal,
): StopTarget | undefined {
  const side: Side = position.gt(0) ? 'sell' : 'buy';
  const reference = side === 'sell' ? top.bestBid : top.bestAsk;
  if (position.isZero() || reference === undefined) return undefined;
  const tick = step(market.moneyPrec);
  const minPrice = market.minPrice ?? tick;
  let activationPrice: Decimal;
  let price: Decimal;
  if (side === 'sell') {
    activationPrice = reference.times(params.trail.negated().plus(1)).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_DOWN);
    price = activationPrice.times(params.limitOffset.negated().plus(1)).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_DOWN);
    if (price.gte(activationPrice)) price = activationPrice.minus(tick);
    if (price.lt(minPrice)) return undefined;
  } else {
    activationPrice = reference.times(params.trail.plus(1)).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_UP);
    price = activationPrice.times(params.limitOffset.plus(1)).toDecimalPlaces(market.moneyPrec, Decimal.ROUND_UP);
    if (price.lte(activationPrice)) price = activationPrice.plus(tick);
  }
  let amount = position.abs();
  if (params.maxAmount && amount.gt(params.maxAmount)) amount = params.maxAmount;
  // What the balance can lock: base for a sell; quote for a buy, with the taker fee as headroom.
  const affordable = side === 'sell' ? spare : spare.div(price.times(market.takerFee.plus(1)));
  if (amount.gt(affordable)) amount = affordable;
  if (market.maxTotal && amount.times(price).gt(market.maxTotal)) amount = market.maxTotal.div(price);
  amount = amount.toDecimalPlaces(market.stockPrec, Decimal.ROUND_DOWN);
  if (amount.lt(market.minAmount) || amount.isZero() || amount.times(price).lt(market.minTotal)) return undefined;
  return { side, amount, activationPrice, price, reference };
}

function unsettled(o: OwnOrder): boolean {
  return o.state === 'pending' || o.state === 'unknown';
}

/**
 * One evaluation of the guard. Replacing a stop is cancel-then-place (the new stop could not lock the balance
 * while the old one holds it): the cancel is emitted now, the new stop on a later evaluation once the old one has
 * left `orders$`. Changes of position must persist `settleMs` before they cause a replacement, because balances
 * and orders are polled separately and briefly disagree after every fill.
 */
export function planGuard(input: GuardInput): GuardDecision {
  const { market, params, now } = input;
  if (input.placing || input.live.some(unsettled)) return { intents: [], state: input.state };
  const position = positionOf(input.balances, market, params.baseline);
  const own = input.live.filter((o) => !o.cancelRequested && !input.canceling.has(o.clientOrderId));
  if (own.length < input.live.length) return { intents: [], state: input.state }; // a cancel is on its way: wait for it

  const side: Side = position.gt(0) ? 'sell' : 'buy';
  const asset = side === 'sell' ? input.balances[market.stock] : input.balances[market.money];
  const lockedByGuard = own
    .filter((o) => o.side === side)
    .reduce((sum, o) => sum.plus(side === 'sell' ? o.left : o.left.times(o.price).times(market.takerFee.plus(1))), ZERO);
  const spare = (asset?.available ?? ZERO).plus(lockedByGuard);
  const target = stopTarget(market, params, position, input, spare);

  if (own.length === 0) {
    if (!target || input.hold) return { intents: [], state: {} };
    return {
      intents: [
        { kind: 'place-stop-limit', side: target.side, amount: target.amount, price: target.price, activationPrice: target.activationPrice, tag: 'stop-guard' },
      ],
      state: { anchor: target.reference },
      why: `guard ${target.side} ${target.amount.toFixed()} @ activation ${target.activationPrice.toFixed()}`,
    };
  }
  if (own.length > 1) {
    return { intents: own.slice(1).map((o) => ({ kind: 'cancel' as const, clientOrderId: o.clientOrderId })), state: input.state, why: 'more than one stop' };
  }

  const stop = own[0]!;
  const cancelIt = (why: string): GuardDecision => ({ intents: [{ kind: 'cancel', clientOrderId: stop.clientOrderId }], state: {}, why });
  const matchesPosition = target !== undefined && target.side === stop.side && stop.left.minus(target.amount).abs().lt(step(market.stockPrec));
  if (!matchesPosition) {
    const since = input.state.mismatchSince ?? now;
    if (now - since >= params.settleMs) return cancelIt(target ? 'position changed' : 'nothing left to guard');
    return { intents: [], state: { ...input.state, mismatchSince: since } };
  }

  const anchor = input.state.anchor ?? anchorOf(stop, params);
  const state: GuardState = { anchor };
  if (anchor === undefined) return { intents: [], state };
  if (stop.side === 'sell' && target.reference.gte(anchor.times(params.step.plus(1)))) return cancelIt('trail up');
  if (stop.side === 'buy' && target.reference.lte(anchor.times(params.step.negated().plus(1)))) return cancelIt('trail down');
  return { intents: [], state };
}

/** The reference price a live stop was placed at, recovered from its activation price (after a restart). */
function anchorOf(stop: OwnOrder, params: StopGuardParams): Decimal | undefined {
  if (!stop.activationPrice) return undefined;
  return stop.side === 'sell' ? stop.activationPrice.div(params.trail.negated().plus(1)) : stop.activationPrice.div(params.trail.plus(1));
}
