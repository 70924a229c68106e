/**
 * One simulated request's way to the venue and back (backtest-venue.ts makes them): a rate-limit slot held until the
 * response, `requestMs` to the venue, the act at arrival on the state then, `responseMs` back, the promise settled.
 * On the replay's stepping scheduler the trip itself is the queue entry of both legs, nothing made per leg.
 */
import type { SchedulerAction, SchedulerLike } from 'rxjs';
import type { AdmissionLane, AdmittedSlot, RateLimiter } from '../../src/venue/rate-limiter.js';
import type { EndpointName } from '../../src/venue/wire.js';
import type { PostedEntry, SteppingScheduler } from './stepping-scheduler.js';

/** One endpoint of a venue: its request count and (once asked) its rate-limit lane. */
export class Route {
  calls = 0;
  lane: AdmissionLane | undefined = undefined;
  constructor(readonly endpoint: EndpointName) {}
}

/** What every request of one venue shares. */
export interface Leg {
  readonly scheduler: SchedulerLike;
  /** The scheduler is the replay's stepping scheduler (entries posted, see `trip`). */
  readonly stepping: boolean;
  readonly requestMs: number;
  readonly responseMs: number;
  /** The limiter of the rate-limit slots the venue's requests hold (admitNow), if any. */
  readonly limiter: RateLimiter | undefined;
}

/** The trip being made, for `takeSettlers`: the promise's executor is one function, not a closure per request. */
let making: Trip | undefined;

function takeSettlers(resolve: (value: unknown) => void, reject: (error: unknown) => void): void {
  making!.resolve = resolve;
  making!.reject = reject;
}

/** `slot`: the rate-limit slot admitted for it (admitNow), released when it settles; undefined: none held. */
export function trip<T>(leg: Leg, act: () => T, slot: AdmittedSlot | undefined): Promise<T> {
  const t = new Trip(act, leg, slot);
  making = t;
  const promise = new Promise<T>(takeSettlers as (resolve: (value: T) => void, reject: (error: unknown) => void) => void);
  making = undefined;
  // The arrival only acts on the virtual exchange and schedules the response: no promise settles in it, so a
  // stepping scheduler may skip the macrotask turn after a step of arrivals only (see stepping-scheduler.ts).
  // Neither leg is ever cancelled: on the stepping scheduler the trip itself is queued for each leg, nothing made.
  // The promise is pending and nothing was queued to make it: the venue vouches for the request (postRequest).
  if (leg.stepping) (leg.scheduler as SteppingScheduler).postRequest(t, leg.requestMs);
  else
    leg.scheduler.schedule(
      function (this: SchedulerAction<Trip>, x?: Trip) {
        arrive(x!);
      },
      leg.requestMs,
      t,
    );
  return promise;
}

/**
 * One request in flight (state passed to the scheduler's actions instead of closures per request). On the stepping
 * scheduler it is its own queue entry (PostedEntry), queued for the arrival (synchronous: it only acts and queues the
 * response) and again for the response (which settles the promise).
 */
class Trip implements PostedEntry {
  due = 0;
  seq = 0;
  index = -1;
  /** True while queued for the arrival. */
  synchronous = true;
  readonly startsRequest = false;
  ok = false;
  value: unknown = undefined;
  // set by the promise's executor (takeSettlers), which runs in the constructor's caller before the trip is queued
  resolve: (value: unknown) => void = settleNothing;
  reject: (error: unknown) => void = settleNothing;
  constructor(
    readonly act: () => unknown,
    readonly leg: Leg,
    /** The rate-limit slot the request holds until it settles (admitted by admitNow), if any. */
    readonly slot: AdmittedSlot | undefined,
  ) {}

  execute(): void {
    if (this.synchronous) arrive(this);
    else respond(this);
  }
}

function settleNothing(): void {}

export function isStepping(s: SchedulerLike): s is SchedulerLike & Pick<SteppingScheduler, 'postEntry' | 'postRequest'> {
  return typeof (s as Partial<SteppingScheduler>).postEntry === 'function';
}

/** The request at the venue: act on the state at arrival time (synchronously), then travel back. */
function arrive(t: Trip): void {
  try {
    t.value = t.act();
    t.ok = true;
  } catch (error) {
    t.value = error;
  }
  const leg = t.leg;
  if (leg.stepping) {
    t.synchronous = false;
    (leg.scheduler as SteppingScheduler).postEntry(t, leg.responseMs);
  } else
    leg.scheduler.schedule(
      function (this: SchedulerAction<Trip>, x?: Trip) {
        respond(x!);
      },
      leg.responseMs,
      t,
    );
}

/** The response back at the client: release its rate-limit slot, settle the request's promise. */
function respond(t: Trip): void {
  if (t.slot !== undefined) t.leg.limiter!.completed(t.slot);
  if (t.ok) t.resolve(t.value);
  else t.reject(t.value);
}
