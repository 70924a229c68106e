/**
 * Parses Tardis.dev CSV exports (https://docs.tardis.dev/downloadable-csv-files), one row at a time:
 *  - `incremental_book_L2`: exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount
 *    (side `bid`|`ask`; amount is the new absolute size at the price, 0 removes the level;
 *    `is_snapshot` true rows form a run that replaces the whole book);
 *  - `trades`: exchange,symbol,timestamp,local_timestamp,id,side,price,amount
 *    (side is the taker's: `buy`|`sell`, or `unknown` when the exchange does not say).
 * Columns are found by the header's names, so their order does not matter. Timestamps are
 * microseconds since the epoch: `timestamp` is the exchange's (Tardis falls back to the local one
 * when the exchange gives none), `local_timestamp` the arrival time at Tardis' collector.
 * A row that does not fit is a CaptureFormatError naming `file:line`.
 */
import { D } from '../../src/model/decimal.js';
import { CaptureFormatError } from './capture-format-error.js';

export interface TardisBookRow {
  readonly kind: 'book';
  readonly symbol: string;
  /** local_timestamp in ms (floor of the µs). */
  readonly t: number;
  readonly isSnapshot: boolean;
  readonly side: 'bid' | 'ask';
  readonly price: string;
  readonly amount: string;
}

export interface TardisTradeRow {
  readonly kind: 'trade';
  readonly symbol: string;
  readonly t: number;
  readonly side: 'buy' | 'sell' | 'unknown';
  readonly price: string;
  readonly amount: string;
}

const BOOK_COLUMNS = ['symbol', 'local_timestamp', 'is_snapshot', 'side', 'price', 'amount'] as const;
const TRADE_COLUMNS = ['symbol', 'local_timestamp', 'side', 'price', 'amount'] as const;
const PLAIN = /^\d+(\.\d+)?$/;
const EXPONENT = /^\d+(\.\d+)?[eE][-+]?\d+$/;
const MICROS = /^\d{1,16}$/;

/** Column positions by name, from the header line. */
export type TardisColumns = ReadonlyMap<string, number>;

export function parseTardisHeader(kind: 'book' | 'trade', text: string, where: string): TardisColumns {
  const names = text.split(',').map((s) => s.trim());
  const columns = new Map(names.map((n, i) => [n, i]));
  const need = kind === 'book' ? BOOK_COLUMNS : TRADE_COLUMNS;
  const missing = need.filter((n) => !columns.has(n));
  if (missing.length > 0) {
    const what = kind === 'book' ? 'incremental_book_L2' : 'trades';
    throw new CaptureFormatError(`${where}: not a Tardis ${what} CSV header (missing ${missing.join(', ')}; got "${text.slice(0, 120)}")`);
  }
  return columns;
}

/** A non-negative decimal as plain text (Tardis may print tiny sizes as 1e-8). */
function decimal(text: string | undefined, name: string, where: string): string {
  if (text !== undefined && PLAIN.test(text)) return text;
  if (text !== undefined && EXPONENT.test(text)) return D(text).toFixed();
  throw new CaptureFormatError(`${where}: ${name} "${text ?? ''}" is not a non-negative decimal`);
}

function millis(text: string | undefined, where: string): number {
  if (text === undefined || !MICROS.test(text)) throw new CaptureFormatError(`${where}: local_timestamp "${text ?? ''}" is not microseconds since the epoch`);
  return Math.floor(Number(text) / 1000);
}

export function parseTardisBookRow(columns: TardisColumns, text: string, where: string): TardisBookRow {
  const f = text.split(',');
  const at = (n: string): string | undefined => f[columns.get(n)!];
  const snap = at('is_snapshot');
  if (snap !== 'true' && snap !== 'false') throw new CaptureFormatError(`${where}: is_snapshot "${snap ?? ''}" is not true or false`);
  const side = at('side');
  if (side !== 'bid' && side !== 'ask') throw new CaptureFormatError(`${where}: side "${side ?? ''}" is not bid or ask`);
  const price = decimal(at('price'), 'price', where);
  if (Number(price) === 0) throw new CaptureFormatError(`${where}: price 0`);
  return {
    kind: 'book',
    symbol: at('symbol') ?? '',
    t: millis(at('local_timestamp'), where),
    isSnapshot: snap === 'true',
    side,
    price,
    amount: decimal(at('amount'), 'amount', where),
  };
}

export function parseTardisTradeRow(columns: TardisColumns, text: string, where: string): TardisTradeRow {
  const f = text.split(',');
  const at = (n: string): string | undefined => f[columns.get(n)!];
  const side = at('side');
  if (side !== 'buy' && side !== 'sell' && side !== 'unknown') throw new CaptureFormatError(`${where}: side "${side ?? ''}" is not buy, sell or unknown`);
  const amount = decimal(at('amount'), 'amount', where);
  if (Number(amount) === 0) throw new CaptureFormatError(`${where}: trade amount 0`);
  return { kind: 'trade', symbol: at('symbol') ?? '', t: millis(at('local_timestamp'), where), side, price: decimal(at('price'), 'price', where), amount };
}
