import type { AccountStatus } from '../../engine/account-risk.js';
import type { Decimal } from '../../model/decimal.js';
import { readinessOf } from '../health/health-routes.js';
import type { OpsContext } from '../ops-context.js';

const str = (d: Decimal | undefined): string | null => (d === undefined ? null : d.toFixed());

/** Sums a counter's samples per strategy label (what /metrics says, so the page and a scrape agree). */
async function perStrategy(counter: {
  get(): Promise<{ values: { labels: Record<string, string | number>; value: number }[] }>;
}): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const v of (await counter.get()).values) {
    const id = String(v.labels.strategy);
    out.set(id, (out.get(id) ?? 0) + v.value);
  }
  return out;
}

/** The account limits' line: figures as decimal strings (8 places), the limits, and the halt with its reason. */
function accountState(a: AccountStatus): Record<string, unknown> {
  const x = (d: Decimal | undefined): string | null => (d === undefined ? null : d.toDecimalPlaces(8).toFixed());
  return {
    money: a.money,
    equity: x(a.equity),
    peak: x(a.peak),
    drawdown: x(a.drawdown),
    day: a.day ?? null,
    dailyLoss: x(a.dailyLoss),
    grossNotional: x(a.grossNotional),
    limits: { maxDrawdown: str(a.limits.maxDrawdown), maxDailyLoss: str(a.limits.maxDailyLoss), maxGrossNotional: str(a.limits.maxGrossNotional) },
    halt: a.halt ? { limit: a.halt.limit, reason: a.halt.reason, restored: a.halt.restored } : null,
  };
}

/**
 * `/api/state`: the status snapshot with money as decimal strings, the order counters as /metrics has them, the
 * charts' history, rate-limit headroom, readiness and the last events.
 */
export async function apiState(c: OpsContext): Promise<Record<string, unknown>> {
  const s = c.runtime.status();
  const submitted = await perStrategy(c.metrics.submitted);
  const fills = await perStrategy(c.metrics.fills);
  return {
    now: Date.now(),
    venue: c.venueLabel,
    controls: c.controlsOn,
    ready: readinessOf(c, s),
    queueDepth: s.queueDepth,
    unknownOrders: s.unknownOrders,
    account: s.account ? accountState(s.account) : null,
    markets: s.markets.map((m) => ({
      market: m.market,
      mid: m.mid?.toDecimalPlaces(8).toFixed() ?? null,
      spread: str(m.spread),
      bestBid: str(m.bestBid),
      bestAsk: str(m.bestAsk),
      quotes: m.quotes.map((q) => ({
        strategyId: q.strategyId,
        clientOrderId: q.clientOrderId,
        side: q.side,
        price: q.price.toFixed(),
        left: q.left.toFixed(),
        state: q.state,
      })),
    })),
    strategies: s.markets.flatMap((m) =>
      m.strategies.map((f) => ({
        id: f.id,
        market: f.market,
        submitted: submitted.get(f.id) ?? 0,
        fills: fills.get(f.id) ?? 0,
        liveOrders: f.liveOrders,
        inventory: f.inventory.toFixed(),
        realisedNet: f.realised.minus(f.fees).toDecimalPlaces(8).toFixed(),
        unrealised: f.unrealised.toDecimalPlaces(8).toFixed(),
        net: f.net.toDecimalPlaces(8).toFixed(),
        volume: f.volume.toFixed(),
        halted: f.halted,
        paused: f.paused,
      })),
    ),
    rateLimits: c.limiterStats().map((b) => ({
      bucket: b.bucket,
      inWindow: b.inWindow,
      limit: b.limit,
      queued: b.queued,
      headroom: b.limit > 0 ? Math.max(0, 1 - b.inWindow / b.limit) : 1,
    })),
    events: c.events.recent(30),
    history: c.history.toJSON(),
  };
}
