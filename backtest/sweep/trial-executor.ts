/**
 * Where trials run. The sweep only sees this interface: in-process (one at a time), the local worker-thread
 * pool, or the BullMQ queue with `bot worker`s anywhere. Every executor runs the same runTrial.
 */
import { BotError } from '../../src/model/errors.js';
import { runTrial, type TrialFigures, type TrialJob, type TrialRunOptions } from './run-trial.js';

export interface TrialExecutor {
  readonly name: string;
  /** Trials the sweep keeps in flight. */
  readonly concurrency: number;
  run(job: TrialJob): Promise<TrialFigures>;
  /** Stops: running trials are abandoned (their promises reject), nothing more starts. */
  close(): Promise<void>;
}

/** A trial that ran and failed (bad params, data mismatch, a strategy error): reported, the sweep goes on. */
export class TrialFailedError extends BotError {
  constructor(message: string, code = 'ERR_TRIAL_FAILED') {
    super(message, { code });
  }
}

/** The answer of a trial run behind a thread or process boundary: figures, or the error as plain data. */
export type TrialOutcome = { readonly ok: true; readonly figures: TrialFigures } | { readonly ok: false; readonly code: string; readonly message: string };

export async function runTrialOutcome(job: TrialJob, o: TrialRunOptions = {}): Promise<TrialOutcome> {
  try {
    return { ok: true, figures: await runTrial(job, o) };
  } catch (e) {
    const code = typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : 'ERR_TRIAL_FAILED';
    return { ok: false, code, message: e instanceof Error ? e.message : String(e) };
  }
}

export function unwrapOutcome(o: TrialOutcome): TrialFigures {
  if (o.ok) return o.figures;
  throw new TrialFailedError(o.message, o.code);
}

export function inProcessExecutor(o: TrialRunOptions = {}): TrialExecutor {
  return { name: 'in-process', concurrency: 1, run: async (job) => unwrapOutcome(await runTrialOutcome(job, o)), close: async () => {} };
}
