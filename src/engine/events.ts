import type { Deal, Order } from '../model/order.js';
import type { Intent } from '../strategy/intents.js';
import type { OrderState } from '../strategy/context.js';
import type { BookHoldReason } from '../streams/sane-books.js';
import type { AccountLimitName, ControlAction } from './journal-records.js';

/** Where an intent was stopped before (or at) the venue. */
export type RejectionStage = 'rules' | 'risk' | 'venue' | 'halted' | 'engine';

interface Base {
  /** Engine clock, ms. */
  readonly at: number;
}

/**
 * Everything the runtime reports, in order. Expected rejections are events with a reason (never thrown);
 * `error` carries real failures (a poll that failed, a strategy that threw).
 */
export type EngineEvent =
  | (Base & { readonly type: 'intent'; readonly strategyId: string; readonly intent: Intent; readonly dryRun: boolean })
  | (Base & {
      readonly type: 'rejected';
      readonly strategyId: string;
      readonly stage: RejectionStage;
      /** Stable short reason, used for "rejections by reason" (e.g. `rules:32`, `risk:max-open-orders`). */
      readonly reason: string;
      readonly message: string;
      readonly intent?: Intent;
      readonly clientOrderId?: string;
      /** The venue's numeric code for stage `venue`. */
      readonly venueCode?: number;
    })
  | (Base & { readonly type: 'submitted'; readonly strategyId: string; readonly clientOrderId: string; readonly kind: 'place' | 'cancel' })
  | (Base & { readonly type: 'accepted'; readonly strategyId: string; readonly clientOrderId: string; readonly order: Order })
  | (Base & { readonly type: 'fill'; readonly strategyId: string | undefined; readonly deal: Deal })
  | (Base & { readonly type: 'canceled'; readonly strategyId: string; readonly clientOrderId: string })
  | (Base & { readonly type: 'unknown'; readonly strategyId: string; readonly clientOrderId: string; readonly message: string })
  | (Base & {
      readonly type: 'reconciled';
      readonly strategyId: string;
      readonly clientOrderId: string;
      /** The state the venue's records prove. */
      readonly state: OrderState;
    })
  | (Base & { readonly type: 'adopted'; readonly strategyId: string; readonly clientOrderId: string })
  | (Base & { readonly type: 'risk-halt'; readonly strategyId: string; readonly reason: string })
  /** An account-wide limit was crossed (account-risk.ts); a `risk-halt` of every strategy follows. */
  | (Base & { readonly type: 'account-halt'; readonly limit: AccountLimitName; readonly reason: string })
  | (Base & {
      readonly type: 'stale';
      readonly market: string;
      readonly source: string;
      readonly stale: boolean;
      /** On going stale: the live orders of the market's strategies whose cancel this requested. */
      readonly canceled?: number;
    })
  /** A polled book held back by the sanity check (streams/sane-books.ts): one per held poll; `heldPolls` 1 starts an episode. */
  | (Base & { readonly type: 'book-held'; readonly market: string; readonly reason: BookHoldReason; readonly heldPolls: number; readonly message: string })
  | (Base & {
      readonly type: 'control';
      readonly action: ControlAction;
      readonly strategyId?: string;
      readonly cancelOrders?: boolean;
      readonly source: string;
    })
  | (Base & { readonly type: 'error'; readonly strategyId?: string; readonly code: string; readonly message: string });

export type EngineEventType = EngineEvent['type'];
