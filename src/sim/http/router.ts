import { PATHS, type EndpointName } from '../../venue/wire.js';
import type { Route } from './route-context.js';
import * as pub from './routes-public.js';
import { orderNew, orderStopLimit } from './routes-order-create.js';
import { killSwitch, killSwitchStatus, orderCancel, orders } from './routes-order-manage.js';
import { executedHistory, tradeBalance } from './routes-trade-account.js';
import { codes, investments, mainBalance, transfer } from './routes-main-account.js';
import { orderBulk, orderCancelAll, orderHistory } from './routes-order-batch.js';

/**
 * Path → route. Public endpoints answer GET, private ones POST; anything else is an unknown route
 * (404, empty body, exchange-facts §4). The order book and the recent trades carry their market in the path.
 */
const PUBLIC: ReadonlyArray<[EndpointName, Route & { kind: 'public' }]> = [
  ['ping', { kind: 'public', endpoint: 'ping', handle: pub.ping }],
  ['markets', { kind: 'public', endpoint: 'markets', handle: pub.markets }],
  ['assets', { kind: 'public', endpoint: 'assets', handle: pub.assets }],
];

const PRIVATE: ReadonlyArray<Route & { kind: 'private' }> = [
  { kind: 'private', endpoint: 'orderNew', handle: orderNew },
  { kind: 'private', endpoint: 'orderStopLimit', handle: orderStopLimit },
  { kind: 'private', endpoint: 'orderCancel', handle: orderCancel },
  { kind: 'private', endpoint: 'orders', handle: orders },
  { kind: 'private', endpoint: 'killSwitch', handle: killSwitch },
  { kind: 'private', endpoint: 'killSwitchStatus', handle: killSwitchStatus },
  { kind: 'private', endpoint: 'tradeBalance', handle: tradeBalance },
  { kind: 'private', endpoint: 'executedHistory', handle: executedHistory },
  { kind: 'private', endpoint: 'mainBalance', handle: mainBalance },
  { kind: 'private', endpoint: 'transfer', handle: transfer },
  { kind: 'private', endpoint: 'codes', handle: codes },
  { kind: 'private', endpoint: 'investments', handle: investments },
  { kind: 'private', endpoint: 'orderBulk', handle: orderBulk },
  { kind: 'private', endpoint: 'orderCancelAll', handle: orderCancelAll },
  { kind: 'private', endpoint: 'orderHistory', handle: orderHistory },
];

const BY_PATH = new Map<string, Route>([
  ...PUBLIC.map(([name, route]) => [PATHS[name], route] as const),
  ...PRIVATE.map((route) => [PATHS[route.endpoint], route] as const),
]);

const BOOK: Route = { kind: 'public', endpoint: 'orderbook', handle: pub.orderbook };
const TRADES: Route = { kind: 'public', endpoint: 'publicTrades', handle: pub.publicTrades };

export interface Match {
  readonly route: Route;
  readonly market?: string;
}

export function matchRoute(method: string, pathname: string): Match | undefined {
  const route = BY_PATH.get(pathname);
  if (route !== undefined) return method === (route.kind === 'public' ? 'GET' : 'POST') ? { route } : undefined;
  if (method !== 'GET') return undefined;
  for (const [base, marketRoute] of [
    [PATHS.orderbook, BOOK],
    [PATHS.publicTrades, TRADES],
  ] as const) {
    const prefix = `${base}/`;
    if (!pathname.startsWith(prefix)) continue;
    const segment = pathname.slice(prefix.length);
    if (segment === '' || segment.includes('/')) return undefined;
    try {
      return { route: marketRoute, market: decodeURIComponent(segment) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}
