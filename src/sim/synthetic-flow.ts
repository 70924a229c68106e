import { Decimal } from '../model/decimal.js';
import type { Market } from '../model/market.js';
import type { Side } from '../model/order.js';
import { amountStep, priceStep } from '../rules/steps.js';
import type { SimExchange } from './exchange.js';
import type { MarketFlow } from './market-flow.js';
import { createPrng, type Prng } from './prng.js';
import type { SimConfig, SimMarketFlowConfig } from './sim-config.js';

/** Upper bound of actions of one kind in one step, so a long pause or a huge speed cannot stall the loop. */
const MAX_ACTIONS_PER_STEP = 400;

interface Quote {
  readonly id: number;
  readonly side: Side;
  readonly ticks: number;
}

/**
 * One market's synthetic crowd. The mid is an integer number of price steps doing a random walk
 * (volatility × mid × sqrt(dt) steps per step); participants post post-only quotes spread over `depth`
 * levels (`levelTicks` apart) each side of the mid, cancel some at random and every quote the mid has moved through, and
 * send IOC takers that cross the spread, which is how a bot's resting quotes get filled.
 */
class MarketCrowd {
  private readonly prng: Prng;
  private midTicks: number;
  private quotes: Quote[] = [];
  private lastMs: number | undefined;
  private readonly sizeMinLots: number;
  private readonly sizeMaxLots: number;
  private readonly amountStep: Decimal;
  private readonly priceStep: Decimal;
  private readonly participantScale: number[];

  constructor(
    private readonly market: Market,
    private readonly cfg: SimMarketFlowConfig,
    private readonly accountId: string,
    private readonly speed: number,
  ) {
    this.prng = createPrng(cfg.seed);
    this.amountStep = amountStep(market);
    this.priceStep = priceStep(market);
    this.midTicks = Number(cfg.mid.div(this.priceStep).toFixed(0));
    this.sizeMinLots = Math.max(1, Number(cfg.minSize.div(this.amountStep).toFixed(0)));
    this.sizeMaxLots = Math.max(this.sizeMinLots, Number(cfg.maxSize.div(this.amountStep).toFixed(0)));
    // Participants differ in size: the first trades small, the last up to the full range.
    this.participantScale = Array.from({ length: cfg.participants }, (_, i) => (i + 1) / cfg.participants);
  }

  step(ex: SimExchange, nowMs: number): void {
    if (this.lastMs === undefined) {
      this.lastMs = nowMs;
      this.seedBook(ex);
      return;
    }
    const dt = Math.max(0, (nowMs - this.lastMs) / 1000) * this.speed;
    this.lastMs = nowMs;
    if (dt === 0) return;
    this.moveMid(dt);
    this.pruneFinished(ex);
    this.cancelStale(ex);
    const cancels = Math.min(MAX_ACTIONS_PER_STEP, this.prng.poisson(this.cfg.cancelRate * dt));
    for (let i = 0; i < cancels && this.quotes.length > 0; i++) this.cancelAt(ex, this.prng.int(this.quotes.length));
    const posts = Math.min(MAX_ACTIONS_PER_STEP, this.prng.poisson(this.cfg.postRate * dt));
    for (let i = 0; i < posts; i++) this.post(ex, this.prng.int(this.cfg.depth));
    const takes = Math.min(MAX_ACTIONS_PER_STEP, this.prng.poisson(this.cfg.takeRate * dt));
    for (let i = 0; i < takes; i++) this.take(ex);
  }

  /** The current mid price (for tests and observers). */
  get mid(): Decimal {
    return this.priceStep.mul(this.midTicks);
  }

  private seedBook(ex: SimExchange): void {
    for (let level = 0; level < this.cfg.depth; level++) {
      this.post(ex, level, 'buy');
      this.post(ex, level, 'sell');
    }
  }

  private moveMid(dt: number): void {
    const sigma = this.midTicks * this.cfg.volatility * Math.sqrt(dt);
    const floor = 10 * (this.cfg.halfSpreadTicks + this.cfg.depth * this.cfg.levelTicks);
    this.midTicks = Math.max(floor, this.midTicks + Math.round(sigma * this.prng.normal()));
  }

