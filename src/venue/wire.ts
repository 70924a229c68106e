/**
 * The v4 wire: exact JSON shapes of requests and responses (decimals as strings), the paths, the
 * two field-name dialects and the rate-limit table. This file is the ONLY contract shared by the
 * REST client (venue/) and the simulated exchange (sim/). No logic here beyond constants.
 * Sources: ../shared/spec/api-v4.md (the contract) and exchange-facts.md (gaps, extra endpoints).
 */

export const PATHS = {
  ping: '/api/v4/public/ping',
  markets: '/api/v4/public/markets',
  assets: '/api/v4/public/assets',
  /** Append `/{market}`; query `limit` (0-100) and `level` (0-5). */
  orderbook: '/api/v4/public/orderbook',
  orderNew: '/api/v4/order/new',
  orderStopLimit: '/api/v4/order/stop_limit',
  orderCancel: '/api/v4/order/cancel',
  orders: '/api/v4/orders',
  killSwitch: '/api/v4/order/kill-switch',
  tradeBalance: '/api/v4/trade-account/balance',
  executedHistory: '/api/v4/trade-account/executed-history',
  mainBalance: '/api/v4/main-account/balance',
  transfer: '/api/v4/main-account/transfer',
  codes: '/api/v4/main-account/codes',
  investments: '/api/v4/main-account/smart/investments',
} as const;

export type EndpointName = keyof typeof PATHS;
export type PrivatePath = Exclude<(typeof PATHS)[EndpointName], (typeof PATHS)['ping' | 'markets' | 'assets' | 'orderbook']>;

/** `contract`: snake_case order fields as api-v4.md writes them. `exchange`: the live venue's camelCase. */
export type Dialect = 'contract' | 'exchange';

export const BASE_URLS = {
  main: 'https://api.whitebit.com',
  eu: 'https://api.whitebit.eu',
} as const;
export type Region = keyof typeof BASE_URLS;

/** Auth headers (exchange-facts §1). */
export const HEADERS = {
  apiKey: 'x-txc-apikey',
  payload: 'x-txc-payload',
  signature: 'x-txc-signature',
} as const;

// ---------------------------------------------------------------- rate limits

export interface RateLimit {
  /** Requests allowed per window. */
  readonly limit: number;
  /** Window length in milliseconds (sliding). */
  readonly windowMs: number;
  /** Buckets an endpoint also counts against (e.g. `public` overall, `mainAccount` shared). */
  readonly shared?: readonly RateBucket[];
}

export type RateBucket = EndpointName | 'public' | 'mainAccount';

/**
 * Per-endpoint limits per client. The contract's table, plus exchange-facts §2 (main-account
 * endpoints share 1000/10 s; public endpoints share 2000/10 s). Endpoints whose limit is "not
 * shown" get the venue's general private allowance of 1000/10 s (a conservative choice).
 */
export const RATE_LIMITS: Readonly<Record<RateBucket, RateLimit>> = {
  public: { limit: 2000, windowMs: 10_000 },
  mainAccount: { limit: 1000, windowMs: 10_000 },
  ping: { limit: 2000, windowMs: 10_000, shared: ['public'] },
  markets: { limit: 2000, windowMs: 10_000, shared: ['public'] },
  assets: { limit: 2000, windowMs: 10_000, shared: ['public'] },
  orderbook: { limit: 600, windowMs: 10_000, shared: ['public'] },
  orderNew: { limit: 10_000, windowMs: 10_000 },
  orderStopLimit: { limit: 10_000, windowMs: 10_000 },
  orderCancel: { limit: 10_000, windowMs: 10_000 },
  orders: { limit: 1000, windowMs: 10_000 },
  killSwitch: { limit: 1000, windowMs: 10_000 },
  tradeBalance: { limit: 1000, windowMs: 10_000 },
  executedHistory: { limit: 1000, windowMs: 10_000 },
  mainBalance: { limit: 1000, windowMs: 10_000, shared: ['mainAccount'] },
  transfer: { limit: 1000, windowMs: 10_000, shared: ['mainAccount'] },
  codes: { limit: 1000, windowMs: 10_000, shared: ['mainAccount'] },
  investments: { limit: 1000, windowMs: 10_000, shared: ['mainAccount'] },
};

// ---------------------------------------------------------------- common request fields

/** Every private body carries these (exchange-facts §1). */
export interface AuthFields {
  request: string;
  /** Unix milliseconds as a string, strictly increasing per key (or within ±5 s with nonceWindow). */
  nonce: string;
  nonceWindow?: boolean;
}

/** Decimal on the wire: a numeric string; a plain number is also accepted for amount and price. */
export type WireDecimal = string;

// ---------------------------------------------------------------- orders

export type WireStp = 'no' | 'cancel_both' | 'cancel_new' | 'cancel_old' | 'cb' | 'cn' | 'co';

export interface NewOrderBody extends AuthFields {
  market: string;
  side: 'buy' | 'sell';
  amount: WireDecimal | number;
  price: WireDecimal | number;
  /** Contract spelling. */
  client_order_id?: string;
  /** Live-exchange spelling. */
  clientOrderId?: string;
  postOnly?: boolean;
  ioc?: boolean;
  stp?: WireStp;
  rpi?: boolean;
}

