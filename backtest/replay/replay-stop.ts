/**
 * Stopping a replay part-way (Ctrl-C during `bot backtest`) so that every lane ends at the same virtual time, also
 * when lanes run on worker threads (run-parallel.ts), so the partial report compares like with like.
 *
 * The participants are the replays that share one stop (one runBacktest per thread). On a request, each participant,
 * at its next step, reports the virtual time it has reached and waits until every participant has reported; all then
 * replay on to the latest of those times and stop there. A participant that reached the end of its data first reports
 * that end instead (without waiting), and the others then run on to it. Nothing is lost or replayed twice: a
 * participant never stops past a time another one could not reach.
 *
 * The state lives in a SharedArrayBuffer, so a worker sees the request without an event-loop turn (its replay
 * drains microtasks and seldom yields) and the barrier needs no messages.
 */

/** How long a participant waits for the others to report (a failed worker never does), wall-clock ms. */
const BARRIER_TIMEOUT_MS = 10_000;

const REQUESTED = 0;
const ARRIVED = 1;

export interface ReplayStop {
  /** True once a stop was asked for. Cheap: read on every replay step. */
  requested(): boolean;
  /** Asks every participant to stop (idempotent). */
  request(): void;
  /** A participant that saw the request at virtual time `t`: waits for the others, returns the time all stop at. */
  arrive(t: number): number;
  /** A participant that ran to the end of its data at `t` (no waiting). */
  finish(t: number): void;
  /** The shared state, to hand to a worker (`replayStopFrom`). */
  readonly buffer: SharedArrayBuffer;
}

/** A stop shared by `participants` replays (1 + the lane workers of a parallel run). */
export function createReplayStop(participants: number): ReplayStop {
  if (!Number.isInteger(participants) || participants < 1) throw new RangeError(`participants: expected a positive integer, got ${participants}`);
  // [requested, arrived] int32 | one int64 virtual time per participant (0 = not yet) | [participants] int32
  const buffer = new SharedArrayBuffer(8 + 8 * participants + 8);
  new Int32Array(buffer, 8 * (participants + 1), 2)[0] = participants;
  return replayStopFrom(buffer);
}

/** The same stop, from its buffer (in a worker). */
export function replayStopFrom(buffer: SharedArrayBuffer): ReplayStop {
  const slots = buffer.byteLength / 8 - 2;
  const flags = new Int32Array(buffer, 0, 2);
  const times = new BigInt64Array(buffer, 8, slots);
  const participants = new Int32Array(buffer, 8 * (slots + 1), 2)[0]!;
  const report = (t: number): number => {
    const slot = Atomics.add(flags, ARRIVED, 1);
    Atomics.store(times, slot, BigInt(Math.round(t)));
    // the count is raised before the time is stored: readers wait for every slot to be written (non-zero)
    Atomics.notify(flags, ARRIVED);
    return slot;
  };
  const latest = (): number | undefined => {
    let max: bigint | undefined;
    for (let i = 0; i < participants; i++) {
      const t = Atomics.load(times, i);
      if (t === 0n) return undefined;
      if (max === undefined || t > max) max = t;
    }
    return max === undefined ? undefined : Number(max);
  };
  return {
    buffer,
    requested: () => Atomics.load(flags, REQUESTED) === 1,
    request: () => {
      Atomics.store(flags, REQUESTED, 1);
    },
    finish: (t) => {
      report(t);
    },
    arrive: (t) => {
      report(t);
      const deadline = performance.now() + BARRIER_TIMEOUT_MS;
      for (;;) {
        const all = latest();
        if (all !== undefined) return all;
        const left = deadline - performance.now();
        // a participant that never reports (a failed worker): stop where this one is
        if (left <= 0) return t;
        const arrived = Atomics.load(flags, ARRIVED);
        if (arrived < participants) Atomics.wait(flags, ARRIVED, arrived, Math.min(left, 50));
        else Atomics.wait(flags, ARRIVED, arrived, 1);
      }
    },
  };
}
