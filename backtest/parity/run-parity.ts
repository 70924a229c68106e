/**
 * `bot parity` without the CLI: a recorded session (the daemon's journal and the books it recorded) replayed through
 * the backtester with the session's config, both lanes, and set beside what the venue did; with `fit`, the fill
 * model's parameters fitted to the live fills first and the comparison made with them. Writes parity.json,
 * parity.html and, with `fit`, fill-model.yaml into the output folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { D } from '../../src/model/decimal.js';
import { ConfigError } from '../../src/model/errors.js';
import { parseJournalText } from '../../src/engine/journal.js';
import { checkReadableFile, checkWritableFolder } from '../../src/settings/file-paths.js';
import type { RecordingCacheOptions } from '../data/cache-settings.js';
import { DEFAULT_FILL_MODEL, fillModelLine, type FillModelParams } from '../../src/fill-model/fill-model-params.js';
import { readBookMids } from './book-mids.js';
import { compareLane, orderRows } from './compare-lane.js';
import { fillModelYaml, fitFillModel, type FitResult } from './fit.js';
import { fillQuality, MARKOUT_HORIZONS, summariseQuality } from './markout.js';
import { planReplay, replaySession } from './replay-session.js';
import { feesJson, midSeries, sessionSpan, summaryLine, type ParityReport } from './report-json.js';
import { renderParityHtml } from './report-html.js';
import { findSessionConfig } from './session-config.js';
import { pnlBand, sessionPnl } from './session-pnl.js';
import { sessionFromJournal } from './session.js';

export interface ParityOptions {
  readonly journal: string;
  readonly data: readonly string[];
  /** The session's daemon config; default: the one beside the journal (session-config.ts). */
  readonly config?: string | undefined;
  /** Output folder. Default var/parity. */
  readonly out?: string | undefined;
  /** Fit the fill model to the live fills first (fit.ts). */
  readonly fit?: boolean | undefined;
  /** The fill model to compare with (ignored with `fit`). Default: the model's defaults. */
  readonly fillModel?: FillModelParams | undefined;
  readonly cache?: RecordingCacheOptions | undefined;
  /** Where relative strategy paths resolve. Default: the current directory. */
  readonly cwd?: string | undefined;
  readonly env?: NodeJS.ProcessEnv | undefined;
  readonly onFitProgress?: ((done: number, total: number) => void) | undefined;
}

export interface ParityRun {
  readonly report: ParityReport;
  readonly jsonPath: string;
  readonly htmlPath: string;
  /** The fitted `fillModel:` block (with `fit`). */
  readonly fitPath: string | undefined;
}

