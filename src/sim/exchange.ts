import type { Balances, MainBalances } from '../model/balance.js';
import type { OrderBook } from '../model/book.js';
import type { Decimal } from '../model/decimal.js';
import { BotError } from '../model/errors.js';
import type { Market } from '../model/market.js';
import type { ExecutedOrder } from '../model/executed-order.js';
import type { Deal, Order } from '../model/order.js';
import { AccountState } from './account-state.js';
import { accountFromConfig, ledgerScale, marketFromConfig } from './exchange-setup.js';
import { type Investment, InvestmentBook, type InvestmentFilters } from './investments.js';
import { fireDueKillSwitches, killSwitchStatus } from './kill-switch-firing.js';
import { type KillSwitchFiring, KillSwitches } from './kill-switches.js';
import { Ledger } from './ledger.js';
import { createCodeFromMain, transferFunds } from './main-account.js';
import { type EngineContext, MarketEngine } from './market-engine.js';
import { type OrderIntake, placeLimitOrder, placeStopLimitOrder } from './order-intake.js';
import { type OrderHistoryFilter, queryOrderHistory } from './order-history.js';
import { publicBook, type PublicBookOptions } from './public-book.js';
import { FrozenBook } from './frozen-book.js';
import type { SimConfig } from './sim-config.js';
import { toOrder } from './sim-order.js';
import { fillByUnseenTaker, restingOrders, type RestingOrder } from './unseen-taker.js';
import { KILL_SWITCH_ORDER_TYPES, type KillSwitchOrderType } from '../venue/wire.js';
import type {
  CancelBy,
  CreateCodeResult,
  DealsFilter,
  KillSwitchStatus,
  LimitOrderInput,
  OpenOrdersFilter,
  PlaceResult,
  SimAccount,
  SimTrade,
  StopLimitInput,
  TransferResult,
} from './sim-types.js';

/**
 * The simulated exchange, in process: accounts and their ledger, one matching engine per market,
 * stop-limit orders, kill switches, codes and investments. The HTTP layer (src/sim/http) validates
 * requests with src/rules and calls these methods; tests and the backtest's parity checks call them
 * directly. Single-threaded and synchronous: every call leaves the state consistent.
 */
export class SimExchange {
  readonly markets: ReadonlyMap<string, Market>;
  readonly accounts: readonly SimAccount[];
  private readonly engines = new Map<string, MarketEngine>();
  private readonly states = new Map<string, AccountState>();
  private readonly byKey = new Map<string, SimAccount>();
  private readonly ledger: Ledger;
  private readonly investmentBook: InvestmentBook;
  private readonly killSwitches = new KillSwitches();
  private readonly tradeListeners = new Set<(t: SimTrade) => void>();
  private readonly frozen = new Map<string, FrozenBook>();
  private orderSeq = 0;
  private dealSeq = 0;
  private lastMicros = 0;
  private readonly ctx: EngineContext;
  private readonly intake: OrderIntake;

  constructor(
    readonly config: SimConfig,
    private readonly clock: () => number = Date.now,
  ) {
    const markets = new Map<string, Market>();
    for (const m of config.markets) markets.set(m.name, marketFromConfig(m));
    this.markets = markets;
    this.ledger = new Ledger(
      config.markets.flatMap((m) => [m.stock, m.money]),
      ledgerScale(config, markets),
    );
    const accounts: SimAccount[] = [];
    for (const a of config.accounts) {
      const account = accountFromConfig(a);
      accounts.push(account);
      this.byKey.set(account.apiKey, account);
      this.states.set(account.id, new AccountState(account, this.ledger.scale, config.history.maxFinishedOrders, config.history.maxDeals));
      this.ledger.openAccount(account.id, a.trade, a.main);
    }
    this.accounts = accounts;
    this.ctx = {
      ledger: this.ledger,
      nextDealId: () => ++this.dealSeq,
      eventTime: () => this.eventTime(),
      hasTradeListeners: () => this.tradeListeners.size > 0,
      nowSeconds: () => this.clock() / 1000,
      publishTrade: (t) => {
        for (const fn of this.tradeListeners) fn(t);
      },
    };
    for (const m of markets.values()) this.engines.set(m.name, new MarketEngine(m, this.ctx));
    this.intake = {
      states: this.states,
      engines: this.engines,
      scale: this.ledger.scale,
      nextOrderId: () => ++this.orderSeq,
      eventTime: () => this.eventTime(),
    };
    const clientIds = accounts.filter((a) => !a.internal).map((a) => a.id);
    this.investmentBook = new InvestmentBook(config.investments, clientIds, Math.floor(this.clock() / 1000));
  }

  accountByKey(apiKey: string): SimAccount | undefined {
    return this.byKey.get(apiKey);
  }

