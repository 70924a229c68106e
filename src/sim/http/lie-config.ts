/**
 * The lying venue's kinds (issue 23 item 7): the exchange ACTS truthfully (matching engine, ledger, its own records)
 * but ANSWERS wrongly over HTTP, in well-formed JSON a client's schema accepts. Off unless configured or driven from a
 * test (venue-lies.ts). Per-order and per-deal kinds take a probability per item; book kinds come as episodes, a
 * seeded Poisson process of `perMinute` episodes of `forMs` each per market.
 */
export const LIE_KINDS = [
  'hiddenOpenOrders',
  'duplicateDeals',
  'corruptDeals',
  'contradictingAnswers',
  'absurdBook',
  'crossedBook',
  'frozenBook',
  'bookOutage',
] as const;
export type LieKind = (typeof LIE_KINDS)[number];

export const BOOK_LIE_KINDS = ['absurdBook', 'crossedBook', 'frozenBook', 'bookOutage'] as const satisfies readonly LieKind[];
export type BookLieKind = (typeof BOOK_LIE_KINDS)[number];

/** How a deal is first misreported under its true id (the true record follows). */
export const DEAL_CORRUPTIONS = ['negative-amount', 'zero-price', 'negative-price', 'negative-fee'] as const;
export type DealCorruption = (typeof DEAL_CORRUPTIONS)[number];

/** The one field of an order-creation answer that contradicts the request. */
export const ANSWER_CONTRADICTIONS = ['market', 'amount', 'price', 'side', 'client-order-id'] as const;
/** How an order record in an `orders` or `order/cancel` answer is impossible. */
export const RECORD_CORRUPTIONS = ['negative-left', 'negative-price', 'left-above-amount'] as const;
export type AnswerContradiction = (typeof ANSWER_CONTRADICTIONS)[number];
export type RecordCorruption = (typeof RECORD_CORRUPTIONS)[number];
export type OrderLie = AnswerContradiction | RecordCorruption;

/** `ask-under-bid`: a best ask of 0.01 under the real bids; `times-10`: every price ×10; `huge`: every price at ~1e29. */
export const ABSURD_BOOKS = ['ask-under-bid', 'times-10', 'huge'] as const;
export type AbsurdBook = (typeof ABSURD_BOOKS)[number];

/** Every variant name of a kind (empty: the kind has none). */
export const LIE_VARIANTS: Readonly<Record<LieKind, readonly string[]>> = {
  hiddenOpenOrders: [],
  duplicateDeals: [],
  corruptDeals: DEAL_CORRUPTIONS,
  contradictingAnswers: [...ANSWER_CONTRADICTIONS, ...RECORD_CORRUPTIONS],
  absurdBook: ABSURD_BOOKS,
  crossedBook: [],
  frozenBook: [],
  bookOutage: [],
};

export interface BookLieConfig {
  /** Mean episodes per minute and market (a seeded Poisson process, drawn as the book is asked for). */
  readonly perMinute: number;
  /** Length of each episode, ms. */
  readonly forMs: number;
  /** Markets it may hit; default every market. */
  readonly markets?: readonly string[] | undefined;
}

