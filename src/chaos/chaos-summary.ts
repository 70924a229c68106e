import type { AccountAudit } from './journal-audit.js';

/** The one line a chaos run ends with, and what decides its exit code. */
export interface ChaosSummary {
  readonly orders: number;
  readonly duplicates: number;
  readonly lost: number;
  readonly unknownLeft: number;
  readonly fillsMissing: number;
  readonly balanceDiff: number;
  /** 429 answers the venue gave (injected bursts included). */
  readonly tooManyRequests: number;
  /** Orders the venue refused for its rules (codes 30-37): the gate should have caught them. */
  readonly ruleRejects: number;
  readonly restarts: number;
  /** Secrets found in what the run wrote. */
  readonly secretHits: number;
  /** The columns of a venue that lies (trust-audit.ts), summed over the accounts. */
  readonly overfills: number;
  readonly phantomCancels: number;
  readonly bandBreaches: number;
  readonly staleFills: number;
}

export function summarize(
  audits: readonly AccountAudit[],
  venue: { tooManyRequests: number; ruleRejects: number; restarts: number; secretHits: number },
): ChaosSummary {
  const sum = (f: (a: AccountAudit) => number): number => audits.reduce((n, a) => n + f(a), 0);
  return {
    orders: sum((a) => a.orders),
    duplicates: sum((a) => a.duplicates.length),
    lost: sum((a) => a.lost.length),
    unknownLeft: sum((a) => a.unknownLeft.length),
    fillsMissing: sum((a) => a.fillsMissing.length),
    balanceDiff: sum((a) => a.balanceDiff.length),
    overfills: sum((a) => a.overfills.length),
    phantomCancels: sum((a) => a.phantomCancels.length),
    bandBreaches: sum((a) => a.bandBreaches.length),
    staleFills: sum((a) => a.staleFills.length),
    ...venue,
  };
}

/**
 * `orders N, duplicates D, lost L, unknown-left U, fills-missing F, balance-diff B, 429 R, rule-rejects J, restarts K,
 * secrets S, overfills O, phantom-cancels C, band-breaches B, stale-fills S`: issue 23's columns come last, so the line
 * of earlier runs is still its prefix.
 */
export function formatSummaryLine(s: ChaosSummary): string {
  return (
    `orders ${s.orders}, duplicates ${s.duplicates}, lost ${s.lost}, unknown-left ${s.unknownLeft}, fills-missing ${s.fillsMissing}, ` +
    `balance-diff ${s.balanceDiff}, 429 ${s.tooManyRequests}, rule-rejects ${s.ruleRejects}, restarts ${s.restarts}, secrets ${s.secretHits}, ` +
    `overfills ${s.overfills}, phantom-cancels ${s.phantomCancels}, band-breaches ${s.bandBreaches}, stale-fills ${s.staleFills}`
  );
}

/** 0 only when every loss column (issue 23's included), the rule rejects and the secret hits are zero. */
export function chaosPassed(s: ChaosSummary): boolean {
  return (
    s.duplicates === 0 &&
    s.lost === 0 &&
    s.unknownLeft === 0 &&
    s.fillsMissing === 0 &&
    s.balanceDiff === 0 &&
    s.ruleRejects === 0 &&
    s.secretHits === 0 &&
    s.overfills === 0 &&
    s.phantomCancels === 0 &&
    s.bandBreaches === 0 &&
    s.staleFills === 0
  );
}
