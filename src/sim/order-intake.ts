import type { Decimal } from '../model/decimal.js';
import { BotError } from '../model/errors.js';
import type { AccountState } from './account-state.js';
import type { MarketEngine } from './market-engine.js';
import { wouldTake } from './matching.js';
import { normaliseStp, toTicks } from './order-input.js';
import { type SimOrder, toOrder } from './sim-order.js';
import type { LimitOrderInput, PlaceResult, StopLimitInput } from './sim-types.js';
import { pow10, scaledSafeInteger, toUnits } from './units.js';

/** What placing an order needs of the exchange (exchange.ts): its accounts, engines, ledger scale and sequences. */
export interface OrderIntake {
  readonly states: ReadonlyMap<string, AccountState>;
  readonly engines: ReadonlyMap<string, MarketEngine>;
  readonly scale: number;
  /** Called only once the order's funds are locked, before `eventTime`. */
  nextOrderId(): number;
  eventTime(): number;
}

export function placeLimitOrder(c: OrderIntake, accountId: string, o: LimitOrderInput): PlaceResult {
  const pre = precheck(c, accountId, o.market, o.clientOrderId);
  if (!pre.ok) return pre;
  const { engine, state } = pre;
  const m = engine.market;
  const ticks = toTicks(o.price, m.moneyPrec);
  const postOnly = o.postOnly === true || o.rpi === true;
  if (postOnly && wouldTake(engine.book, o.side, ticks)) {
    return { ok: false, reason: 'post-only', message: 'Order would be executed immediately; post-only orders may only add liquidity.' };
  }
  const order = newOrder(c, accountId, engine, o, 'limit', ticks, postOnly, { postOnly: o.postOnly === true, ioc: o.ioc === true, rpi: o.rpi === true });
  if (order === undefined) return notEnoughBalance();
  state.addOpen(order);
  engine.submit(order);
  return { ok: true, order: toOrder(order, c.scale) };
}

/** Locks funds now; rests untriggered until the last trade price reaches `activationPrice` (fires at once if it already has). */
export function placeStopLimitOrder(c: OrderIntake, accountId: string, o: StopLimitInput): PlaceResult {
  const pre = precheck(c, accountId, o.market, o.clientOrderId);
  if (!pre.ok) return pre;
  const { engine, state } = pre;
  const m = engine.market;
  const order = newOrder(
    c,
    accountId,
    engine,
    o,
    'stop-limit',
    toTicks(o.price, m.moneyPrec),
    false,
    { postOnly: false, ioc: false, rpi: false },
    o.activationPrice,
  );
  if (order === undefined) return notEnoughBalance();
  state.addOpen(order);
  engine.submitStop(order);
  return { ok: true, order: toOrder(order, c.scale) };
}

function precheck(
  c: OrderIntake,
  accountId: string,
  market: string,
  clientOrderId: string | undefined,
): { ok: true; engine: MarketEngine; state: AccountState } | { ok: false; reason: 'account' | 'market' | 'client-order-id'; message: string } {
  const state = c.states.get(accountId);
  if (state === undefined) return { ok: false, reason: 'account', message: 'Unknown account.' };
  const engine = c.engines.get(market);
  if (engine === undefined || !engine.market.tradesEnabled) return { ok: false, reason: 'market', message: 'Market is not available.' };
  if (clientOrderId !== undefined && clientOrderId !== '' && state.isClientOrderIdUsed(clientOrderId)) {
    return { ok: false, reason: 'client-order-id', message: 'This client order id is already used by the current account.' };
  }
  return { ok: true, engine, state };
}

/** Builds the order and freezes its funds; undefined (nothing frozen) when the balance is short. */
export function newOrder(
  c: OrderIntake,
  accountId: string,
  engine: MarketEngine,
  o: LimitOrderInput | StopLimitInput,
  kind: SimOrder['kind'],
  ticks: number,
  makerOnly: boolean,
  flags: { postOnly: boolean; ioc: boolean; rpi: boolean },
  activationPrice?: Decimal,
): SimOrder | undefined {
  const m = engine.market;
  const lots = scaledSafeInteger(o.amount, m.stockPrec);
  if (lots !== undefined ? lots <= 0 : !(o.amount.gt(0) && o.amount.decimalPlaces() <= m.stockPrec)) {
    throw new BotError(`sim: amount ${o.amount.toFixed()} is not a positive multiple of 10^-${m.stockPrec}`, { code: 'ERR_SIM_AMOUNT_GRID' });
  }
  const scale = c.scale;
  const amountU = lots !== undefined ? BigInt(lots) * pow10(scale - m.stockPrec) : toUnits(o.amount, scale);
  const ticksU = BigInt(ticks);
  const hold = engine.settlement.lock(accountId, o.side, amountU, ticksU, makerOnly);
  if (hold === undefined) return undefined;
  const order: SimOrder = {
    id: c.nextOrderId(),
    accountId,
    clientOrderId: o.clientOrderId ?? '',
    market: o.market,
    side: o.side,
    kind,
    timestamp: c.eventTime(),
    amount: o.amount,
    price: o.price,
    ticks,
    ticksU,
    amountU,
    leftU: amountU,
    dealMoneyU: 0n,
    dealFeeU: 0n,
    postOnly: flags.postOnly,
    ioc: flags.ioc,
    rpi: flags.rpi,
    stp: normaliseStp(o.stp),
    status: 'NEW',
    lockU: hold.lockU,
    lockCell: hold.lockCell,
    gainCell: hold.gainCell,
    state: c.states.get(accountId)!,
    open: true,
  };
  return activationPrice === undefined ? order : { ...order, activationPrice };
}

function notEnoughBalance(): PlaceResult {
  return { ok: false, reason: 'balance', message: 'Not enough balance.' };
}