/** What the comparison needs, without writing anything (tests call this). */
export async function buildParity(o: ParityOptions): Promise<ParityReport> {
  const journalFile = checkReadableFile(o.journal, { key: '--journal' });
  if (o.data.length === 0) throw new ConfigError('--data: no recording given (the books the session polled, e.g. its record: file)');
  const files = o.data.map((f) => checkReadableFile(f, { key: '--data' }));
  const { records, skipped } = parseJournalText(readFileSync(journalFile, 'utf8'));
  if (!records.some((r) => r.type === 'start')) {
    throw new ConfigError(
      `--journal: ${journalFile} has no start record${skipped > 0 ? ` (${skipped} lines are not journal records)` : ''}: not a daemon journal`,
    );
  }
  const all = sessionFromJournal(records);
  const { file: configFile, config } = findSessionConfig(journalFile, all.strategies, o.config, o.env);
  const lastHorizon = MARKOUT_HORIZONS[MARKOUT_HORIZONS.length - 1]!.ms;
  // the markouts of the last fills look past the session's end, as far as the recording goes
  const recorded = await readBookMids(files, all.startT, all.endT + lastHorizon + 1000);
  const plan = await planReplay({ session: all, journalFile, config, configFile, files, market: recorded.market, cache: o.cache, cwd: o.cwd });
  const live = sessionFromJournal(records, { strategies: plan.strategies.map((s) => s.id) });
  const windowMs = recorded.mids.intervalMs;

  let fit: FitResult | null = null;
  let fillModel = o.fillModel ?? DEFAULT_FILL_MODEL;
  if (o.fit === true) {
    fit = await fitFillModel({ plan, live, windowMs, hasTrades: recorded.head.trades === true, ...(o.onFitProgress ? { onCandidate: o.onFitProgress } : {}) });
    fillModel = fit.best;
  }
  const replayed = await replaySession(plan, ['pessimistic', 'optimistic'], fillModel);
  const mark = recorded.mids.at(live.endT);
  const compared = replayed.map((r) => ({ replayed: r, comparison: compareLane(live, r, windowMs, mark) }));
  const lanes = compared.map((c) => c.comparison.lane);
  const livePnl = sessionPnl(live.fills, mark);
  const band = pnlBand(
    D(livePnl.net),
    lanes.map((l) => D(l.pnl.net)),
  );
  const quality = fillQuality(live.fills, live.orders, recorded.mids);
  const byLane = new Map(compared.map((c) => [c.replayed.assumption, c.comparison]));
  const pes = byLane.get('pessimistic');
  const summaryParts = {
    liveFills: live.fills.length,
    matched: Object.fromEntries(lanes.map((l) => [l.assumption, l.fills.matched])),
    missed: missedByAll(
      compared.map((c) => c.comparison.fillMatch.missed),
      live.fills.length,
    ),
    extra: pes?.fillMatch.extra.length ?? 0,
    livePnl: livePnl.net,
    band: band.band,
    inside: band.inside,
  };
  const fees = { maker: recorded.market.makerFee, taker: recorded.market.takerFee };
  return {
    generatedBy: 'bot parity',
    journal: journalFile,
    config: resolve(configFile),
    dataFiles: files,
    market: recorded.market.name,
    ...sessionSpan(live),
    runs: all.runs,
    strategies: plan.strategies.map((s) => s.id),
    windowMs,
    latency: plan.latency,
    fillModel: { ...fillModel },
    fees: feesJson(fees),
    fillModelLine: fillModelLine(fillModel, fees) + (fit === null ? '' : '; fitted with --fit'),
    notReplayed: plan.notReplayed,
    mark: mark?.toFixed() ?? null,
    live: { orders: live.orders.length, fills: live.fills.length, amount: live.fills.reduce((a, f) => a.add(f.amount), D('0')).toFixed(), pnl: livePnl },
    lanes,
    band,
    quality: { summary: summariseQuality(quality), fills: quality },
    orders: orderRows(live, compared),
    fit,
    series: midSeries(recorded.mids.times, recorded.mids.mids),
    laneFills: Object.fromEntries(
      replayed.map((r) => [r.assumption, r.session.fills.map((f) => ({ t: f.t, side: f.side, price: f.price.toFixed(), amount: f.amount.toFixed() }))]),
    ),
    summary: { ...summaryParts, line: summaryLine(summaryParts) },
  };
}

/** Live fills no lane matched (outside the band): missed by every lane. */
function missedByAll(missed: readonly (readonly number[])[], liveFills: number): number {
  const [first, ...others] = missed;
  if (first === undefined) return liveFills;
  const sets = others.map((m) => new Set(m));
  return first.filter((i) => sets.every((s) => s.has(i))).length;
}

export async function runParity(o: ParityOptions): Promise<ParityRun> {
  // the output folder before the replays: a bad --out is named at once
  const outDir = checkWritableFolder(o.out ?? 'var/parity', o.out !== undefined ? { key: '--out' } : { key: 'output folder (default var/parity)' });
  const report = await buildParity(o);
  const jsonPath = join(outDir, 'parity.json');
  const htmlPath = join(outDir, 'parity.html');
  writeFileSync(jsonPath, JSON.stringify(report, null, 2) + '\n');
  writeFileSync(htmlPath, renderParityHtml(report));
  let fitPath: string | undefined;
  if (report.fit !== null) {
    fitPath = join(outDir, 'fill-model.yaml');
    writeFileSync(fitPath, fillModelYaml(report.fit, report.journal));
  }
  return { report, jsonPath, htmlPath, fitPath };
}
