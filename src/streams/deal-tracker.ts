import type { Deal } from '../model/order.js';
import { dealDefects } from '../venue/plausible.js';

export interface DealTrackerOptions {
  /** Deals older than this (Unix seconds) count as already known. Default: none (the first fetch yields history). */
  readonly since?: number;
  /**
   * Deal ids already known (e.g. from the journal): never reported, but paging goes on past them, since a journal
   * may know a deal without knowing the older ones. Combine with `since` to bound the first fetch.
   */
  readonly knownIds?: Iterable<number>;
  /** Page size, <= 100 (the venue's cap). Default 100. */
  readonly pageSize?: number;
  /** At most this many pages per fetch (the venue's offset is capped). Default 100. */
  readonly maxPages?: number;
  /** Ids of deals older than the newest seen minus this many seconds are forgotten (they stay known by time). Default 3600. */
  readonly retainSeconds?: number;
}

/** Fetches one page of deals, newest first. */
export type DealPageFetcher = (offset: number, limit: number) => Promise<readonly Deal[]>;

/**
 * Remembers which deals were seen and finds the new ones in the venue's newest-first history, paging back until it
 * reaches a known deal, so nothing is missed however many deals happened between two polls. New deals arriving
 * between two pages only shift older ones down (seen twice, deduplicated), never hide one. Memory stays bounded: ids
 * older than `retainSeconds` behind the newest are dropped and covered by a time watermark instead.
 */
export class DealTracker {
  /** Deals this tracker reported, id → time. */
  private readonly seen = new Map<number, number>();
  private readonly known: ReadonlySet<number>;
  private watermark: number;
  private newest = Number.NEGATIVE_INFINITY;
  private readonly pageSize: number;
  private readonly maxPages: number;
  private readonly retainSeconds: number;
  /** The first page of the last complete fetch, when the venue handed it out frozen (see fetchNew). */
  private lastFirstPage: readonly Deal[] | undefined;
  /** `seen` holds its ids in the order of their times (insertion order, times never falling): prune stops early. */
  private seenInTimeOrder = true;
  /** The time of the id last added to `seen`. */
  private lastSeenTime = Number.NEGATIVE_INFINITY;

  constructor(options: DealTrackerOptions = {}) {
    this.watermark = options.since ?? Number.NEGATIVE_INFINITY;
    this.known = new Set(options.knownIds ?? []);
    this.pageSize = Math.min(100, Math.max(1, options.pageSize ?? 100));
    this.maxPages = Math.max(1, options.maxPages ?? 100);
    this.retainSeconds = options.retainSeconds ?? 3600;
  }

  /** True when the deal was already reported, given as known, or is older than what this tracker watches. */
  isKnown(deal: Deal): boolean {
    return this.seen.has(deal.id) || this.known.has(deal.id) || deal.time < this.watermark;
  }

  /** True when every older deal was reported or is known: paging back can stop here. */
  private isHorizon(deal: Deal): boolean {
    return this.seen.has(deal.id) || deal.time < this.watermark;
  }

  /**
   * The deals not reported before, oldest first (by time, then id); marks them known. A malformed deal (a non-positive
   * amount or price, a negative fee: venue/plausible.ts) is never marked known nor taken as a horizon: it is returned
   * (before the others: a consumer learns of it before it sees a deal that may be the same fill under a new id) every
   * time it is listed, for the consumer to report and drop, so the true record the venue may list later under the
   * same id is still reported.
   */
  fetchNew(fetchPage: DealPageFetcher): Promise<Deal[]> {
    // The first page without an async frame (the engine polls every second and most polls find nothing new): the
    // answer is ready one microtask after the page, as the awaiting loop's was; only further pages are awaited.
    return fetchPage(0, this.pageSize).then((deals) => {
      // The very page the last complete fetch read, frozen so unchanged: every deal in it was reported then or
      // was already a horizon (reported ids are only forgotten once older than the watermark), so reading it
      // again finds nothing new and stops at it. A live venue sends a new array every time; the backtest venue
      // hands out the same frozen page while no deal happened, and the engine polls every second.
      if (deals === this.lastFirstPage) return [];
      const scan: Scan = { fresh: undefined, malformed: undefined, firstPage: deals };
      return this.read(deals, scan) || this.maxPages <= 1 ? this.finish(scan) : this.readMore(fetchPage, scan);
    });
  }

