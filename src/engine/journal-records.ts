import type { Balances } from '../model/balance.js';
import { fmt, type Decimal } from '../model/decimal.js';
import type { Deal, OrderTerms, Side } from '../model/order.js';
import { WIRE_ORDER_TYPE, type WireOrderType } from '../venue/wire.js';
import type { OrderState } from '../strategy/context.js';
import type { Intent } from '../strategy/intents.js';

/** Decimals are journalled as canonical strings (`fmt`), never as numbers. */
export type DecimalString = string;

/** A domain shape as the journal stores it: Decimals as canonical strings. */
export type Stored<T> = { readonly [K in keyof T]: NonNullable<T[K]> extends Decimal ? DecimalString : T[K] };

/**
 * An order's terms as the journal stores them (`submit`, `adopt`): the OrderRequest's fields with Decimals as strings,
 * and its kind as `type` in the wire's spelling ("limit", "stop limit"), the format every journal so far was written in
 * and a restart must read.
 */
export type JournalOrder = Stored<Omit<OrderTerms, 'kind'>> & { readonly type: WireOrderType };

export interface JournalDeal {
  readonly id: number;
  readonly time: number;
  readonly market: string;
  readonly side: Side;
  readonly role: 'maker' | 'taker';
  readonly amount: DecimalString;
  readonly price: DecimalString;
  readonly deal: DecimalString;
  readonly fee: DecimalString;
  readonly orderId: number;
  readonly clientOrderId: string;
}

/**
 * One line of the journal. `t` is the engine clock (ms). Never holds a secret: only orders, fills,
 * balances and reasons. `submit` is written (and fsynced, by default) BEFORE its request is sent.
 */
export type JournalRecord =
  | { readonly t: number; readonly type: 'start'; readonly run: number; readonly strategies: readonly string[]; readonly dryRun: boolean }
  | { readonly t: number; readonly type: 'intent'; readonly strategyId: string; readonly intent: Record<string, unknown> }
  | {
      readonly t: number;
      readonly type: 'rejected';
      readonly strategyId: string;
      readonly stage: string;
      readonly reason: string;
      readonly message: string;
      readonly clientOrderId?: string;
    }
  | {
      readonly t: number;
      readonly type: 'submit';
      readonly strategyId: string;
      readonly clientOrderId: string;
      readonly order: JournalOrder;
      readonly tag?: string;
    }
  | { readonly t: number; readonly type: 'cancel'; readonly strategyId: string; readonly clientOrderId: string }
  | {
      readonly t: number;
      readonly type: 'outcome';
      readonly strategyId: string;
      readonly clientOrderId: string;
      readonly state: OrderState;
      readonly orderId?: number;
      readonly left?: DecimalString;
      readonly reason?: string;
    }
  | {
      readonly t: number;
      readonly type: 'adopt';
      readonly strategyId: string;
      readonly clientOrderId: string;
      readonly orderId: number;
      readonly order: JournalOrder;
      readonly left: DecimalString;
    }
  | { readonly t: number; readonly type: 'fill'; readonly strategyId: string | null; readonly deal: JournalDeal }
  | { readonly t: number; readonly type: 'balance'; readonly balances: Readonly<Record<string, { available: DecimalString; freeze: DecimalString }>> }
  | { readonly t: number; readonly type: 'halt'; readonly strategyId: string; readonly reason: string }
  /** The venue's dead-man timer of a market (dead-man.ts): armed (or re-armed after running out), run out, cleared at a clean stop. */
  | {
      readonly t: number;
      readonly type: 'deadman';
      readonly action: 'arm' | 'expired' | 'clear';
      readonly market: string;
      readonly timeoutSec?: number;
      readonly cancellationTime?: number;
    }
  /** An operator's control (ops HTTP surface): pause/resume a strategy, cancel its orders, stop the daemon. */
  | {
      readonly t: number;
      readonly type: 'control';
      readonly action: ControlAction;
      readonly strategyId?: string;
      readonly cancelOrders?: boolean;
      readonly source: string;
    }
  /**
   * A venue answer the engine did not take as fact (see answer-check.ts, fill-checks.ts): what it was and why, so an
   * audit can tell a lying venue from a bug. Replay ignores it: nothing of the answer was acted on.
   */
  | {
      readonly t: number;
      readonly type: 'anomaly';
      readonly kind: AnomalyKind;
      readonly strategyId: string | null;
      readonly clientOrderId?: string;
      readonly dealId?: number;
      readonly detail: string;
    }
  | { readonly t: number; readonly type: 'stop'; readonly summary: Record<string, unknown> }
  /**
   * Account-wide limits (account-risk.ts): the peak of account equity and the UTC day's starting equity, written when
   * they change materially (a first mark, a new day, a peak a step above the last one written, an operator's resume,
   * a clean stop), so a restart measures drawdown from the same peak. Equity is in the strategies' one money asset.
   */
  | {
      readonly t: number;
      readonly type: 'account-mark';
      readonly why: AccountMarkWhy;
      readonly peak: DecimalString;
      /** UTC day of the engine clock, `YYYY-MM-DD`. */
      readonly day: string;
      readonly dayStart: DecimalString;
      readonly equity?: DecimalString;
      /** Who re-armed the limits (`resume` only), e.g. `http 127.0.0.1`. */
      readonly source?: string;
    }
  /** An account limit was crossed: every strategy is halted (each gets its `halt` record after this one). */
  | {
      readonly t: number;
      readonly type: 'account-halt';
      readonly limit: AccountLimitName;
      readonly reason: string;
      readonly equity: DecimalString;
      readonly peak: DecimalString;
      readonly day: string;
      readonly dayStart: DecimalString;
    };

