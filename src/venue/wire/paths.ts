/** Paths, base addresses, auth headers and the two field-name dialects of the v4 wire. */

export const PATHS = {
  ping: '/api/v4/public/ping',
  markets: '/api/v4/public/markets',
  assets: '/api/v4/public/assets',
  /** Append `/{market}`; query `limit` (0-100) and `level` (0-5). */
  orderbook: '/api/v4/public/orderbook',
  /** Append `/{market}`; optional query `type` (`buy` | `sell`, the taker's side). Shape in wire/public.ts. */
  publicTrades: '/api/v4/public/trades',
  orderNew: '/api/v4/order/new',
  orderStopLimit: '/api/v4/order/stop_limit',
  orderCancel: '/api/v4/order/cancel',
  orders: '/api/v4/orders',
  killSwitch: '/api/v4/order/kill-switch',
  killSwitchStatus: '/api/v4/order/kill-switch/status',
  tradeBalance: '/api/v4/trade-account/balance',
  executedHistory: '/api/v4/trade-account/executed-history',
  mainBalance: '/api/v4/main-account/balance',
  transfer: '/api/v4/main-account/transfer',
  codes: '/api/v4/main-account/codes',
  investments: '/api/v4/main-account/smart/investments',
  // bulk orders, cancel-all and the executed-orders history: shapes in wire/order-batch.ts
  orderBulk: '/api/v4/order/bulk',
  orderCancelAll: '/api/v4/order/cancel/all',
  orderHistory: '/api/v4/trade-account/order/history',
} as const;

export type EndpointName = keyof typeof PATHS;
export type PrivatePath = Exclude<(typeof PATHS)[EndpointName], (typeof PATHS)['ping' | 'markets' | 'assets' | 'orderbook' | 'publicTrades']>;

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
