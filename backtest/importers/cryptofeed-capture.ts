/**
 * Parses cryptofeed's raw-data capture (its "playback" recorder): one WebSocket frame a line,
 *   `<url> <-> <t>`         connection opened      (skipped)
 *   `<url> <- <t>: <json>`  frame the client sent  (skipped)
 *   `<t>: <json>`           frame received
 * with `<t>` the local receive time in Unix seconds (float text). Received frames of two venues are
 * understood, book and trades only (events, heartbeats and tickers are skipped):
 *  - OKX v5 public: `{"arg":{"channel":"books",instId},"action":"snapshot"|"update","data":[{asks,bids,ts,checksum}]}`
 *    (levels `[px, sz, "0", nOrders]`, absolute sizes) and `{"arg":{"channel":"trades"},"data":[{px,sz,side}]}`;
 *  - Kraken v1: `[channelID, {"as","bs"}, "book-N", pair]` snapshots, `[channelID, {"a"|"b"}..., {..,"c"}, "book-N", pair]`
 *    updates (absolute volumes, a checksum string `c`), `[channelID, [[price, volume, time, "b"|"s", ...]], "trade", pair]`.
 */
import { CaptureFormatError } from './capture-format-error.js';
import type { Level } from './book-side.js';

export type Venue = 'okx' | 'kraken';

export interface CfBook {
  readonly kind: 'book';
  readonly venue: Venue;
  readonly symbol: string;
  /** Local receive time, ms. */
  readonly t: number;
  readonly snapshot: boolean;
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
  /** OKX: signed int32; Kraken: unsigned decimal string. Absent on Kraken snapshots. */
  readonly checksum: number | string | undefined;
  /** Kraken's subscribed depth (from "book-N"): the book is kept to it. */
  readonly depth: number | undefined;
}

export interface CfTrade {
  readonly kind: 'trade';
  readonly venue: Venue;
  readonly symbol: string;
  readonly t: number;
  readonly price: string;
  readonly amount: string;
  /** The taker's side. */
  readonly side: 'buy' | 'sell';
}

export type CfMessage = CfBook | CfTrade;

const SECONDS = /^(\d{1,12})(?:\.(\d*))?$/;

/** "1652459225.5037491" → 1652459225503 ms, from the text (no float rounding). */
export function secondsTextToMs(text: string, where: string): number {
  const m = SECONDS.exec(text);
  if (!m) throw new CaptureFormatError(`${where}: receive time "${text.slice(0, 40)}" is not Unix seconds`);
  return Number(m[1]) * 1000 + Number((m[2] ?? '').padEnd(3, '0').slice(0, 3));
}

const fail = (where: string, what: string): never => {
  throw new CaptureFormatError(`${where}: ${what}`);
};

function levels(raw: unknown, where: string): Level[] {
  if (!Array.isArray(raw)) return fail(where, 'book levels are not a list');
  return raw.map((l: unknown) => {
    if (!Array.isArray(l) || typeof l[0] !== 'string' || typeof l[1] !== 'string') return fail(where, 'a book level is not [price, size, ...] strings');
    return [l[0], l[1]] as Level;
  });
}

function okx(msg: Record<string, unknown>, t: number, where: string): CfMessage[] {
  const arg = msg['arg'] as Record<string, unknown> | undefined;
  const data = msg['data'];
  if (!arg || !Array.isArray(data)) return [];
  const symbol = String(arg['instId']);
  if (arg['channel'] === 'books') {
    const action = msg['action'];
    if (action !== 'snapshot' && action !== 'update') return fail(where, `OKX book action "${String(action)}"`);
    return data.map((d: Record<string, unknown>) => ({
      kind: 'book',
      venue: 'okx',
      symbol,
      t,
      snapshot: action === 'snapshot',
      bids: levels(d['bids'], where),
      asks: levels(d['asks'], where),
      checksum: typeof d['checksum'] === 'number' ? d['checksum'] : undefined,
      depth: undefined,
    }));
  }
  if (arg['channel'] === 'trades') {
    return data.map((d: Record<string, unknown>) => {
      const side = d['side'];
      if ((side !== 'buy' && side !== 'sell') || typeof d['px'] !== 'string' || typeof d['sz'] !== 'string')
        return fail(where, 'OKX trade without px, sz and side buy|sell');
      return { kind: 'trade', venue: 'okx', symbol: typeof d['instId'] === 'string' ? d['instId'] : symbol, t, price: d['px'], amount: d['sz'], side };
    });
  }
  return [];
}

function kraken(msg: unknown[], t: number, where: string): CfMessage[] {
  const channel = msg[msg.length - 2];
  const symbol = msg[msg.length - 1];
  if (typeof channel !== 'string' || typeof symbol !== 'string') return [];
  const parts = msg.slice(1, -2);
  if (channel.startsWith('book')) {
    const depth = Number(channel.slice(5)) || undefined;
    const first = parts[0] as Record<string, unknown> | undefined;
    if (!first || typeof first !== 'object') return fail(where, 'Kraken book frame without levels');
    if ('as' in first || 'bs' in first) {
      return [
        {
          kind: 'book',
          venue: 'kraken',
          symbol,
          t,
          snapshot: true,
          bids: levels(first['bs'] ?? [], where),
          asks: levels(first['as'] ?? [], where),
          checksum: undefined,
          depth,
        },
      ];
    }
    const bids: Level[] = [];
    const asks: Level[] = [];
    let checksum: string | undefined;
    for (const p of parts as Array<Record<string, unknown>>) {
      if ('a' in p) asks.push(...levels(p['a'], where));
      if ('b' in p) bids.push(...levels(p['b'], where));
      if (typeof p['c'] === 'string') checksum = p['c'];
    }
    return [{ kind: 'book', venue: 'kraken', symbol, t, snapshot: false, bids, asks, checksum, depth }];
  }
  if (channel === 'trade') {
    const trades = parts[0];
    if (!Array.isArray(trades)) return fail(where, 'Kraken trade frame without trades');
    return trades.map((x: unknown[]) => {
      if (typeof x[0] !== 'string' || typeof x[1] !== 'string' || (x[3] !== 'b' && x[3] !== 's'))
        return fail(where, 'Kraken trade is not [price, volume, time, b|s, ...]');
      return { kind: 'trade', venue: 'kraken', symbol, t, price: x[0], amount: x[1], side: x[3] === 'b' ? 'buy' : 'sell' };
    });
  }
  return [];
}

/** The book and trade messages of one capture line (none for the rest). */
export function parseCryptofeedLine(text: string, where: string): CfMessage[] {
  if (text.length === 0) return [];
  const colon = text.indexOf(': ');
  const head = colon < 0 ? text : text.slice(0, colon);
  if (head.includes(' <-')) return []; // the client's own frames and connection opens
  if (colon < 0) return fail(where, 'expected "<t>: <json>"');
  const t = secondsTextToMs(head, where);
  let msg: unknown;
  try {
    msg = JSON.parse(text.slice(colon + 2));
  } catch (error) {
    throw new CaptureFormatError(`${where}: JSON does not parse`, error);
  }
  if (Array.isArray(msg)) return kraken(msg, t, where);
  if (msg && typeof msg === 'object') return okx(msg as Record<string, unknown>, t, where);
  return [];
}
