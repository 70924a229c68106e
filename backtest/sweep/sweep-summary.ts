/** What `bot sweep` prints: one JSON line per trial (`--json`) and the closing summary. */
import type { SweepProgress } from './run-sweep.js';
import type { SweepReport } from './sweep-report.js';
import type { TrialRecord } from './trials-log.js';

export function trialLine(rec: TrialRecord, p: SweepProgress): string {
  return JSON.stringify({
    type: 'trial',
    fold: rec.fold,
    phase: rec.phase,
    index: rec.index,
    key: rec.key,
    params: rec.params,
    status: rec.status,
    objective: rec.objective ?? null,
    ...(rec.broken ? { broken: rec.broken } : {}),
    ...(rec.error !== undefined ? { error: rec.error } : {}),
    figuresHash: rec.figures?.figuresHash ?? null,
    done: p.done,
    total: p.total,
    best: p.best ?? null,
  });
}

export function formatSweepSummary(r: SweepReport, files: { jsonPath: string; htmlPath: string }): string {
  const lines = [
    `sweep ${r.sweep}: ${r.counts.trials} trials (${r.counts.ok} ok, ${r.counts.rejected} rejected by constraints, ${r.counts.failed} failed) in ${r.elapsedSec} s on ${r.executor}${r.interrupted ? ' — interrupted' : ''}`,
  ];
  const best = r.best[0];
  if (best) {
    lines.push(
      `  best ${r.objective.direction} ${r.objective.figure} = ${best.objective}: ${Object.entries(best.params)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(', ')}`,
    );
  } else lines.push('  no trial met the constraints');
  for (const f of r.folds) {
    if (f.outOfSample === null) continue;
    lines.push(`  fold ${f.index}: in-sample ${f.best?.objective ?? '–'}, out-of-sample ${f.outOfSampleResult?.objective ?? '–'}`);
  }
  lines.push(`  ${r.fillModelLine}`);
  lines.push(`  report: ${files.htmlPath}`, `          ${files.jsonPath}`);
  return lines.join('\n');
}