  private size(): Decimal {
    const scale = this.participantScale[this.prng.int(this.participantScale.length)]!;
    const span = Math.floor((this.sizeMaxLots - this.sizeMinLots) * scale);
    return this.amountStep.mul(this.sizeMinLots + this.prng.int(span + 1));
  }

  /** Smallest amount meeting the market's minimums at a price. */
  private atLeastMinimum(amount: Decimal, price: Decimal): Decimal {
    let a = amount.lt(this.market.minAmount) ? this.market.minAmount : amount;
    if (a.mul(price).lt(this.market.minTotal)) a = this.market.minTotal.div(price).toDecimalPlaces(this.market.stockPrec, Decimal.ROUND_UP);
    return a;
  }

  private post(ex: SimExchange, level: number, forced?: Side): void {
    const side: Side = forced ?? (this.prng.next() < 0.5 ? 'buy' : 'sell');
    const size = this.size();
    const offset = this.cfg.halfSpreadTicks + level * this.cfg.levelTicks;
    const ticks = side === 'buy' ? this.midTicks - offset : this.midTicks + offset;
    if (ticks <= 0) return;
    const price = this.priceStep.mul(ticks);
    const r = ex.placeLimit(this.accountId, { market: this.market.name, side, amount: this.atLeastMinimum(size, price), price, postOnly: true });
    if (r.ok && r.order.status !== 'FILLED' && r.order.status !== 'CANCELED') this.quotes.push({ id: r.order.orderId, side, ticks });
  }

  private take(ex: SimExchange): void {
    const side: Side = this.prng.next() < 0.5 ? 'buy' : 'sell';
    const size = this.size();
    // Reach a few levels past the touch, as a real taker sweeping for size would.
    const reach = this.cfg.halfSpreadTicks + this.cfg.levelTicks * (1 + this.prng.int(Math.max(1, Math.ceil(this.cfg.depth / 4))));
    const ticks = side === 'buy' ? this.midTicks + reach : Math.max(1, this.midTicks - reach);
    const price = this.priceStep.mul(ticks);
    ex.placeLimit(this.accountId, { market: this.market.name, side, amount: this.atLeastMinimum(size, price), price, ioc: true });
  }

  private cancelAt(ex: SimExchange, index: number): void {
    const q = this.quotes[index]!;
    this.quotes[index] = this.quotes[this.quotes.length - 1]!;
    this.quotes.pop();
    ex.cancel(this.accountId, this.market.name, { orderId: q.id });
  }

  /** Quotes the mid has moved through, or that drifted far outside the depth, are withdrawn. */
  private cancelStale(ex: SimExchange): void {
    const far = this.cfg.halfSpreadTicks + 2 * this.cfg.depth * this.cfg.levelTicks;
    for (let i = this.quotes.length - 1; i >= 0; i--) {
      const q = this.quotes[i]!;
      const distance = q.side === 'buy' ? this.midTicks - q.ticks : q.ticks - this.midTicks;
      if (distance <= 0 || distance > far) this.cancelAt(ex, i);
    }
  }

  private pruneFinished(ex: SimExchange): void {
    this.quotes = this.quotes.filter((q) => ex.isOrderOpen(this.accountId, q.id));
  }
}

/** The default MarketFlow: one seeded crowd per market listed under `flow.markets` in the config. */
export class SyntheticFlow implements MarketFlow {
  private readonly crowds = new Map<string, MarketCrowd>();

  constructor(config: SimConfig, markets: ReadonlyMap<string, Market>) {
    const flow = config.flow;
    if (flow === undefined) return;
    for (const [name, cfg] of Object.entries(flow.markets)) {
      const market = markets.get(name);
      if (market !== undefined) this.crowds.set(name, new MarketCrowd(market, cfg, flow.account, config.speed));
    }
  }

  step(exchange: SimExchange, nowMs: number): void {
    for (const crowd of this.crowds.values()) crowd.step(exchange, nowMs);
  }

  /** The synthetic mid of a market (undefined when the flow does not drive it). */
  mid(market: string): Decimal | undefined {
    return this.crowds.get(market)?.mid;
  }
}

/** Convenience for the HTTP layer: the flow the config describes, for an exchange built from it. */
export function createSyntheticFlow(exchange: SimExchange): SyntheticFlow {
  return new SyntheticFlow(exchange.config, exchange.markets);
}