  accountByName(name: string): SimAccount | undefined {
    return this.states.get(name)?.account;
  }

  /** Every asset the exchange knows (markets' and balances'). */
  get assets(): ReadonlySet<string> {
    return this.ledger.assets;
  }

  placeLimit(accountId: string, o: LimitOrderInput): PlaceResult {
    return placeLimitOrder(this.intake, accountId, o);
  }

  /** Locks funds now; rests untriggered until the last trade price reaches `activationPrice` (fires at once if it already has). */
  placeStopLimit(accountId: string, o: StopLimitInput): PlaceResult {
    return placeStopLimitOrder(this.intake, accountId, o);
  }

  cancel(accountId: string, market: string, by: CancelBy): Order | undefined {
    const order = this.states.get(accountId)?.findOpen(market, by);
    if (order === undefined) return undefined;
    this.engines.get(market)!.cancel(order);
    return toOrder(order, this.ledger.scale);
  }

  /** Cancels the account's open orders in `market` (all markets when undefined), untriggered stops too; returns them. */
  cancelAll(accountId: string, market?: string): Order[] {
    const state = this.states.get(accountId);
    if (state === undefined) return [];
    const out: Order[] = [];
    for (const o of [...state.open.values()]) {
      if (market !== undefined && o.market !== market) continue;
      this.engines.get(o.market)!.cancel(o);
      out.push(toOrder(o, this.ledger.scale));
    }
    return out;
  }

  /** The executed-orders history (see order-history.ts), newest finished first. */
  orderHistory(accountId: string, f: OrderHistoryFilter): ExecutedOrder[] {
    const state = this.states.get(accountId);
    return state === undefined ? [] : queryOrderHistory(state.finishedNewestFirst(), f, this.ledger.scale, this.markets);
  }

  /** Open orders (resting and untriggered stops), newest first. */
  openOrders(accountId: string, f?: OpenOrdersFilter): Order[] {
    return this.states.get(accountId)?.openOrders(f) ?? [];
  }

  /** An order by id, open or finished (within the history bound). */
  findOrder(accountId: string, orderId: number): Order | undefined {
    const o = this.states.get(accountId)?.find(orderId);
    return o === undefined ? undefined : toOrder(o, this.ledger.scale);
  }

  isOrderOpen(accountId: string, orderId: number): boolean {
    return this.states.get(accountId)?.open.has(orderId) ?? false;
  }

  /** Finished orders (filled, cancelled), newest first, within the history bound. */
  finishedOrders(accountId: string): Order[] {
    return this.states.get(accountId)?.finishedOrders() ?? [];
  }

  /** The account's deals, newest first. */
  deals(accountId: string, f?: DealsFilter): Deal[] {
    return this.states.get(accountId)?.deals(f) ?? [];
  }

  isClientOrderIdUsed(accountId: string, id: string): boolean {
    return this.states.get(accountId)?.isClientOrderIdUsed(id) ?? false;
  }

  tradeBalances(accountId: string): Balances {
    return this.ledger.tradeBalances(accountId);
  }

  mainBalances(accountId: string): MainBalances {
    return this.ledger.mainBalances(accountId);
  }

  /** Moves funds between the main and the trade (spot) balance. */
  transfer(accountId: string, ticker: string, amount: Decimal, from: 'main' | 'spot', to: 'main' | 'spot'): TransferResult {
    return transferFunds(this.ledger, accountId, ticker, amount, from, to);
  }

  /** Creates a redeemable code from the main balance (validates the fields itself, so it is safe on its own). */
  createCode(accountId: string, ticker: string, amount: Decimal | string, passphrase?: string, description?: string): CreateCodeResult {
    return createCodeFromMain(this.ledger, accountId, ticker, amount, passphrase, description);
  }

  /** Filters must already be valid (validateInvestmentFilters); the partner check is the HTTP layer's (403). */
  investments(accountId: string, f: InvestmentFilters): { records: Investment[] } {
    return { records: this.investmentBook.query(accountId, f) };
  }

  book(market: string, o?: PublicBookOptions): OrderBook {
    const frozen = this.frozen.get(market);
    if (frozen !== undefined) return frozen.view(o);
    return publicBook(this.engine(market), this.ledger.scale, this.clock(), o);
  }

  /**
   * Holds `market`'s public book (and its timestamp) as it is now, until `thawBook`: what the paper venue shows
   * while its upstream's data is lost (live-flow.ts). Matching goes on underneath; only the public view stands still.
   */
  freezeBook(market: string): void {
    const engine = this.engine(market);
    if (this.frozen.has(market)) return;
    const now = this.clock();
    this.frozen.set(market, new FrozenBook((level) => publicBook(engine, this.ledger.scale, now, { limit: 100, level })));
  }

