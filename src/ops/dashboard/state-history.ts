import type { StatusSnapshot } from '../../engine/run-summary.js';

/** One market's series: wall time (Unix s) and prices; `null` where there was nothing (no book, no own quote). */
export interface MarketSeries {
  t: number[];
  bid: (number | null)[];
  ask: (number | null)[];
  mid: (number | null)[];
  ownBid: (number | null)[];
  ownAsk: (number | null)[];
}

export interface StrategySeries {
  t: number[];
  net: number[];
  realised: number[];
  inventory: number[];
  fills: number[];
}

/**
 * The dashboard's charts: a sample of the status snapshot a second, the last `keep` kept. Numbers here are for
 * drawing only (float64, like the metrics); the figures shown as text come from the snapshot's Decimals.
 */
export class StateHistory {
  readonly markets = new Map<string, MarketSeries>();
  readonly strategies = new Map<string, StrategySeries>();

  constructor(private readonly keep: number) {}

  sample(s: StatusSnapshot, wallMs: number): void {
    const t = wallMs / 1000;
    for (const m of s.markets) {
      const ms = this.series(this.markets, m.market, () => ({ t: [], bid: [], ask: [], mid: [], ownBid: [], ownAsk: [] }));
      const bids = m.quotes.filter((q) => q.side === 'buy').map((q) => q.price.toNumber());
      const asks = m.quotes.filter((q) => q.side === 'sell').map((q) => q.price.toNumber());
      this.push(ms, {
        t,
        bid: m.bestBid?.toNumber() ?? null,
        ask: m.bestAsk?.toNumber() ?? null,
        mid: m.mid?.toNumber() ?? null,
        ownBid: bids.length > 0 ? Math.max(...bids) : null,
        ownAsk: asks.length > 0 ? Math.min(...asks) : null,
      });
      for (const f of m.strategies) {
        const ss = this.series(this.strategies, f.id, () => ({ t: [], net: [], realised: [], inventory: [], fills: [] }));
        this.push(ss, { t, net: f.net.toNumber(), realised: f.realised.minus(f.fees).toNumber(), inventory: f.inventory.toNumber(), fills: f.fills });
      }
    }
  }

  toJSON(): { markets: Record<string, MarketSeries>; strategies: Record<string, StrategySeries> } {
    return { markets: Object.fromEntries(this.markets), strategies: Object.fromEntries(this.strategies) };
  }

  private series<T>(map: Map<string, T>, key: string, make: () => T): T {
    let s = map.get(key);
    if (s === undefined) map.set(key, (s = make()));
    return s;
  }

  private push<T extends { t: number[] }>(series: T, point: { [K in keyof T]: T[K] extends (infer V)[] ? V : never }): void {
    const cols = series as unknown as Record<string, unknown[]>;
    for (const [k, v] of Object.entries(point)) cols[k]!.push(v);
    const excess = series.t.length - this.keep;
    if (excess > 0) for (const k of Object.keys(cols)) cols[k]!.splice(0, excess);
  }
}
