import type { Logger } from 'pino';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { DEFAULT_FILL_MODEL, paperFillModelLine } from '../fill-model/fill-model-params.js';
import { fmt } from '../model/decimal.js';
import { ConfigError } from '../model/errors.js';
import type { Market } from '../model/market.js';
import { paperStaleAfterMs, type PaperVenueConfig } from '../settings/paper-venue-config.js';
import { createLiveFlow } from '../sim/live-flow.js';
import { paperSimConfig } from '../sim/paper-sim-config.js';
import { startSim, type SimHandle } from '../sim/start-sim.js';
import { VenueError } from '../venue/errors.js';
import { RestClient } from '../venue/rest-client.js';
import { RATE_LIMITS } from '../venue/wire.js';
import { UpstreamFeed } from './upstream-feed.js';

/** The paper account of the paper venue's sim (the only client account there). */
export const PAPER_ACCOUNT = 'paper';

/** The upstream did not give what the paper venue needs to start (its markets): exit 3, like an unreachable venue. */
export class PaperUpstreamError extends VenueError {
  constructor(message: string, cause: unknown) {
    super(message, 'ERR_PAPER_UPSTREAM', { endpoint: 'markets', cause });
  }
}

export interface OpenPaperVenueOptions {
  /** The markets the strategies trade (the only ones mirrored). */
  readonly markets: readonly string[];
  readonly configFile: string;
  readonly logger: Logger;
  /** The upstream polls' clock. Default asyncScheduler (the sim itself runs on real time). */
  readonly scheduler?: SchedulerLike | undefined;
}

export interface PaperVenue {
  /** The paper venue: the sim on loopback, its market fed by the upstream; `close` stops the polls too. */
  readonly sim: SimHandle;
  /** The upstream's base URL (no key is ever sent there). */
  readonly upstream: string;
}

/**
 * Starts a paper venue (`venue: { kind: paper }`): reads the upstream's markets (public, no key), mirrors those the
 * strategies trade with their rules (and the configured fees), funds one paper account with `balances`, starts the
 * upstream polls (upstream-feed.ts) and the embedded sim whose live flow turns them into its market
 * (src/sim/live-flow.ts), which fills the paper account's orders by the backtest's fill model (`fills`, `fillModel`).
 * The daemon then talks to the sim over loopback HTTP with the same client as to any venue.
 */
export async function openPaperVenue(v: PaperVenueConfig, o: OpenPaperVenueOptions): Promise<PaperVenue> {
  const names = [...new Set(o.markets)];
  checkBudget(v, names.length, o.configFile);
  const upstream = new RestClient({
    ...(v.upstream.baseUrl !== undefined ? { baseUrl: v.upstream.baseUrl } : { region: v.upstream.region ?? 'main' }),
    timeoutMs: v.upstream.timeoutMs,
    // one retry inside a poll; the polls themselves go on with backoff, and the live flow decides what is stale
    retry: { limit: 1 },
    logger: o.logger.child({ component: 'upstream' }),
  });
  const url = upstream.options.baseUrl;
  let feed: UpstreamFeed | undefined;
  try {
    let all: Market[];
    try {
      all = await upstream.markets();
    } catch (error) {
      throw new PaperUpstreamError(
        `paper venue: the upstream ${url} did not give its markets: ${error instanceof Error ? error.message : String(error)}`,
        error,
      );
    }
    const markets = mirroredMarkets(all, names, v, url, o.configFile);
    const scheduler = o.scheduler ?? asyncScheduler;
    feed = new UpstreamFeed({
      api: upstream,
      markets: names,
      bookMs: v.upstream.bookMs,
      tradesMs: v.upstream.tradesMs,
      bookLimit: v.upstream.bookLimit,
      scheduler,
      logger: o.logger,
    });
    feed.start();
    // the daemon's first polls should see the market: wait a little for the first books, then start anyway (stale until they come)
    if (!(await feed.firstBooks(Math.max(5000, 3 * v.upstream.bookMs)))) {
      o.logger.warn({ upstream: url, markets: feed.waiting() }, 'paper venue: no upstream book yet; those markets stay stale (frozen, empty) until one comes');
    }
    const staleAfterMs = paperStaleAfterMs(v.upstream);
    const fillModel = v.fillModel ?? DEFAULT_FILL_MODEL;
    warnUnusedFillModel(v, o.logger);
    const flow = createLiveFlow({
      feed,
      markets: names,
      staleAfterMs,
      fills: v.fills,
      fillModel,
      onStale: (market, stale) => {
        if (stale)
          o.logger.warn(
            { market, upstream: url, staleAfterMs },
            `paper venue: no upstream book of ${market} for ${staleAfterMs} ms: its book is frozen and nothing fills until the upstream answers`,
          );
        else o.logger.info({ market, upstream: url }, `paper venue: ${market} follows the upstream's book`);
      },
    });
    const sim = await startSim({
      config: paperSimConfig({ markets, balances: v.balances, account: PAPER_ACCOUNT, stepMs: Math.min(250, v.upstream.bookMs) }),
      port: 0,
      host: '127.0.0.1',
      marketFlow: flow,
    });
    // the first books, now: the daemon's first polls come before the flow's first timed step
    flow.step(sim.exchange, Date.now());
    const line = paperFillModelLine(v.fills, fillModel, markets.length === 1 ? { maker: markets[0]!.makerFee, taker: markets[0]!.takerFee } : v.fees);
    o.logger.info(
      {
        baseUrl: sim.baseUrl,
        upstream: url,
        markets: markets.map((m) => `${m.name} (${feeText(m)})`),
        balances: Object.fromEntries(Object.entries(v.balances).map(([t, b]) => [t, fmt(b)])),
        fillModel: line,
      },
      `paper venue started: the upstream’s public market, fills by the ${v.fills} assumption of the backtest’s fill model, no order leaves this process`,
    );
    const running = feed;
    const close = async (): Promise<void> => {
      running.stop();
      upstream.close();
      await sim.close();
    };
    return { sim: { ...sim, close }, upstream: url };
  } catch (error) {
    feed?.stop();
    upstream.close();
    throw error;
  }
}

