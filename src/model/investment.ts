import type { Decimal } from './decimal.js';

/** Fixed plan status: 1 active, 2 no coins left, 3 inactive, 4 pause (the contract's states). */
export type PlanStatus = 1 | 2 | 3 | 4;
/** Investment status: 1 active, 2 closed. */
export type InvestmentStatus = 1 | 2;

/** A fixed (lending) plan, domain form. */
export interface FixedPlan {
  readonly id: string;
  readonly ticker: string;
  readonly status: PlanStatus;
  /** Interest in percent, as the venue gives it. */
  readonly percent: Decimal;
  /** Minutes. */
  readonly duration: number;
  readonly interestTicker: string;
  readonly interestRatio: Decimal;
  readonly minInvestment: Decimal;
  readonly maxInvestment: Decimal;
  readonly maxPossibleInvestment: Decimal;
}

/** One fixed-plan investment of an account, domain form. Times are Unix seconds. */
export interface Investment {
  readonly id: string;
  readonly plan: FixedPlan;
  readonly status: InvestmentStatus;
  readonly created: number;
  readonly updated: number;
  readonly paymentTime: number;
  readonly amount: Decimal;
  readonly interestPaid: Decimal;
}
