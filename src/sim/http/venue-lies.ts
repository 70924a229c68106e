import type { OrderBook } from '../../model/book.js';
import type { Deal, Order } from '../../model/order.js';
import { createPrng, type Prng } from '../prng.js';
import { gapMs, pick, roll } from './lie-draws.js';
import { type EpisodeOptions, type LieEpisode, type Until, until } from './lie-episode.js';
import {
  ABSURD_BOOKS,
  ANSWER_CONTRADICTIONS,
  BOOK_LIE_KINDS,
  DEAL_CORRUPTIONS,
  DEFAULT_CORRUPT_MS,
  DEFAULT_CROSS_BY,
  DEFAULT_HIDDEN_MS,
  LIE_KINDS,
  LIE_VARIANTS,
  RECORD_CORRUPTIONS,
  validateLieConfig,
  type AbsurdBook,
  type DealCorruption,
  type LieConfig,
  type LieKind,
  type OrderLie,
} from './lie-config.js';
import { absurdBook, corruptDeal, crossedBook, lieAboutOrder } from './lie-rewrites.js';

export type { EpisodeOptions, LieEpisode } from './lie-episode.js';

/** Told every lie put into the current answer: `lie:<kind>` or `lie:<kind>:<variant>` (the sim's fault counters). */
export type Tell = (label: string) => void;

interface DealDecision {
  readonly duplicateId?: number;
  readonly corrupt?: { readonly how: DealCorruption; readonly until: Until };
}

/** Duplicates get ids far above the exchange's own sequence, so they are never a real deal's. */
const DUPLICATE_ID_BASE = 1_000_000_000_000;
const MAX_DEAL_DECISIONS = 500_000;
const MAX_EPISODES = 10_000;

/**
 * The lying venue's state and decisions (kinds in lie-config.ts; the answers are rewritten by lying-view.ts). Two
 * ways in: the config (seeded draws per order, deal or answer; book episodes as a Poisson process per market) and the
 * in-process controls a test drives deterministically (`startEpisode`, `hideOrder`). During an episode every item of
 * its kind in its scope (market, account) is lied about. A decision, once taken, stays (a duplicated deal stays
 * duplicated, a corrupted one shows its true record when its time is up) until the lies are turned off, which ends
 * every episode and forgets every decision: the venue tells the truth again.
 */
export class VenueLies {
  readonly #config: LieConfig;
  readonly #prng: Prng;
  readonly #clock: () => number;
  readonly #configured: boolean;
  #enabled = true;
  #controlled = false;
  readonly #episodes: LieEpisode[] = [];
  #active: LieEpisode[] = [];
  /** `account|id:N` or `account|cid:X` → until when the order is left out of `orders` answers. */
  readonly #hidden = new Map<string, Until>();
  readonly #deals = new Map<string, DealDecision>();
  #nextDuplicateId = DUPLICATE_ID_BASE;
  readonly #nextBookEpisode = new Map<string, number>();
  readonly #frozen = new WeakMap<LieEpisode, Map<string, OrderBook>>();
  /** Items lied about, by `kind` or `kind:variant`: orders hidden, deals duplicated or corrupted, answers and records contradicted, episodes. */
  readonly told = new Map<string, number>();

  constructor(config: LieConfig = {}, seed = 1, clock: () => number = Date.now) {
    validateLieConfig(config);
    this.#config = config;
    // its own stream: turning a lie on never moves a fault's draws
    this.#prng = createPrng((config.seed ?? seed) * 7_919 + 23);
    this.#clock = clock;
    this.#configured = LIE_KINDS.some((k) => config[k] !== undefined);
  }

