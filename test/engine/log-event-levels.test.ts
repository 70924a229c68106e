import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/events.js';
import { logEvent } from '../../src/engine/log-event.js';

/** One event per level the log uses: debug, warn, error, and info (a fill's 'stale' kin: going fresh again). */
const EVENTS: readonly EngineEvent[] = [
  { type: 'submitted', at: 1, strategyId: 's', clientOrderId: 'c-1', kind: 'place' },
  { type: 'error', at: 1, code: 'ERR_X', message: 'boom' },
  { type: 'risk-halt', at: 1, strategyId: 's', reason: 'limit' },
  { type: 'stale', at: 1, market: 'BTC_USDT', source: 'book', stale: false },
];

function logger(): { log: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((l) => l !== ''),
      );
      done();
    },
  });
  return { log: pino({ level: 'silent' }, out), lines };
}

describe('logEvent follows the logger level as it changes (the all-off shortcut is per logger and level)', () => {
  it('logs what each level lets through, after every level change and on a second logger', async () => {
    const seen: number[] = [];
    for (const { log, lines } of [logger(), logger()]) {
      for (const level of ['silent', 'debug', 'error', 'silent', 'warn', 'info', 'silent', 'trace']) {
        log.level = level;
        const before = lines.length;
        for (const e of EVENTS) logEvent(log, e);
        await new Promise((r) => setImmediate(r));
        seen.push(lines.length - before);
      }
    }
    // silent 0, debug 4, error 1, silent 0, warn 2, info 3, silent 0, trace 4; the same on the second logger
    expect(seen).toEqual([0, 4, 1, 0, 2, 3, 0, 4, 0, 4, 1, 0, 2, 3, 0, 4]);
  });
});

describe('logEvent with two loggers taking turns (two lanes in one thread)', () => {
  it('each logs what its own level lets through, whichever asked last', async () => {
    const a = logger();
    const b = logger();
    b.log.level = 'debug';
    const counts: number[] = [];
    for (const round of [0, 1, 2]) {
      if (round === 2) [a.log.level, b.log.level] = ['debug', 'silent'];
      const [la, lb] = [a.lines.length, b.lines.length];
      for (const e of EVENTS) {
        logEvent(a.log, e);
        logEvent(b.log, e);
      }
      await new Promise((r) => setImmediate(r));
      counts.push(a.lines.length - la, b.lines.length - lb);
    }
    expect(counts).toEqual([0, 4, 0, 4, 4, 0]);
  });
});
