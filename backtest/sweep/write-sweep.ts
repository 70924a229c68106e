/** Writes `sweep.json` and `sweep.html` of a sweep's outcome into its output directory. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SweepOutcome } from './run-sweep.js';
import { renderSweepHtml } from './sweep-html.js';
import { buildSweepReport, type SweepReport } from './sweep-report.js';

export function writeSweepFiles(outcome: SweepOutcome, outDir: string): { report: SweepReport; jsonPath: string; htmlPath: string } {
  mkdirSync(outDir, { recursive: true });
  const report = buildSweepReport(outcome);
  const jsonPath = join(outDir, 'sweep.json');
  const htmlPath = join(outDir, 'sweep.html');
  writeFileSync(jsonPath, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(htmlPath, renderSweepHtml(report));
  return { report, jsonPath, htmlPath };
}