export interface StopLimitBody extends AuthFields {
  market: string;
  side: 'buy' | 'sell';
  amount: WireDecimal | number;
  price: WireDecimal | number;
  /** snake_case in both dialects. */
  activation_price: WireDecimal | number;
  client_order_id?: string;
  clientOrderId?: string;
  stp?: WireStp;
}

/** Order record, contract dialect (api-v4.md). */
export interface ContractOrderRecord {
  order_id: number;
  client_order_id: string;
  market: string;
  side: 'buy' | 'sell';
  type: string;
  timestamp: number;
  deal_money: WireDecimal;
  deal_stock: WireDecimal;
  amount: WireDecimal;
  left: WireDecimal;
  deal_fee: WireDecimal;
  price: WireDecimal;
  activation_price?: WireDecimal;
  postOnly: boolean;
  ioc: boolean;
  status: string;
  stp: string;
  positionSide?: string;
  rpi: boolean;
}

/** Order record, live-exchange dialect (camelCase ids and deal fields; activation_price stays snake_case). */
export interface ExchangeOrderRecord {
  orderId: number;
  clientOrderId: string;
  market: string;
  side: 'buy' | 'sell';
  type: string;
  timestamp: number;
  dealMoney: WireDecimal;
  dealStock: WireDecimal;
  amount: WireDecimal;
  left: WireDecimal;
  dealFee: WireDecimal;
  price: WireDecimal;
  activation_price?: WireDecimal;
  postOnly: boolean;
  ioc: boolean;
  status: string;
  stp: string;
  positionSide?: string;
  rpi: boolean;
}

export type WireOrderRecord = ContractOrderRecord | ExchangeOrderRecord;

/** Exactly one of orderId / clientOrderId (both dialects use camelCase here). */
export interface CancelOrderBody extends AuthFields {
  market: string;
  orderId?: number;
  clientOrderId?: string;
}

export interface OrdersBody extends AuthFields {
  market?: string;
  orderId?: number;
  clientOrderId?: string;
  /** <= 100, default 50. */
  limit?: number;
  offset?: number;
}

export interface KillSwitchBody extends AuthFields {
  market: string;
  /** Seconds 5-600 as a string, or null to clear. */
  timeout: string | null;
}

export interface KillSwitchResult {
  market: string;
  startTime: number;
  cancellationTime: number;
}

export interface ExecutedHistoryBody extends AuthFields {
  market?: string;
  clientOrderId?: string;
  /** <= 100. */
  limit?: number;
  offset?: number;
}

/** One deal of the account. `role` 1 = maker, 2 = taker. */
export interface WireDeal {
  id: number;
  time: number;
  side: 'buy' | 'sell';
  role: 1 | 2;
  amount: WireDecimal;
  price: WireDecimal;
  deal: WireDecimal;
  fee: WireDecimal;
  orderId: number;
  clientOrderId: string;
  /** Present on the unfiltered form's entries is not guaranteed; the filtered form is an array. */
  market?: string;
}

/** With `market`: an array; without: an object keyed by market. */
export type ExecutedHistoryResponse = WireDeal[] | Record<string, WireDeal[]>;

// ---------------------------------------------------------------- balances and transfers

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

// ---------------------------------------------------------------- codes and investments

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

// ---------------------------------------------------------------- public

export type PingResponse = ['pong'];

export interface WireMarket {
  name: string;
  stock: string;
  money: string;
  /** Decimal places, as a string. */
  stockPrec: string;
  moneyPrec: string;
  feePrec: string;
  /** Percent strings: "0.1" = 0.1 %. */
  makerFee: WireDecimal;
  takerFee: WireDecimal;
  minAmount: WireDecimal;
  minTotal: WireDecimal;
  /** "0" = no cap. */
  maxTotal: WireDecimal;
  tradesEnabled: boolean;
  isCollateral: boolean;
  type: string;
}

export interface WireAsset {
  name: string;
  can_deposit: boolean;
  can_withdraw: boolean;
  min_withdraw: WireDecimal;
  max_withdraw: WireDecimal;
  maker_fee: WireDecimal;
  taker_fee: WireDecimal;
}
export type AssetsResponse = Record<string, WireAsset>;

export type WireLevel = [price: WireDecimal, quantity: WireDecimal];

export interface OrderBookResponse {
  ticker_id: string;
  /** Whole Unix seconds. */
  timestamp: number;
  asks: WireLevel[];
  bids: WireLevel[];
}

// ---------------------------------------------------------------- errors

/** Private endpoint error body. `errors` maps a parameter to messages; may be `{}`. */
export interface PrivateErrorBody {
  code: number;
  message: string;
  errors?: Record<string, string[]>;
}

/** Public endpoint error body, contract form. The live venue answers 422 with a flat `{field: [msg]}`. */
export interface PublicErrorBody {
  success: false;
  message: string;
  params: unknown[];
}

/** Order-endpoint validation codes (api-v4.md "Errors"). */
export const ORDER_ERROR_CODES = {
  default: 30,
  market: 31,
  amount: 32,
  price: 33,
  fee: 35,
  clientOrderId: 36,
  flagConflict: 37,
} as const;

/** Plain-text body of a 429. */
export const TOO_MANY_REQUESTS_TEXT = 'Too Many Requests';