export type AccountLimitName = 'max-drawdown' | 'max-daily-loss';
export type AccountMarkWhy = 'first' | 'peak' | 'day' | 'resume' | 'stop';

/**
 * `implausible-answer`: an order record that contradicts the request or itself; `malformed-deal`: a deal with a
 * non-positive amount or price or a negative fee; `deal-held` / `deal-released` / `deal-rejected`: a deal that did not
 * fit its order, held, then released once the venue's records covered it or rejected for good; `fills-disagree`: the
 * venue reports less executed for an order than the deals already journalled for it.
 */
export type AnomalyKind = 'implausible-answer' | 'malformed-deal' | 'deal-held' | 'deal-released' | 'deal-rejected' | 'fills-disagree';

export type ControlAction = 'pause' | 'resume' | 'cancel-orders' | 'stop';

export type JournalRecordType = JournalRecord['type'];

export function journalDeal(d: Deal): JournalDeal {
  return {
    id: d.id,
    time: d.time,
    market: d.market,
    side: d.side,
    role: d.role,
    amount: fmt(d.amount),
    price: fmt(d.price),
    deal: fmt(d.deal),
    fee: fmt(d.fee),
    orderId: d.orderId,
    clientOrderId: d.clientOrderId,
  };
}

/**
 * The journal's form of an order's terms (the one conversion: submissions, adoptions). Key order is the journal's
 * format: market, side, type, price, amount, then the optional terms present.
 */
export function journalOrder(o: OrderTerms): JournalOrder {
  return {
    market: o.market,
    side: o.side,
    type: WIRE_ORDER_TYPE[o.kind],
    price: fmt(o.price),
    amount: fmt(o.amount),
    ...(o.activationPrice ? { activationPrice: fmt(o.activationPrice) } : {}),
    ...(o.postOnly !== undefined ? { postOnly: o.postOnly } : {}),
    ...(o.ioc !== undefined ? { ioc: o.ioc } : {}),
    ...(o.rpi !== undefined ? { rpi: o.rpi } : {}),
    ...(o.stp !== undefined ? { stp: o.stp } : {}),
  };
}

export function journalBalances(b: Balances): Record<string, { available: string; freeze: string }> {
  const out: Record<string, { available: string; freeze: string }> = {};
  for (const [ticker, v] of Object.entries(b)) out[ticker] = { available: fmt(v.available), freeze: fmt(v.freeze) };
  return out;
}

/** Intents hold Decimals; journal them as strings. */
export function journalIntent(intent: Intent): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(intent)) {
    out[k] = v !== null && typeof v === 'object' && 'toFixed' in v ? (v as { toFixed(): string }).toFixed() : v;
  }
  return out;
}
