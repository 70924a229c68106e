/**
 * Walk-forward folds. `folds: K` cuts the data's time span into K consecutive windows of equal length; each
 * window is a fold whose first `inSample` share chooses the parameters (the sampler's trials) and whose rest, data
 * the choice never saw, scores the chosen parameters. K = 1 is a plain sweep over all the data (no out-of-sample).
 */
import { DataFeed } from '../replay/data-feed.js';
import type { RecordingCacheOptions } from '../data/cache-settings.js';

export interface Window {
  readonly from: number;
  readonly to: number;
}

export interface Fold {
  readonly index: number;
  /** Undefined for a single fold: the whole data, no cut. */
  readonly inSample: Window | undefined;
  readonly outOfSample: Window | undefined;
}

/** First and last event times of the recordings (Unix ms). */
export async function dataSpan(files: readonly string[], cache?: RecordingCacheOptions): Promise<Window> {
  const feed = new DataFeed({ files, ...(cache === undefined ? {} : { cache }) });
  let first: number | undefined;
  let last = 0;
  for (let ev = await feed.next(); ev !== undefined; ev = feed.nextBuffered() ?? (await feed.next())) {
    first ??= ev.t;
    last = ev.t;
  }
  return { from: first ?? 0, to: last };
}

/** `whole`: the single fold's window when the sweep is cut to a part of the data (undefined: all of it). */
export function walkForwardFolds(span: Window, k: number, inSample: number, whole?: Window): Fold[] {
  if (k <= 1) return [{ index: 0, inSample: whole, outOfSample: undefined }];
  const folds: Fold[] = [];
  const total = span.to - span.from;
  for (let i = 0; i < k; i++) {
    const from = span.from + Math.floor((i * total) / k);
    const to = i === k - 1 ? span.to : span.from + Math.floor(((i + 1) * total) / k) - 1;
    const cut = from + Math.floor((to - from) * inSample);
    folds.push({ index: i, inSample: { from, to: cut }, outOfSample: { from: cut + 1, to } });
  }
  return folds;
}