export interface LieConfig {
  /** Seed of the lies' own PRNG; default the fault config's seed. A separate stream, so lies never move a fault. */
  readonly seed?: number | undefined;
  /** Each order accepted while open: the probability it is left out of `orders` answers (list and look-ups) for `forMs` (default 16000). */
  readonly hiddenOpenOrders?: { readonly probability: number; readonly forMs?: number | undefined } | undefined;
  /** Each deal of the account: the probability it is ALSO reported under a new, unused deal id (for as long as the lies are on). */
  readonly duplicateDeals?: { readonly probability: number } | undefined;
  /** Each deal: the probability it is first reported with a corrupted figure under its true id, the true record after `forMs` (default 3000). */
  readonly corruptDeals?:
    | { readonly probability: number; readonly forMs?: number | undefined; readonly variants?: readonly DealCorruption[] | undefined }
    | undefined;
  /**
   * `probability`: each order-creation answer (order/new, order/stop_limit, each order/bulk item) is the acted order's
   * record with one field contradicting the request; `recordProbability`: each order record of an `orders` or
   * `order/cancel` answer is impossible. `variants` picks from both lists (default all).
   */
  readonly contradictingAnswers?:
    | { readonly probability?: number | undefined; readonly recordProbability?: number | undefined; readonly variants?: readonly OrderLie[] | undefined }
    | undefined;
  readonly absurdBook?: (BookLieConfig & { readonly variants?: readonly AbsurdBook[] | undefined }) | undefined;
  /** `crossBy`: how far the best bid is moved above the best ask, as a fraction of the mid (default 0.001). */
  readonly crossedBook?: (BookLieConfig & { readonly crossBy?: number | undefined }) | undefined;
  /** The same snapshot, timestamp included, answered over and over. */
  readonly frozenBook?: BookLieConfig | undefined;
  /** 503 (non-JSON) on the order book. */
  readonly bookOutage?: BookLieConfig | undefined;
}

export const DEFAULT_HIDDEN_MS = 16_000;
export const DEFAULT_CORRUPT_MS = 3_000;
export const DEFAULT_CROSS_BY = 0.001;

/** Throws a RangeError naming the key path (`faults.lies.<kind>.<key>`) for a value the lies cannot use. */
export function validateLieConfig(config: LieConfig | undefined): void {
  if (config === undefined) return;
  const path = (kind: string, key: string): string => `faults.lies.${kind}.${key}`;
  const probability = (kind: string, key: string, p: number | undefined): void => {
    if (p !== undefined && !(p >= 0 && p <= 1)) throw new RangeError(`${path(kind, key)} must be a probability in [0, 1], got ${p}`);
  };
  const ms = (kind: string, key: string, v: number | undefined): void => {
    if (v !== undefined && !(v >= 0 && Number.isFinite(v))) throw new RangeError(`${path(kind, key)} must be >= 0 ms, got ${v}`);
  };
  const variants = (kind: LieKind, list: readonly string[] | undefined): void => {
    for (const v of list ?? []) {
      if (!LIE_VARIANTS[kind].includes(v)) throw new RangeError(`${path(kind, 'variants')}: unknown variant '${v}' (known: ${LIE_VARIANTS[kind].join(', ')})`);
    }
  };
  for (const key of Object.keys(config)) {
    if (key !== 'seed' && !(LIE_KINDS as readonly string[]).includes(key))
      throw new RangeError(`faults.lies: unknown kind '${key}' (known: ${LIE_KINDS.join(', ')})`);
  }
  probability('hiddenOpenOrders', 'probability', config.hiddenOpenOrders?.probability);
  ms('hiddenOpenOrders', 'forMs', config.hiddenOpenOrders?.forMs);
  probability('duplicateDeals', 'probability', config.duplicateDeals?.probability);
  probability('corruptDeals', 'probability', config.corruptDeals?.probability);
  ms('corruptDeals', 'forMs', config.corruptDeals?.forMs);
  variants('corruptDeals', config.corruptDeals?.variants);
  probability('contradictingAnswers', 'probability', config.contradictingAnswers?.probability);
  probability('contradictingAnswers', 'recordProbability', config.contradictingAnswers?.recordProbability);
  variants('contradictingAnswers', config.contradictingAnswers?.variants);
  for (const kind of BOOK_LIE_KINDS) {
    const c = config[kind];
    if (c === undefined) continue;
    if (!(c.perMinute >= 0 && Number.isFinite(c.perMinute))) throw new RangeError(`${path(kind, 'perMinute')} must be >= 0, got ${c.perMinute}`);
    ms(kind, 'forMs', c.forMs);
  }
  variants('absurdBook', config.absurdBook?.variants);
  const crossBy = config.crossedBook?.crossBy;
  if (crossBy !== undefined && !(crossBy > 0 && crossBy < 1))
    throw new RangeError(`${path('crossedBook', 'crossBy')} must be a fraction in (0, 1), got ${crossBy}`);
}
