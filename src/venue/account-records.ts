import type { Decimal } from '../model/decimal.js';
import type { KillSwitchOrderType } from './wire.js';

/** Domain forms of the account and reference endpoints outside TradingApi (codes, investments, assets, kill-switch). */

/** One asset of the public assets list. Fields the venue leaves out stay undefined. */
export interface AssetInfo {
  readonly ticker: string;
  readonly name: string;
  readonly canDeposit: boolean;
  readonly canWithdraw: boolean;
  readonly minWithdraw?: Decimal;
  readonly maxWithdraw?: Decimal;
  readonly makerFee?: Decimal;
  readonly takerFee?: Decimal;
}

/** Result of creating a code. `code` is a bearer secret: print it once, never log it. */
export interface CreatedCode {
  readonly code: string;
  readonly message: string;
  readonly externalId: string;
}

import type { Investment } from '../model/investment.js';
export type { FixedPlan, Investment } from '../model/investment.js';

export interface InvestmentsPage {
  readonly offset: number;
  readonly limit: number;
  readonly records: readonly Investment[];
}

export interface InvestmentsQuery {
  readonly id?: string;
  readonly ticker?: string;
  readonly status?: 1 | 2;
  /** 1-100, default 100. */
  readonly limit?: number;
  /** 0-10000, default 0. */
  readonly offset?: number;
}

export type BalanceAccount = 'main' | 'spot';

export interface TransferRequest {
  readonly ticker: string;
  readonly amount: Decimal;
  readonly from: BalanceAccount;
  readonly to: BalanceAccount;
}

export interface CreateCodeRequest {
  readonly ticker: string;
  readonly amount: Decimal;
  /** Letters, digits, symbols; no whitespace; at most 25. A secret: never logged. */
  readonly passphrase?: string;
  /** At most 280 characters. */
  readonly description?: string;
}

/** A running kill-switch (dead-man) timer of one market; see wire/kill-switch.ts. */
export interface KillSwitchState {
  readonly market: string;
  /** Unix seconds: when it was set or last reset. */
  readonly startTime: number;
  /** Unix seconds: when the venue cancels the market's orders unless it is reset first (startTime + timeout). */
  readonly cancellationTime: number;
  /** The order types it cancels. */
  readonly types: readonly KillSwitchOrderType[];
}