  thawBook(market: string): void {
    this.frozen.delete(market);
  }

  /**
   * A trade of `market` made outside this exchange (the paper venue's upstream): shown on the public tape under an id
   * of this exchange's sequence (so ids keep increasing with time), and taken as the last price, which fires the
   * stop-limit orders it reaches. It fills no order here.
   */
  printTrade(market: string, t: Omit<SimTrade, 'id' | 'market'>): void {
    const engine = this.engine(market);
    const trade: SimTrade = { id: ++this.dealSeq, market, ...t };
    for (const fn of this.tradeListeners) fn(trade);
    engine.lastPrice = t.price;
    engine.activateStops();
  }

  /** The orders resting in `market`'s book (not untriggered stops) of every account but `except` (the paper venue's flow). */
  restingOrders(market: string, except: string): RestingOrder[] {
    return restingOrders(this.engine(market), this.ledger.scale, except);
  }

  /**
   * Fills `amount` of a resting order as the maker, at its price, against `counterparty` taking with an order the book
   * never shows: the paper venue's fill model (paper-fill-model.ts), through matching's own fill (unseen-taker.ts).
   * False, and nothing done, when the order does not rest or has less left, or the counterparty cannot cover it.
   */
  fillResting(accountId: string, market: string, orderId: number, amount: Decimal, counterparty: string): boolean {
    const maker = this.states.get(accountId)?.findOpen(market, { orderId });
    return maker !== undefined && fillByUnseenTaker(this.intake, maker, counterparty, amount);
  }

  /** Best bid and ask INCLUDING hidden rpi orders (the true top of book; tests check it is never crossed). */
  topOfBook(market: string): { bid?: Decimal; ask?: Decimal } {
    const e = this.engine(market);
    const bid = e.book.bids.best()?.front()?.price;
    const ask = e.book.asks.best()?.front()?.price;
    return { ...(bid === undefined ? {} : { bid }), ...(ask === undefined ? {} : { ask }) };
  }

  lastPrice(market: string): Decimal | undefined {
    return this.engines.get(market)?.lastPrice;
  }

  /** Observes every public trade; returns the unsubscribe function. */
  onTrade(listener: (t: SimTrade) => void): () => void {
    this.tradeListeners.add(listener);
    return () => this.tradeListeners.delete(listener);
  }

  /**
   * Dead-man timer (wire/kill-switch.ts): `timeoutSec` after now (the sim's clock) without a reset, tick()
   * cancels the account's orders in that market (the sim's orders are all `spot`: a timer whose `types` leave
   * spot out cancels nothing). `null` deletes the timer (returns undefined). The market must exist.
   */
  killSwitch(
    accountId: string,
    market: string,
    timeoutSec: number | null,
    types: readonly KillSwitchOrderType[] = KILL_SWITCH_ORDER_TYPES,
  ): KillSwitchStatus | undefined {
    if (timeoutSec === null) {
      this.killSwitches.clear(accountId, market);
      return undefined;
    }
    return killSwitchStatus(this.killSwitches.set(accountId, market, timeoutSec, types, this.clock()));
  }

  /** The account's running kill-switch timers, of one market or all. */
  killSwitchStatus(accountId: string, market?: string): KillSwitchStatus[] {
    return this.killSwitches.list(accountId, market).map(killSwitchStatus);
  }

  /** What the kill-switch cancelled and when, oldest first (of one account when given): tells its cancels from the client's. */
  killSwitchFirings(accountId?: string): readonly KillSwitchFiring[] {
    return this.killSwitches.firings(accountId);
  }

  /** Housekeeping the HTTP layer calls on its timer (or a backtest on virtual time): expired kill switches, stop activations. */
  tick(nowMs: number = this.clock()): void {
    fireDueKillSwitches(this.killSwitches, this.states, this.engines, this.ledger.scale, nowMs);
    for (const e of this.engines.values()) e.activateStops();
  }

  /** Σ over accounts (available + freeze + main) + fees collected + funds held in codes: constant per asset. */
  totals(asset: string): Decimal {
    return this.ledger.totals(asset);
  }

  feesCollected(asset: string): Decimal {
    return this.ledger.feesCollected(asset);
  }

  private engine(market: string): MarketEngine {
    const e = this.engines.get(market);
    if (e === undefined) throw new BotError(`sim: unknown market ${market}`, { code: 'ERR_SIM_UNKNOWN_MARKET' });
    return e;
  }

  /** Unix seconds with a microsecond fraction, strictly increasing even within one millisecond. */
  private eventTime(): number {
    const micros = Math.max(Math.floor(this.clock() * 1000), this.lastMicros + 1);
    this.lastMicros = micros;
    return micros / 1e6;
  }
}
