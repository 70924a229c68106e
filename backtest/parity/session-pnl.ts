/**
 * The PnL of a session's fills, live or replayed, by the engine's own PnL ledger (src/engine/pnl.ts: average cost,
 * fees in money), all marked at the same mid (the session's last), so the live figure and the lanes' are the same
 * measure. The band is the interval between the lanes' net PnL; the live result lies inside it or not.
 */
import type { Decimal } from '../../src/model/decimal.js';
import { PnlLedger } from '../../src/engine/pnl.js';
import type { SessionFill } from './session.js';

export interface SessionPnl {
  readonly fills: number;
  readonly volume: string;
  /** Realised trading PnL before fees (average cost). */
  readonly realised: string;
  readonly fees: string;
  /** The open position at the mark. */
  readonly unrealised: string;
  /** realised − fees + unrealised: what the session made. */
  readonly net: string;
  readonly position: string;
}

export function sessionPnl(fills: readonly SessionFill[], mark: Decimal | undefined): SessionPnl {
  const ledger = new PnlLedger();
  for (const f of fills) ledger.apply(f);
  const s = ledger.snapshot();
  return {
    fills: s.fills,
    volume: s.volume.toFixed(),
    realised: s.realised.toFixed(),
    fees: s.fees.toFixed(),
    unrealised: ledger.unrealised(mark).toFixed(),
    net: ledger.net(mark).toFixed(),
    position: s.position.toFixed(),
  };
}

export interface PnlBand {
  /** [lower, upper] of the lanes' net PnL, or null with fewer than two lanes. */
  readonly band: readonly [string, string] | null;
  readonly inside: boolean | null;
  /** Where live lies: (live − lower) / (upper − lower); 0 = at the lower edge, 1 = the upper; null on a band of no width. */
  readonly position: number | null;
}

export function pnlBand(live: Decimal, lanes: readonly Decimal[]): PnlBand {
  if (lanes.length < 2) return { band: null, inside: null, position: null };
  const lower = lanes.reduce((a, b) => (b.lt(a) ? b : a));
  const upper = lanes.reduce((a, b) => (b.gt(a) ? b : a));
  const width = upper.sub(lower);
  return {
    band: [lower.toFixed(), upper.toFixed()],
    inside: live.gte(lower) && live.lte(upper),
    position: width.isZero() ? null : live.sub(lower).div(width).toNumber(),
  };
}
