import type { AuthFields, WireDecimal } from './common.js';

export interface TradeBalanceBody extends AuthFields {
  ticker?: string;
}
export type TradeBalanceResponse = Record<string, { available: WireDecimal; freeze: WireDecimal }>;

export type MainBalanceBody = AuthFields;
/** Assets with a zero balance are omitted. */
export type MainBalanceResponse = Record<string, { main_balance: WireDecimal }>;

export interface TransferBody extends AuthFields {
  ticker: string;
  amount: WireDecimal;
  from: 'main' | 'spot';
  to: 'main' | 'spot';
}
/** 201 with an empty array. */
export type TransferResponse = [];

export interface CreateCodeBody extends AuthFields {
  ticker: string;
  amount: WireDecimal;
  passphrase?: string;
  description?: string;
}

export interface CreateCodeResponse {
  /** A bearer secret: never logged. */
  code: string;
  message: string;
  external_id: string;
}

export interface InvestmentsBody extends AuthFields {
  id?: string;
  ticker?: string;
  status?: 1 | 2;
  /** 1-100, default 100. */
  limit?: number;
  /** 0-10000, default 0. */
  offset?: number;
}

export interface WireFixedPlan {
  id: string;
  ticker: string;
  status: 1 | 2 | 3 | 4;
  percent: WireDecimal;
  duration: number;
  interestTicker: string;
  interestRatio: WireDecimal;
  minInvestment: WireDecimal;
  maxInvestment: WireDecimal;
  maxPossibleInvestment: WireDecimal;
}

export interface WireInvestment {
  id: string;
  plan: WireFixedPlan;
  status: 1 | 2;
  created: number;
  updated: number;
  paymentTime: number;
  amount: WireDecimal;
  interestPaid: WireDecimal;
}

export interface InvestmentsResponse {
  offset: number;
  limit: number;
  records: WireInvestment[];
}
