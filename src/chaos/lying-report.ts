import { existsSync, readFileSync } from 'node:fs';
import { parseJournalText } from '../engine/journal.js';
import type { LieEpisode } from '../sim/http/venue-lies.js';
import type { ChaosAccount } from './chaos-setup.js';
import type { StaleEpisode } from './trust-audit.js';

/**
 * The lying mode's own account of the run: which lies the venue told (per kind and variant, its book episodes),
 * whether the daemons survived them, and per daemon what it sent, how often a strategy halted and what it
 * journalled. Whether the daemons believed the lies is the audit's to say (trust-audit.ts); this is what they met.
 */
export interface LiesTold {
  readonly told: ReadonlyMap<string, number>;
  readonly episodes: readonly LieEpisode[];
}

/** The episodes in which a book was unusable (frozen or out): what the stale-fills column is measured against. */
export function staleEpisodesOf(lies: LiesTold): StaleEpisode[] {
  return lies.episodes
    .filter((e) => e.kind === 'frozenBook' || e.kind === 'bookOutage')
    .map((e) => ({ kind: e.kind, ...(e.market !== undefined ? { market: e.market } : {}), startMs: e.startMs, endMs: e.endMs }));
}

export function lyingReport(lies: LiesTold, accounts: readonly ChaosAccount[], alive: boolean) {
  const problems: string[] = [];
  if (!alive) problems.push('a daemon did not survive the lying venue');
  const told = Object.fromEntries([...lies.told].sort());
  const perAccount = accounts.map((a) => {
    const records = existsSync(a.journalPath) ? parseJournalText(readFileSync(a.journalPath, 'utf8')).records : [];
    const halts = records.filter((r) => r.type === 'halt');
    return {
      account: a.name,
      ordersSent: records.filter((r) => r.type === 'submit').length,
      cancelsSent: records.filter((r) => r.type === 'cancel').length,
      fillsJournalled: records.filter((r) => r.type === 'fill').length,
      halts: halts.map((h) => (h.type === 'halt' ? `${h.strategyId}: ${h.reason}` : '')),
    };
  });
  const byKind = new Map<string, number>();
  for (const [label, n] of lies.told) {
    const kind = label.split(':')[0]!;
    byKind.set(kind, (byKind.get(kind) ?? 0) + n);
  }
  const episodes = lies.episodes.map((e) => ({
    kind: e.kind,
    ...(e.variant ? { variant: e.variant } : {}),
    market: e.market ?? '*',
    startMs: e.startMs,
    ms: e.endMs - e.startMs,
  }));
  const lines = [
    `lies told: ${[...byKind].map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; daemons ${alive ? 'still running' : 'NOT running'}`,
    ...perAccount.map(
      (a) => `${a.account}: orders sent ${a.ordersSent}, cancels sent ${a.cancelsSent}, fills journalled ${a.fillsJournalled}, halts ${a.halts.length}`,
    ),
  ];
  return { problems, lines, report: { told, episodes, daemonsAlive: alive, accounts: perAccount } };
}