  /** On and with something to tell: the server answers through the lying view only then. */
  get armed(): boolean {
    return this.#enabled && (this.#configured || this.#controlled);
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** Off: every episode ends now and every decision is forgotten (the chaos harness's final reconcile sees the truth). */
  setEnabled(enabled: boolean): void {
    this.#enabled = enabled;
    if (enabled) return;
    const now = this.#clock();
    for (const e of this.#active) e.endMs = Math.min(e.endMs, Math.max(e.startMs, now));
    this.#active = [];
    this.#hidden.clear();
    this.#deals.clear();
    this.#nextBookEpisode.clear();
  }

  /** Every episode so far (config and control), oldest first: what the chaos audit compares fills with. */
  get episodes(): readonly LieEpisode[] {
    return this.#episodes;
  }

  /** Starts an episode of `kind` now, for `forMs`. */
  startEpisode(kind: LieKind, o: EpisodeOptions): LieEpisode {
    if (!LIE_KINDS.includes(kind)) throw new RangeError(`unknown lie kind '${String(kind)}' (known: ${LIE_KINDS.join(', ')})`);
    if (!(o.forMs >= 0 && Number.isFinite(o.forMs))) throw new RangeError(`startEpisode('${kind}'): forMs must be >= 0 ms, got ${o.forMs}`);
    for (const v of o.variants ?? []) {
      if (!LIE_VARIANTS[kind].includes(v))
        throw new RangeError(`startEpisode('${kind}'): unknown variant '${v}' (known: ${LIE_VARIANTS[kind].join(', ') || 'none'})`);
    }
    this.#controlled = true;
    return this.#start(kind, o, 'control', this.#clock());
  }

  /** Ends the running episodes (of `kind`, or all) now. */
  endEpisodes(kind?: LieKind): void {
    const now = this.#clock();
    for (const e of this.#active) if (kind === undefined || e.kind === kind) e.endMs = Math.min(e.endMs, Math.max(e.startMs, now));
    this.#active = this.#active.filter((e) => e.endMs > now);
  }

  /** Leaves one open order of `account` out of `orders` answers (list and look-ups) for `forMs` from now. */
  hideOrder(account: string, ref: { readonly orderId?: number; readonly clientOrderId?: string }, forMs: number): void {
    this.#controlled = true;
    const at = this.#clock() + forMs;
    if (ref.orderId !== undefined) this.#hidden.set(`${account}|id:${ref.orderId}`, at);
    if (ref.clientOrderId !== undefined) this.#hidden.set(`${account}|cid:${ref.clientOrderId}`, at);
  }

  // ---- used by the lying view, per answer

  isHidden(account: string, order: Order, now: number): boolean {
    const idKey = `${account}|id:${order.orderId}`;
    for (const key of order.clientOrderId === '' ? [idKey] : [idKey, `${account}|cid:${order.clientOrderId}`]) {
      const u = this.#hidden.get(key);
      if (u === undefined) continue;
      if (now < until(u)) return true;
      this.#hidden.delete(key);
    }
    const episode = this.#episode('hiddenOpenOrders', order.market, account, now);
    if (episode === undefined) return false;
    this.#hidden.set(idKey, episode);
    this.#count('hiddenOpenOrders');
    return true;
  }

  /** The answer to an order creation the venue acted on: may hide the order from now on, may contradict the request. */
  accepted(account: string, order: Order, now: number, otherMarket: string, tell: Tell): Order {
    const hide = this.#config.hiddenOpenOrders;
    const open = order.left.gt(0) && order.status !== 'CANCELED' && order.status !== 'FILLED';
    if (hide !== undefined && open && roll(this.#prng, hide.probability)) {
      this.#sweepHidden(now);
      this.#hidden.set(`${account}|id:${order.orderId}`, now + (hide.forMs ?? DEFAULT_HIDDEN_MS));
      this.#count('hiddenOpenOrders');
    }
    return this.#lieAboutOrder(account, order, now, otherMarket, tell, ANSWER_CONTRADICTIONS, this.#config.contradictingAnswers?.probability);
  }

  /** An order record of an `orders` or `order/cancel` answer. */
  record(account: string, order: Order, now: number, otherMarket: string, tell: Tell): Order {
    return this.#lieAboutOrder(account, order, now, otherMarket, tell, RECORD_CORRUPTIONS, this.#config.contradictingAnswers?.recordProbability);
  }

  /** The deals of an executed-history answer (newest first): corrupted ones under their true id, duplicates beside their originals. */
  deals(account: string, deals: readonly Deal[], now: number, tell: Tell): Deal[] {
    const out: Deal[] = [];
    for (const deal of deals) {
      const d = this.#dealDecision(account, deal, now);
      // same time, higher id: newest-first puts the duplicate just before its original
      if (d.duplicateId !== undefined) {
        out.push({ ...deal, id: d.duplicateId });
        tell('lie:duplicateDeals');
      }
      if (d.corrupt !== undefined && now < until(d.corrupt.until)) {
        out.push(corruptDeal(deal, d.corrupt.how));
        tell(`lie:corruptDeals:${d.corrupt.how}`);
      } else out.push(deal);
    }
    return out;
  }

  /** Before an order book request: starts the config's book episodes when due; true = answer 503 (an outage). */
  bookOutage(market: string, now: number, tell: Tell): boolean {
    this.#scheduleBooks(market, now);
    if (this.#episode('bookOutage', market, undefined, now) === undefined) return false;
    tell('lie:bookOutage');
    return true;
  }

  /** The order book as the venue answers it; `key` tells the depth/level variants apart (a frozen book freezes each). */
  book(market: string, key: string, book: OrderBook, now: number, tell: Tell): OrderBook {
    const frozen = this.#episode('frozenBook', market, undefined, now);
    if (frozen !== undefined) {
      const snaps = this.#frozen.get(frozen) ?? new Map<string, OrderBook>();
      this.#frozen.set(frozen, snaps);
      const snap = snaps.get(key) ?? book;
      snaps.set(key, snap);
      tell('lie:frozenBook');
      return snap;
    }
    const absurd = this.#episode('absurdBook', market, undefined, now);
    if (absurd !== undefined) {
      tell(`lie:absurdBook:${absurd.variant}`);
      return absurdBook(book, absurd.variant as AbsurdBook);
    }
    const crossed = this.#episode('crossedBook', market, undefined, now);
    if (crossed !== undefined) {
      tell('lie:crossedBook');
      return crossedBook(book, crossed.crossBy ?? this.#config.crossedBook?.crossBy ?? DEFAULT_CROSS_BY);
    }
    return book;
  }

  // ---- internals

  #start(kind: LieKind, o: EpisodeOptions, source: LieEpisode['source'], now: number): LieEpisode {
    const variant = kind === 'absurdBook' ? pick(this.#prng, o.variants?.length ? o.variants : ABSURD_BOOKS) : undefined;
    const book = (BOOK_LIE_KINDS as readonly string[]).includes(kind);
    const episode: LieEpisode = {
      kind,
      ...(o.market !== undefined ? { market: o.market } : {}),
      ...(o.account !== undefined && !book ? { account: o.account } : {}),
      startMs: now,
      endMs: now + o.forMs,
      ...(o.variants !== undefined && o.variants.length > 0 ? { variants: o.variants } : {}),
      ...(variant !== undefined ? { variant } : {}),
      ...(o.crossBy !== undefined ? { crossBy: o.crossBy } : {}),
      source,
    };
    this.#episodes.push(episode);
    if (this.#episodes.length > MAX_EPISODES) this.#episodes.splice(0, this.#episodes.length - MAX_EPISODES);
    this.#active.push(episode);
    if (book) this.#count(variant === undefined ? kind : `${kind}:${variant}`);
    return episode;
  }

  /** The running episode of `kind` covering (market, account) at `now`; ended ones are dropped on the way. */
  #episode(kind: LieKind, market: string, account: string | undefined, now: number): LieEpisode | undefined {
    if (this.#active.length === 0) return undefined;
    if (this.#active.some((e) => e.endMs <= now)) this.#active = this.#active.filter((e) => e.endMs > now);
    return this.#active.find(
      (e) => e.kind === kind && e.startMs <= now && (e.market === undefined || e.market === market) && (e.account === undefined || e.account === account),
    );
  }

  #scheduleBooks(market: string, now: number): void {
    for (const kind of BOOK_LIE_KINDS) {
      const c = this.#config[kind];
      if (c === undefined || !(c.perMinute > 0) || !(c.forMs > 0) || (c.markets !== undefined && !c.markets.includes(market))) continue;
      const key = `${kind}|${market}`;
      let due = this.#nextBookEpisode.get(key);
      if (due === undefined) {
        due = now + gapMs(this.#prng, c.perMinute);
        this.#nextBookEpisode.set(key, due);
      }
      // one book lie at a time per market: a kind that falls due during another's episode starts after it
      if (now < due || BOOK_LIE_KINDS.some((k) => this.#episode(k, market, undefined, now) !== undefined)) continue;
      const variants = kind === 'absurdBook' ? this.#config.absurdBook?.variants : undefined;
      const crossBy = kind === 'crossedBook' ? this.#config.crossedBook?.crossBy : undefined;
      this.#start(kind, { forMs: c.forMs, market, ...(variants ? { variants } : {}), ...(crossBy !== undefined ? { crossBy } : {}) }, 'config', now);
      this.#nextBookEpisode.set(key, now + c.forMs + gapMs(this.#prng, c.perMinute));
    }
  }

  #lieAboutOrder(
    account: string,
    order: Order,
    now: number,
    otherMarket: string,
    tell: Tell,
    applicable: readonly OrderLie[],
    probability: number | undefined,
  ): Order {
    const fits = (list: readonly string[] | undefined): OrderLie[] => applicable.filter((v) => (list ?? applicable).includes(v));
    const episode = this.#episode('contradictingAnswers', order.market, account, now);
    let choices = episode !== undefined ? fits(episode.variants) : [];
    if (choices.length === 0) choices = roll(this.#prng, probability) ? fits(this.#config.contradictingAnswers?.variants) : [];
    if (choices.length === 0) return order;
    const lie = pick(this.#prng, choices);
    this.#count(`contradictingAnswers:${lie}`);
    tell(`lie:contradictingAnswers:${lie}`);
    return lieAboutOrder(order, lie, otherMarket);
  }

  #dealDecision(account: string, deal: Deal, now: number): DealDecision {
    const key = `${account}|${deal.id}`;
    const known = this.#deals.get(key);
    if (known !== undefined) return known;
    const dupEpisode = this.#episode('duplicateDeals', deal.market, account, now);
    const duplicate = dupEpisode !== undefined || roll(this.#prng, this.#config.duplicateDeals?.probability);
    const corruptEpisode = this.#episode('corruptDeals', deal.market, account, now);
    const c = this.#config.corruptDeals;
    const corrupt =
      corruptEpisode !== undefined
        ? { how: pick(this.#prng, (corruptEpisode.variants as readonly DealCorruption[] | undefined) ?? DEAL_CORRUPTIONS), until: corruptEpisode as Until }
        : c !== undefined && roll(this.#prng, c.probability)
          ? { how: pick(this.#prng, c.variants ?? DEAL_CORRUPTIONS), until: now + (c.forMs ?? DEFAULT_CORRUPT_MS) }
          : undefined;
    const decision: DealDecision = { ...(duplicate ? { duplicateId: this.#nextDuplicateId++ } : {}), ...(corrupt ? { corrupt } : {}) };
    if (duplicate) this.#count('duplicateDeals');
    if (corrupt) this.#count(`corruptDeals:${corrupt.how}`);
    this.#deals.set(key, decision);
    if (this.#deals.size > MAX_DEAL_DECISIONS) this.#deals.delete(this.#deals.keys().next().value as string);
    return decision;
  }

  #sweepHidden(now: number): void {
    if (this.#hidden.size < 10_000) return;
    for (const [key, u] of this.#hidden) if (until(u) <= now) this.#hidden.delete(key);
  }

  #count(label: string): void {
    this.told.set(label, (this.told.get(label) ?? 0) + 1);
  }
}