/** The upstream's markets the strategies trade, with the configured fees; every `balances` ticker must be one of their assets. */
function mirroredMarkets(all: readonly Market[], names: readonly string[], v: PaperVenueConfig, url: string, configFile: string): Market[] {
  const byName = new Map(all.map((m) => [m.name, m]));
  const missing = names.filter((n) => !byName.has(n));
  if (missing.length > 0) throw new ConfigError(`${configFile}: venue.upstream: ${url} has no market ${missing.join(', ')} (the strategies trade it)`);
  const markets = names.map((n) => {
    const m = byName.get(n)!;
    return v.fees === undefined ? m : { ...m, makerFee: v.fees.maker, takerFee: v.fees.taker };
  });
  const assets = [...new Set(markets.flatMap((m) => [m.stock, m.money]))];
  const bad = Object.keys(v.balances).filter((t) => !assets.includes(t));
  if (bad.length > 0) {
    throw new ConfigError(bad.map((t) => `${configFile}: venue.balances.${t}: no traded market has asset ${t} (they have ${assets.join(', ')})`).join('\n'));
  }
  return markets;
}

/**
 * A `fillModel:` value that cannot act is said at start (not refused: the block is the backtest's, copied between
 * configs as `bot parity --fit` writes it): the pessimistic bound has no parameters, and with the upstream's trades
 * polled the decreases that traded are known, so decreaseTrades is not used (as on a recording with trades).
 */
function warnUnusedFillModel(v: PaperVenueConfig, logger: Logger): void {
  const p = v.fillModel;
  if (p === undefined) return;
  if (v.fills === 'pessimistic') {
    logger.warn({ fillModel: p }, 'paper venue: venue.fillModel shapes the optimistic assumption only; with fills: pessimistic it is not used');
  } else if (p.decreaseTrades !== DEFAULT_FILL_MODEL.decreaseTrades) {
    logger.warn(
      { decreaseTrades: p.decreaseTrades },
      'paper venue: venue.fillModel.decreaseTrades is not used: the upstream’s trades are polled, so only traded volume fills a decrease',
    );
  }
}

/** The upstream polls must fit the public budget the client's limiter enforces (a refusal here beats queued polls). */
function checkBudget(v: PaperVenueConfig, markets: number, configFile: string): void {
  const perWindow = (ms: number, bucket: 'orderbook' | 'public') => Math.ceil((markets * RATE_LIMITS[bucket].windowMs) / ms);
  const books = perWindow(v.upstream.bookMs, 'orderbook');
  const pub = books + perWindow(v.upstream.tradesMs, 'public');
  const { orderbook, public: all } = RATE_LIMITS;
  if (books > orderbook.limit) {
    throw new ConfigError(
      `${configFile}: venue.upstream.bookMs: ${v.upstream.bookMs} ms on ${markets} market(s) is ${books} order books per ${orderbook.windowMs / 1000} s, over the upstream's ${orderbook.limit}`,
    );
  }
  if (pub > all.limit) {
    throw new ConfigError(
      `${configFile}: venue.upstream.tradesMs: books and trades make ${pub} public requests per ${all.windowMs / 1000} s on ${markets} market(s), over the upstream's ${all.limit}`,
    );
  }
}

/** Fees of a market as the log shows them (percent). */
function feeText(m: Market): string {
  return `maker ${fmt(m.makerFee.mul(100))} %, taker ${fmt(m.takerFee.mul(100))} %`;
}
