import { D, ZERO, type Decimal } from '../model/decimal.js';
import { lt } from '../model/decimal-compare.js';
import { partsOf } from '../model/decimal-parts.js';
import { dsub } from '../model/decimal-small.js';
import type { OrderTerms } from '../model/order.js';
import { ORDER_KIND_OF } from '../venue/wire.js';
import type { OrderState } from '../strategy/context.js';
import { runOf } from './client-order-ids.js';
import type { AccountLimitName, JournalDeal, JournalRecord } from './journal-records.js';
import { ledgerFillFromStrings, type LedgerFill } from './pnl.js';

/** An order as a restart learns it from the journal: its terms (those the journal keeps), whose it is, its last known fate. */
export interface ReplayedOrder extends Pick<OrderTerms, 'market' | 'side' | 'kind' | 'price' | 'amount' | 'activationPrice'> {
  readonly clientOrderId: string;
  readonly strategyId: string;
  readonly tag?: string;
  state: OrderState;
  orderId?: number;
  /** The venue's last reported `left` (fills learnt from deals are counted separately in `dealt`). */
  venueLeft: Decimal;
  /** Sum of the deals seen for this order. */
  dealt: Decimal;
  /** A `cancel` record was written for it (a cancel request went out). */
  cancelSent?: boolean;
}

/** Remaining amount: both sources only ever decrease, so the smaller is the most recent knowledge. */
export function leftOf(o: { amount: Decimal; venueLeft: Decimal; dealt: Decimal }): Decimal {
  // Nothing dealt (most orders, most of their life): amount − 0 is the amount itself, no new Decimal, as long as it has
  // too few digits for the precision's rounding to touch it (8 base-1e7 words hold at most 56; see plausible.ts). Every
  // view, funds and exposure estimate asks this.
  const byDeals = o.dealt.isZero() && (partsOf(o.amount).d?.length ?? Infinity) <= 8 ? o.amount : dsub(o.amount, o.dealt);
  const left = lt(byDeals, o.venueLeft) ? byDeals : o.venueLeft;
  return left.isNegative() ? ZERO : left;
}

/** What a restart learns from the journal. */
export interface JournalState {
  /** Highest run id seen, so the next run's client order ids cannot collide. */
  readonly lastRun: number | undefined;
  readonly orders: Map<string, ReplayedOrder>;
  readonly dealIds: Set<number>;
  /** Fills per strategy, in journal order, to rebuild the PnL ledgers. */
  readonly fills: Map<string, LedgerFill[]>;
  /** The account limits' marks (account-risk.ts); undefined when the journal has none. */
  readonly account?: ReplayedAccount;
}

/** What `account-mark` and `account-halt` records leave: the last peak and day start, and a halt not yet resumed. */
export interface ReplayedAccount {
  readonly peak: Decimal;
  /** `YYYY-MM-DD` (UTC, engine clock). */
  readonly day: string;
  readonly dayStart: Decimal;
  readonly halt?: { readonly t: number; readonly limit: AccountLimitName; readonly reason: string };
}

export const TERMINAL_STATES: ReadonlySet<OrderState> = new Set<OrderState>(['filled', 'canceled', 'rejected']);

/** Orders whose fate the venue must confirm on start (anything not terminal). */
export function inFlight(state: JournalState): ReplayedOrder[] {
  return [...state.orders.values()].filter((o) => !TERMINAL_STATES.has(o.state));
}

/** Folds the journal into the state a restart needs. Pure; tolerant of records it does not know. */
export function replayJournal(records: Iterable<JournalRecord>): JournalState {
  let lastRun: number | undefined;
  const orders = new Map<string, ReplayedOrder>();
  const dealIds = new Set<number>();
  const fills = new Map<string, LedgerFill[]>();
  let account: ReplayedAccount | undefined;
  const bumpRun = (run: number | undefined): void => {
    if (run !== undefined && (lastRun === undefined || run > lastRun)) lastRun = run;
  };

  for (const r of records) {
    switch (r.type) {
      case 'start':
        bumpRun(r.run);
        break;
      case 'submit':
      case 'adopt': {
        if (r.type === 'submit') bumpRun(runOf(r.clientOrderId));
        const o = r.order;
        const prior = orders.get(r.clientOrderId);
        orders.set(r.clientOrderId, {
          clientOrderId: r.clientOrderId,
          strategyId: r.strategyId,
          market: o.market,
          side: o.side,
          kind: ORDER_KIND_OF[o.type],
          price: D(o.price),
          amount: D(o.amount),
          ...(o.activationPrice ? { activationPrice: D(o.activationPrice) } : {}),
          ...(r.type === 'submit' && r.tag !== undefined ? { tag: r.tag } : prior?.tag !== undefined ? { tag: prior.tag } : {}),
          state: r.type === 'submit' ? 'pending' : 'open',
          ...(r.type === 'adopt' ? { orderId: r.orderId } : {}),
          venueLeft: r.type === 'adopt' ? D(r.left) : D(o.amount),
          dealt: prior?.dealt ?? ZERO,
        });
        break;
      }
      case 'outcome': {
        const o = orders.get(r.clientOrderId);
        if (!o) break;
        o.state = r.state;
        if (r.orderId !== undefined) o.orderId = r.orderId;
        if (r.left !== undefined) o.venueLeft = D(r.left);
        break;
      }
      case 'cancel': {
        const o = orders.get(r.clientOrderId);
        if (o) o.cancelSent = true;
        break;
      }
      case 'fill':
        applyFill(r.strategyId, r.deal, orders, dealIds, fills);
        break;
      case 'account-mark':
        // an operator's resume clears a halt; any other mark keeps it (the halted daemon still tracks its equity)
        account = { peak: D(r.peak), day: r.day, dayStart: D(r.dayStart), ...(r.why !== 'resume' && account?.halt ? { halt: account.halt } : {}) };
        break;
      case 'account-halt':
        account = { peak: D(r.peak), day: r.day, dayStart: D(r.dayStart), halt: { t: r.t, limit: r.limit, reason: r.reason } };
        break;
      default:
        break;
    }
  }
  return { lastRun, orders, dealIds, fills, ...(account ? { account } : {}) };
}

function applyFill(
  strategyId: string | null,
  deal: JournalDeal,
  orders: Map<string, ReplayedOrder>,
  dealIds: Set<number>,
  fills: Map<string, LedgerFill[]>,
): void {
  if (dealIds.has(deal.id)) return;
  dealIds.add(deal.id);
  if (strategyId === null) return;
  const list = fills.get(strategyId) ?? [];
  list.push(ledgerFillFromStrings(deal));
  fills.set(strategyId, list);
  const o = orders.get(deal.clientOrderId);
  if (!o) return;
  o.orderId = deal.orderId;
  o.dealt = o.dealt.plus(D(deal.amount));
  if (leftOf(o).isZero()) o.state = 'filled';
  else if (!TERMINAL_STATES.has(o.state)) o.state = 'partially-filled';
}
