import { z } from 'zod';
import { describeType } from './format-issues.js';

/** A size in bytes: a whole number, or `10k`, `50M`, `1G` (powers of 1024), as `bot record --rotate-size` takes it. */
const zSize = z.unknown().transform((value, ctx): number => {
  const m =
    typeof value === 'number' ? [String(value), String(value), ''] : typeof value === 'string' ? /^(\d+(?:\.\d+)?)([kKmMgG])?[bB]?$/.exec(value.trim()) : null;
  const unit = m === null ? 0 : ({ k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? '').toLowerCase()] ?? 1);
  const bytes = m === null ? Number.NaN : Math.round(Number(m[1]) * unit);
  if (Number.isInteger(bytes) && bytes > 0) return bytes;
  ctx.addIssue({
    code: 'custom',
    message: `expected a size such as 50M or 1048576 (bytes), got ${typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? String(value) : describeType(value)}`,
    input: value,
  });
  return z.NEVER;
});

/**
 * `record:` of the daemon config (any venue kind): the public data the daemon polls (every order book poll and the
 * markets' recent trades) written in the recorder's format (src/recording), which `bot backtest`, `bot sim --replay`,
 * `bot parity` and `bot data info` read. Off when absent. `path` names the file when it ends in `.gz`
 * (`var/session.jsonl.gz`; a daemon on several markets writes `var/session.BTC_USDT.jsonl.gz`, ...), else a folder
 * with one file per market (`<path>/BTC_USDT.jsonl.gz`); rotated, each becomes a numbered series (`.0001.jsonl.gz`).
 *
 * ```yaml
 * record: { path: var/recordings, rotate: { maxBytes: 50M, daily: true } }
 * ```
 */
export const RecordConfigSchema = z.strictObject({
  /** The recording's file (`*.gz`) or folder, relative to the current directory like journal.path. */
  path: z.string().min(1),
  rotate: z
    .strictObject({
      /** Start the next numbered file after this much (uncompressed) data. */
      maxBytes: zSize.optional(),
      /** Start the next numbered file at each UTC midnight. */
      daily: z.boolean().optional(),
    })
    .optional(),
});

export type RecordConfig = z.output<typeof RecordConfigSchema>;

/** `record.path` names the recording file itself (else a folder of them). */
export const isRecordFile = (path: string): boolean => /\.gz$/i.test(path);

/**
 * Where `market`'s recording goes (before rotation numbers it): the file `path` itself for a daemon on one market,
 * the market's name before its suffix for several, `<path>/<market>.jsonl.gz` in a folder.
 */
export function recordFileOf(path: string, market: string, markets: number): string {
  if (!isRecordFile(path)) return `${path.replace(/[\\/]+$/, '')}/${market}.jsonl.gz`;
  return markets === 1 ? path : path.replace(/(\.jsonl)?\.gz$/i, (suffix) => `.${market}${suffix}`);
}
