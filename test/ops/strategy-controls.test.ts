import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { applyControl, type ControlTarget } from '../../src/engine/strategy-controls.js';
import { MemoryJournal } from '../../src/engine/journal.js';
import type { StrategyRun } from '../../src/engine/strategy-run.js';
import type { EngineEvent } from '../../src/engine/events.js';

function target(running = true): { t: ControlTarget; run: StrategyRun; log: string[]; journal: MemoryJournal; events: EngineEvent[] } {
  const run = { id: 'mm', halted: false, paused: false, orders$: new BehaviorSubject([]), fills$: new Subject() } as unknown as StrategyRun;
  const log: string[] = [];
  const journal = new MemoryJournal();
  const events: EngineEvent[] = [];
  return {
    run,
    log,
    journal,
    events,
    t: {
      runs: [run],
      journal,
      now: () => 1,
      emit: (e) => events.push(e),
      running: () => running,
      stopStrategy: () => log.push('stop'),
      startStrategy: () => log.push('start'),
      cancelAllOf: () => log.push('cancel'),
    },
  };
}

describe('operator controls (runtime.control)', () => {
  it('pause unsubscribes (orders stay unless asked), resume subscribes again; each is journalled before it acts', () => {
    const x = target();
    expect(applyControl(x.t, { action: 'pause', strategyId: 'mm', source: 'test' })).toMatchObject({ ok: true });
    expect(x.run.paused).toBe(true);
    expect(x.log).toEqual(['stop']);
    expect(applyControl(x.t, { action: 'pause', strategyId: 'mm', source: 'test' }).ok).toBe(true); // again: nothing more
    expect(x.log).toEqual(['stop']);
    applyControl(x.t, { action: 'pause', strategyId: 'mm', cancelOrders: true, source: 'test' });
    expect(x.log).toEqual(['stop', 'cancel']);
    applyControl(x.t, { action: 'resume', strategyId: 'mm', source: 'test' });
    expect(x.run.paused).toBe(false);
    expect(x.log).toEqual(['stop', 'cancel', 'start']);
    applyControl(x.t, { action: 'cancel-orders', strategyId: 'mm', source: 'test' });
    expect(x.journal.records().map((r) => (r.type === 'control' ? `${r.action}${r.cancelOrders ? '+cancel' : ''}` : r.type))).toEqual([
      'pause',
      'pause+cancel',
      'resume',
      'cancel-orders',
    ]);
    expect(x.events.filter((e) => e.type === 'control')).toHaveLength(4);
  });

  it('refuses what it cannot do, journalling nothing: unknown strategy (404), resume of a halted one (409), any control while starting or stopping (409)', () => {
    const x = target();
    expect(applyControl(x.t, { action: 'pause', strategyId: 'nope', source: 'test' })).toMatchObject({ ok: false, status: 404 });
    x.run.halted = true;
    x.run.paused = true;
    expect(applyControl(x.t, { action: 'resume', strategyId: 'mm', source: 'test' })).toMatchObject({ ok: false, status: 409 });
    expect(applyControl(target(false).t, { action: 'pause', strategyId: 'mm', source: 'test' })).toMatchObject({ ok: false, status: 409 });
    expect(x.journal.records()).toEqual([]);
    expect(x.log).toEqual([]);
  });
});
