import { D } from '../../src/model/decimal.js';
import { fillModelLine } from '../../src/fill-model/fill-model-params.js';
import type { BacktestReport } from './build-report.js';

/** The report's fill model and fee rates in one line (the summary and the page print it). */
export function reportFillModelLine(r: Pick<BacktestReport, 'fillModelParams' | 'fees'>): string {
  return fillModelLine(r.fillModelParams, { maker: D(r.fees.maker), taker: D(r.fees.taker) });
}
