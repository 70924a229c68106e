import fc from 'fast-check';
import type { SchedulerAction, Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SteppingScheduler } from '../../backtest/replay/stepping-scheduler.js';

/**
 * The stepping scheduler's queue against the plainest queue that orders the same: every entry kept in a list, the
 * next one found by a scan for the least (due, seq). Scripts of scheduled work (some of it scheduling more when it
 * runs, zero delays included), posted work, cancellations and reschedules, with delays drawn from a few values so
 * that many entries fall due together and only the sequence orders them.
 */

type Op =
  | { readonly op: 'schedule'; readonly delay: number; readonly child: number | null }
  | { readonly op: 'post'; readonly delay: number }
  | { readonly op: 'cancel'; readonly k: number }
  | { readonly op: 'reschedule'; readonly k: number; readonly delay: number }
  | { readonly op: 'run' };

/** What both queues are driven through: labels of work, handles to cancel or reschedule. */
interface Queue {
  now(): number;
  /** Scheduled work `label`; when it runs, it schedules `child` (a delay) as work `label + 1000`, if given. */
  schedule(label: number, delay: number, child: number | null): number;
  post(label: number, delay: number): void;
  cancel(handle: number): void;
  reschedule(handle: number, delay: number): void;
  runNext(): boolean;
}

function real(ran: number[]): Queue {
  const s = new SteppingScheduler(1_000);
  const actions: Subscription[] = [];
  const q: Queue = {
    now: () => s.now(),
    schedule(label, delay, child) {
      actions.push(
        s.schedule(function (this: SchedulerAction<unknown>) {
          ran.push(label);
          if (child !== null) q.schedule(label + 1000, child, null);
        }, delay),
      );
      return actions.length - 1;
    },
    post: (label, delay) => s.post((l: number) => ran.push(l), delay, label, true),
    cancel: (h) => actions[h]!.unsubscribe(),
    reschedule: (h, delay) => void (actions[h] as unknown as SchedulerAction<unknown>).schedule(undefined, delay),
    runNext: () => s.runNext(),
  };
  return q;
}

function plain(ran: number[]): Queue {
  let now = 1_000;
  let seq = 0;
  interface Entry {
    due: number;
    seq: number;
    queued: boolean;
    closed: boolean;
    run: () => void;
  }
  const queued: Entry[] = [];
  const handles: Entry[] = [];
  const enqueue = (e: Entry, delay: number): void => {
    e.due = now + Math.max(0, delay);
    e.seq = seq++;
    if (!e.queued) queued.push(e);
    e.queued = true;
  };
  const least = (): Entry | undefined => {
    let m: Entry | undefined;
    for (const e of queued) if (m === undefined || e.due < m.due || (e.due === m.due && e.seq < m.seq)) m = e;
    return m;
  };
  const take = (e: Entry): void => {
    queued.splice(queued.indexOf(e), 1);
    e.queued = false;
  };
  const q: Queue = {
    now: () => now,
    schedule(label, delay, child) {
      const e: Entry = {
        due: 0,
        seq: 0,
        queued: false,
        closed: false,
        run: () => {
          ran.push(label);
          if (child !== null) q.schedule(label + 1000, child, null);
        },
      };
      enqueue(e, delay);
      handles.push(e);
      return handles.length - 1;
    },
    post(label, delay) {
      enqueue({ due: 0, seq: 0, queued: false, closed: false, run: () => ran.push(label) }, delay);
    },
    cancel(h) {
      const e = handles[h]!;
      e.closed = true;
      if (e.queued) take(e);
    },
    reschedule(h, delay) {
      const e = handles[h]!;
      if (!e.closed) enqueue(e, delay);
    },
    runNext() {
      const first = least();
      if (first === undefined) return false;
      now = Math.max(now, first.due);
      for (let e = least(); e !== undefined && e.due <= now; e = least()) {
        take(e);
        e.run();
      }
      return true;
    },
  };
  return q;
}

function play(q: Queue, ops: readonly Op[]): void {
  let handles = 0;
  let label = 0;
  for (const o of ops) {
    if (o.op === 'schedule') {
      q.schedule(label++, o.delay, o.child);
      handles += 1;
    } else if (o.op === 'post') q.post(label++, o.delay);
    else if (o.op === 'cancel') {
      if (handles > 0) q.cancel(o.k % handles);
    } else if (o.op === 'reschedule') {
      if (handles > 0) q.reschedule(o.k % handles, o.delay);
    } else q.runNext();
  }
  while (q.runNext());
}

// few distinct delays (many ties at one due time), zero included, and now and then any delay
const delay = fc.oneof(fc.constantFrom(0, 25, 25, 50, 950, 1000), fc.integer({ min: 0, max: 3000 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('schedule' as const), delay, child: fc.option(delay, { nil: null }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('post' as const), delay }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('cancel' as const), k: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('reschedule' as const), k: fc.nat(), delay }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('run' as const) }) },
);

describe('SteppingScheduler: its heap runs work in the order of a plain scan for the least (due, seq)', () => {
  it('same work at the same virtual times, ties in the order scheduled, cancelled work never (property, seeded)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200, size: 'max' }), (ops) => {
        const [a, b]: [number[], number[]] = [[], []];
        const [qa, qb] = [real(a), plain(b)];
        const times: [number[], number[]] = [[], []];
        // the clock after each op, too: a step moves it to the same due time
        play({ ...qa, runNext: () => (times[0].push(qa.now()), qa.runNext()) }, ops);
        play({ ...qb, runNext: () => (times[1].push(qb.now()), qb.runNext()) }, ops);
        expect(a).toEqual(b);
        expect(times[0]).toEqual(times[1]);
        expect(qa.now()).toBe(qb.now());
      }),
      { seed: 2733, numRuns: 500 },
    );
  });
});
