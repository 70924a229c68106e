/**
 * Reads a Binance spot capture as written by hftbacktest's collector: gzip text, one message per line,
 * `<local receive time in ns> <raw JSON>`. Yields typed messages with the local time in ms.
 * Four kinds: the REST depth snapshot (bare object with `lastUpdateId`), and the combined-stream
 * `depth@100ms` diffs, `trade`s and `bookTicker`s. Anything else is skipped.
 */
import { CaptureFormatError } from './capture-format-error.js';
import { readTextLines, type ImportProgress } from './text-lines.js';

export type BinanceLevel = [price: string, quantity: string];

export interface BinanceSnapshot {
  /** `file:line` of the capture line, for errors. */
  readonly where?: string;
  readonly kind: 'snapshot';
  readonly t: number;
  readonly lastUpdateId: number;
  readonly bids: readonly BinanceLevel[];
  readonly asks: readonly BinanceLevel[];
}

export interface BinanceDiff {
  /** `file:line` of the capture line, for errors. */
  readonly where?: string;
  readonly kind: 'diff';
  readonly t: number;
  /** First and final update id in the event. */
  readonly U: number;
  readonly u: number;
  readonly b: readonly BinanceLevel[];
  readonly a: readonly BinanceLevel[];
}

export interface BinanceTrade {
  /** `file:line` of the capture line, for errors. */
  readonly where?: string;
  readonly kind: 'trade';
  readonly t: number;
  readonly price: string;
  readonly qty: string;
  /** True when the buyer was the maker, i.e. the seller was the aggressor. */
  readonly buyerMaker: boolean;
}

export interface BinanceBookTicker {
  /** `file:line` of the capture line, for errors. */
  readonly where?: string;
  readonly kind: 'bookTicker';
  readonly t: number;
  readonly u: number;
  readonly bid: string;
  readonly ask: string;
}

export type BinanceMessage = BinanceSnapshot | BinanceDiff | BinanceTrade | BinanceBookTicker;

export { CaptureFormatError };

/** Parses one capture line; undefined for blank lines and message kinds we do not use. */
export function parseCaptureLine(line: string, where: string): BinanceMessage | undefined {
  if (line.length === 0) return undefined;
  const space = line.indexOf(' ');
  if (space <= 0) throw new CaptureFormatError(`${where}: expected "<ns> <json>"`);
  // ns since the epoch exceed 2^53; ms precision is all we need, so drop the last 6 digits as text.
  const ns = line.slice(0, space);
  if (!/^\d{7,}$/.test(ns)) throw new CaptureFormatError(`${where}: receive time "${ns.slice(0, 30)}" is not ns since the epoch`);
  const t = Number(ns.slice(0, -6));
  let msg: Record<string, unknown>;
  try {
    msg = JSON.parse(line.slice(space + 1)) as Record<string, unknown>;
  } catch (error) {
    throw new CaptureFormatError(`${where}: JSON does not parse`, error);
  }
  if (!msg || typeof msg !== 'object') throw new CaptureFormatError(`${where}: not a JSON object`);
  // Each field the book depends on is checked: a missing one would rebuild a wrong book silently.
  if ('lastUpdateId' in msg) {
    return {
      kind: 'snapshot',
      t,
      where,
      lastUpdateId: int(msg['lastUpdateId'], 'lastUpdateId', where),
      bids: levels(msg['bids'], 'bids', where),
      asks: levels(msg['asks'], 'asks', where),
    };
  }
  const stream = msg['stream'];
  const data = msg['data'] as Record<string, unknown> | undefined;
  if (typeof stream !== 'string' || !data || typeof data !== 'object') return undefined;
  if (stream.includes('@depth')) {
    return {
      kind: 'diff',
      t,
      where,
      U: int(data['U'], 'U', where),
      u: int(data['u'], 'u', where),
      b: levels(data['b'], 'b', where),
      a: levels(data['a'], 'a', where),
    };
  }
  if (stream.endsWith('@trade')) {
    return { kind: 'trade', t, where, price: str(data['p'], 'p', where), qty: str(data['q'], 'q', where), buyerMaker: data['m'] === true };
  }
  if (stream.endsWith('@bookTicker')) {
    return { kind: 'bookTicker', t, where, u: data['u'] as number, bid: data['b'] as string, ask: data['a'] as string };
  }
  return undefined;
}

const DECIMAL = /^\d+(\.\d+)?$/;

function int(v: unknown, name: string, where: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new CaptureFormatError(`${where}: ${name} is not an integer`);
  return v;
}

function str(v: unknown, name: string, where: string): string {
  if (typeof v !== 'string' || !DECIMAL.test(v)) throw new CaptureFormatError(`${where}: ${name} is not a decimal string`);
  return v;
}

function levels(v: unknown, name: string, where: string): BinanceLevel[] {
  if (!Array.isArray(v)) throw new CaptureFormatError(`${where}: ${name} is not a list of levels`);
  for (const l of v) {
    if (!Array.isArray(l) || typeof l[0] !== 'string' || typeof l[1] !== 'string' || !DECIMAL.test(l[0]) || !DECIMAL.test(l[1])) {
      throw new CaptureFormatError(`${where}: ${name} holds a level that is not ["price", "quantity"]`);
    }
  }
  return v as BinanceLevel[];
}

/** Every message of the files, read in the order given (a capture split at midnight is read 0808 then 0809). */
export async function* readBinanceCapture(files: readonly string[], onProgress?: ImportProgress): AsyncGenerator<BinanceMessage> {
  for await (const line of readTextLines(files, onProgress)) {
    const m = parseCaptureLine(line.text, `${line.file}:${line.lineNo}`);
    if (m) yield m;
  }
}