  /** Pages after the first, while none reached a known deal. */
  private async readMore(fetchPage: DealPageFetcher, scan: Scan): Promise<Deal[]> {
    for (let page = 1; page < this.maxPages; page++) {
      if (this.read(await fetchPage(page * this.pageSize, this.pageSize), scan)) break;
    }
    return this.finish(scan);
  }

  /** Takes in one page; true when paging back can stop (a known deal reached, or the history's end). */
  private read(deals: readonly Deal[], scan: Scan): boolean {
    let reachedKnown = false;
    const reread = rereadFrom(deals, this.lastFirstPage);
    for (let i = 0; i < reread; i++) {
      const deal = deals[i]!;
      if (this.isHorizon(deal)) reachedKnown = true;
      else if (dealDefects(deal).length > 0) (scan.malformed ??= []).push(deal);
      // not a horizon: neither seen nor older than the watermark, so only `known` is left of isKnown()
      else if (!this.known.has(deal.id)) (scan.fresh ??= new Map()).set(deal.id, deal);
    }
    // The rest of the page is the start of the page the last complete fetch read, the very deals (a venue that hands
    // out a page again after new deals, as the backtest's does): each was read then, none malformed (such a page is
    // not kept), so each is now reported (seen, or older than the watermark since), was a horizon already (and stays
    // one: the watermark only rises, and ids leave `seen` only below it), or is known. Reading them again adds
    // nothing new; only whether one is a horizon is asked, up to the first that is.
    for (let i = reread; i < deals.length && !reachedKnown; i++) if (this.isHorizon(deals[i]!)) reachedKnown = true;
    return reachedKnown || deals.length < this.pageSize;
  }

  private finish(scan: Scan): Deal[] {
    const { fresh, malformed, firstPage } = scan;
    // a page with a malformed deal is read again next time, whoever handed it out
    this.lastFirstPage = Object.isFrozen(firstPage) && malformed === undefined ? firstPage : undefined;
    // nothing new: nothing to order, and `newest` (so the pruning horizon) is unchanged
    if (fresh === undefined) return malformed ?? [];
    const ordered = [...fresh.values()].sort((a, b) => a.time - b.time || a.id - b.id);
    for (const deal of ordered) {
      this.seen.set(deal.id, deal.time);
      if (deal.time < this.lastSeenTime) this.seenInTimeOrder = false;
      this.lastSeenTime = deal.time;
      if (deal.time > this.newest) this.newest = deal.time;
    }
    this.prune();
    return malformed === undefined ? ordered : [...malformed, ...ordered];
  }

  private prune(): void {
    const horizon = this.newest - this.retainSeconds;
    if (!(horizon > this.watermark)) return;
    // Keep a deal's id while it is at or after the horizon; older ones are known through the watermark.
    this.watermark = horizon;
    if (this.seenInTimeOrder) {
      // the ids older than the horizon are the first ones: it runs after every new fill, over an hour of ids
      for (const [id, time] of this.seen) {
        if (time >= horizon) break;
        this.seen.delete(id);
      }
      return;
    }
    // forEach, not `for (const [id, time] of ...)`: no [id, time] pair made per entry; the ids kept may be in time
    // order again (those added out of order dropped)
    let inOrder = true;
    let last = Number.NEGATIVE_INFINITY;
    this.seen.forEach((time, id) => {
      if (time < horizon) this.seen.delete(id);
      else {
        if (time < last) inOrder = false;
        last = time;
      }
    });
    this.seenInTimeOrder = inOrder;
    this.lastSeenTime = last;
  }
}

/**
 * Where the rest of `deals` is the start of `last` (the same Deal objects in the same order), or `deals.length`: the
 * deals before it are new since `last` was read.
 */
function rereadFrom(deals: readonly Deal[], last: readonly Deal[] | undefined): number {
  const n = deals.length;
  if (last === undefined || last.length === 0) return n;
  const k = deals.indexOf(last[0]!);
  if (k < 0) return n;
  for (let j = 1; j < n - k; j++) if (deals[k + j] !== last[j]) return n;
  return k;
}

/** One fetch's findings so far. */
interface Scan {
  /** made on the first new deal: most polls find none */
  fresh: Map<number, Deal> | undefined;
  malformed: Deal[] | undefined;
  readonly firstPage: readonly Deal[];
}
