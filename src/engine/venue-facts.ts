import { BotError } from '../model/errors.js';
import { ZERO, type Decimal } from '../model/decimal.js';
import type { Deal, Order } from '../model/order.js';
import type { OrderState } from '../strategy/context.js';
import { dealDefects } from '../venue/plausible.js';
import type { TradingApi } from '../venue/trading-api.js';
import { orderAnswerProblems, type AskedOrder } from './answer-check.js';

/** What the venue's records say about one of our orders, each record checked before it counts. */
export interface VenueFacts {
  /** The order as it rests on the venue, when it is open. */
  readonly open?: Order;
  /** The order's record in the executed-orders history, when it finished after trading (its `dealStock` is final). */
  readonly finished?: Order;
  /**
   * Every deal the venue lists for the order: the malformed ones first (for the fill checks to know of them, see
   * FillChecks), then the well-formed ones oldest first. Sums of amounts count the well-formed ones only (`dealtBy`).
   */
  readonly deals: readonly Deal[];
}

/** A well-formed answer that contradicts the request or what the engine knows: not a fact, the look-up is retried. */
export class ImplausibleAnswerError extends BotError {
  constructor(
    message: string,
    readonly problems: readonly string[],
  ) {
    super(`${message}: ${problems.join('; ')}`, { code: 'ERR_VENUE_IMPLAUSIBLE' });
  }
}

const PAGE = 100;

/**
 * Every deal of one client order id (paged): the malformed ones first (they count for nothing, but their id tells the
 * fill checks that a true record may follow), then the well-formed ones oldest first.
 */
export async function fetchDealsOf(api: TradingApi, market: string, clientOrderId: string): Promise<Deal[]> {
  const all: Deal[] = [];
  for (let offset = 0; offset <= 10_000; offset += PAGE) {
    const page = await api.deals({ market, clientOrderId, limit: PAGE, offset });
    all.push(...page);
    if (page.length < PAGE) break;
  }
  const mine = all.filter((d) => d.clientOrderId === clientOrderId);
  const malformed = mine.filter((d) => dealDefects(d).length > 0);
  const sound = mine.filter((d) => dealDefects(d).length === 0).sort((a, b) => a.time - b.time || a.id - b.id);
  return [...malformed, ...sound];
}

/**
 * What the venue knows about one order: the open-orders look-up by client id, its deals, and (when it is not open and
 * the venue offers it) its executed-orders history record, asked for only when the deals do not account for the whole
 * amount or `history` says so (the deals may be wrong: see HeldDeals). A record that contradicts the order makes the
 * look-up fail with ImplausibleAnswerError, so nothing of it is acted on.
 */
export async function venueFacts(api: TradingApi, order: AskedOrder, opts: { history?: boolean } = {}): Promise<VenueFacts> {
  const { market, clientOrderId } = order;
  const open = (await api.openOrders({ market, clientOrderId })).find((o) => o.clientOrderId === clientOrderId);
  if (open !== undefined) {
    const problems = orderAnswerProblems(order, open);
    if (problems.length > 0) throw new ImplausibleAnswerError(`open-orders record of ${clientOrderId}`, problems);
  }
  const deals = await fetchDealsOf(api, market, clientOrderId);
  if (open !== undefined) return { open, deals };
  if (opts.history !== true && dealtBy(deals).gte(order.amount)) return { deals };
  const finished = api.orderHistory === undefined ? undefined : (await api.orderHistory({ market, clientOrderId })).find((o) => o.clientOrderId === clientOrderId);
  if (finished !== undefined) {
    const problems = orderAnswerProblems(order, finished);
    if (problems.length > 0) throw new ImplausibleAnswerError(`order-history record of ${clientOrderId}`, problems);
    return { finished, deals };
  }
  return { deals };
}

/**
 * Sum of the well-formed deals' amounts, each fill once: deals of the same time, amount and price under other ids count
 * once (the same fill reported again under a new id is the lie FillChecks holds back; counting it would prove an order
 * filled that still rests on the venue). Undercounting a true twin only means the history record is asked.
 */
export function dealtBy(deals: readonly Deal[]): Decimal {
  let sum = ZERO;
  const fills = new Set<string>();
  for (const d of deals) {
    if (dealDefects(d).length > 0) continue;
    const fill = `${d.time}|${d.amount.toFixed()}|${d.price.toFixed()}`;
    if (fills.has(fill)) continue;
    fills.add(fill);
    sum = sum.plus(d.amount);
  }
  return sum;
}

/**
 * The state a positive answer proves, or undefined when the records prove nothing (absence is not proof): an open
 * record, a history record (finished: filled when nothing is left, else cancelled after trading), or deals that
 * account for the whole amount.
 */
export function provenByRecords(amount: Decimal, facts: VenueFacts): OrderState | undefined {
  const record = facts.open ?? facts.finished;
  if (record !== undefined) {
    if (record.left.isZero() && record.dealStock.gt(0)) return 'filled';
    if (facts.finished !== undefined || record.status === 'CANCELED') return 'canceled';
    return record.dealStock.gt(0) ? 'partially-filled' : 'open';
  }
  return dealtBy(facts.deals).gte(amount) ? 'filled' : undefined;
}
