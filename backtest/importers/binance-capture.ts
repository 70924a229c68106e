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
  readonly kind: 'snapshot';
  readonly t: number;
  readonly lastUpdateId: number;
  readonly bids: readonly BinanceLevel[];
  readonly asks: readonly BinanceLevel[];
}

export interface BinanceDiff {
  readonly kind: 'diff';
  readonly t: number;
  /** First and final update id in the event. */
  readonly U: number;
  readonly u: number;
  readonly b: readonly BinanceLevel[];
  readonly a: readonly BinanceLevel[];
}

export interface BinanceTrade {
  readonly kind: 'trade';
  readonly t: number;
  readonly price: string;
  readonly qty: string;
  /** True when the buyer was the maker, i.e. the seller was the aggressor. */
  readonly buyerMaker: boolean;
}

export interface BinanceBookTicker {
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
  const t = Number(ns.slice(0, -6));
  let msg: Record<string, unknown>;
  try {
    msg = JSON.parse(line.slice(space + 1)) as Record<string, unknown>;
  } catch (error) {
    throw new CaptureFormatError(`${where}: JSON does not parse`, error);
  }
  if ('lastUpdateId' in msg) {
    return {
      kind: 'snapshot',
      t,
      lastUpdateId: msg['lastUpdateId'] as number,
      bids: msg['bids'] as BinanceLevel[],
      asks: msg['asks'] as BinanceLevel[],
    };
  }
  const stream = msg['stream'];
  const data = msg['data'] as Record<string, unknown> | undefined;
  if (typeof stream !== 'string' || !data) return undefined;
  if (stream.includes('@depth')) {
    return { kind: 'diff', t, U: data['U'] as number, u: data['u'] as number, b: data['b'] as BinanceLevel[], a: data['a'] as BinanceLevel[] };
  }
  if (stream.endsWith('@trade')) {
    return { kind: 'trade', t, price: data['p'] as string, qty: data['q'] as string, buyerMaker: data['m'] === true };
  }
  if (stream.endsWith('@bookTicker')) {
    return { kind: 'bookTicker', t, u: data['u'] as number, bid: data['b'] as string, ask: data['a'] as string };
  }
  return undefined;
}

/** Every message of the files, read in the order given (a capture split at midnight is read 0808 then 0809). */
export async function* readBinanceCapture(files: readonly string[], onProgress?: ImportProgress): AsyncGenerator<BinanceMessage> {
  for await (const line of readTextLines(files, onProgress)) {
    const m = parseCaptureLine(line.text, `${line.file}:${line.lineNo}`);
    if (m) yield m;
  }
}
