/**
 * `DIR/trials.jsonl`: one line per finished trial, appended (and flushed) as each finishes, so an interrupted
 * sweep keeps everything that finished. The first line names the sweep (a hash of its plan); `--resume` reads the
 * file back, refuses a log of another sweep, and hands the finished trials to the sweep.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from '../../src/model/errors.js';
import type { Params } from './sampler.js';
import type { TrialFigures } from './run-trial.js';

export interface TrialRecord {
  readonly type: 'trial';
  readonly fold: number;
  /** 'search': a sampler trial on the fold's in-sample window; 'oos': the fold's best on its out-of-sample window. */
  readonly phase: 'search' | 'oos';
  readonly index: number;
  readonly key: string;
  readonly params: Params;
  readonly status: 'ok' | 'rejected' | 'failed';
  /** The objective figure (a number for ranking; the exact value is in figures). */
  readonly objective?: number | undefined;
  readonly broken?: readonly string[] | undefined;
  readonly error?: string | undefined;
  readonly figures?: TrialFigures | undefined;
}

interface Header {
  readonly type: 'sweep';
  readonly planHash: string;
  readonly file: string;
}

export class TrialsLog {
  readonly path: string;
  constructor(path: string) {
    this.path = path;
  }

  /** Starts a new log (an existing one is replaced). */
  start(planHash: string, file: string): void {
    mkdirSync(dirname(this.path), { recursive: true });
    writeFileSync(this.path, JSON.stringify({ type: 'sweep', planHash, file } satisfies Header) + '\n');
  }

  /** The finished trials of an existing log of the same sweep; starts a new log when there is none. */
  resume(planHash: string, file: string): TrialRecord[] {
    if (!existsSync(this.path)) {
      this.start(planHash, file);
      return [];
    }
    const text = readFileSync(this.path, 'utf8');
    // A last line cut by a crash mid-write is ended here, so the next append starts a line of its own.
    if (!text.endsWith('\n')) appendFileSync(this.path, '\n');
    const lines = text.split('\n');
    const head = JSON.parse(lines[0] || '{}') as Partial<Header>;
    if (head.type !== 'sweep' || head.planHash !== planHash) {
      throw new ConfigError(`${this.path}: the log of another sweep (its space, sampler, objective or base config differ); use another --out or drop --resume`);
    }
    const out: TrialRecord[] = [];
    for (const line of lines.slice(1)) {
      if (line.trim() === '') continue;
      try {
        const rec = JSON.parse(line) as TrialRecord;
        if (rec.type === 'trial') out.push(rec);
      } catch {
        // A line cut by a crash mid-write: that trial did not finish; it runs again.
      }
    }
    return out;
  }

  append(rec: TrialRecord): void {
    appendFileSync(this.path, JSON.stringify(rec) + '\n');
  }
}
