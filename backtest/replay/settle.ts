import { promiseHooks } from 'node:v8';
import { BotError } from '../../src/model/errors.js';

/**
 * Lets every promise chain a replay step started run to its end, without an event-loop turn. Node runs the whole
 * microtask queue, then the nextTick queue, and again, until both are empty, before it goes back to the event loop: a
 * nextTick callback queued now therefore runs only once no microtask is left, and resolving from it resumes the
 * driver after every chain of the step has settled (or is waiting on virtual time: a venue answer, a timer). One
 * setImmediate per step did the same through the event loop: an epoll call and a loop iteration each, ~half the
 * replay's wall time.
 */
export function drainMicrotasks(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}

/** How the replay driver settles a step: `begin()` before the step's work, `settle()` after it. */
export interface StepSettler {
  begin(): void;
  settle(atMs: number): Promise<void>;
  /** The step needed no settling (only synchronous work ran). */
  skip(): void;
  /**
   * `settle(atMs).then(then)` with fewer promises, where the settler can: the replay driver's per-step path (the
   * draining settler with its own drain: a nextTick callback, which runs once no microtask is left, starts `then` as a
   * microtask).
   */
  settleThen?(atMs: number, then: () => void): void;
  /**
   * Tests: the step needed no settling by the scheduler's account (only work that queues nothing ran); drain anyway and
   * fail with LoudStepError if any of the step's promises had a reaction waiting. Absent: `skip()`.
   */
  checkQuiet?(atMs: number): Promise<void>;
}

/** The replay's settler: the drain alone. */
export function drainingSettler(drain?: () => Promise<void>): StepSettler {
  if (drain !== undefined) return { begin: () => undefined, settle: () => drain(), skip: () => undefined };
  // The tick's callback is made once per `then` (the replay passes the same one on every step), so nextTick is given
  // no argument to keep in an array per step.
  let thenOf: (() => void) | undefined;
  let tick: () => void = () => undefined;
  return {
    begin: () => undefined,
    settle: () => drainMicrotasks(),
    skip: () => undefined,
    settleThen: (_atMs, then) => {
      if (then !== thenOf) {
        thenOf = then;
        tick = () => inMicrotask(then);
      }
      process.nextTick(tick);
    },
  };
}

const RESOLVED = Promise.resolve();

/**
 * Runs `f` as a microtask, as the continuation of an awaited drain runs: Node runs the nextTick callbacks queued by a
 * nextTick callback before the microtasks, so a step run straight from the tick would post its own drain's tick ahead
 * of the microtasks it queued, and the next step would overtake them. From a microtask, the step's microtasks run in
 * the same checkpoint, and its drain's tick after them.
 */
function inMicrotask(f: () => void): void {
  void RESOLVED.then(f);
}

/**
 * The check that the drain is complete (tests; `BacktestOptions.checkSettled`). V8's promise hooks note every promise
 * created from `begin()` until the drain ends (the step's work and the chains it starts); then one real event-loop
 * turn must settle none of them. One that settles was part of a chain the drain left running, which the next step
 * would have overtaken. Promises made between steps (the data feed reading ahead from disk) are not the step's and
 * are not counted. Slow: never on by default.
 */
export function checkingSettler(drain: () => Promise<void> = drainMicrotasks): StepSettler & { stop(): void } {
  let inStep = false;
  let checking = false;
  let stale = 0;
  /** Draining after a step the scheduler found quiet: any reaction of the step's promises that runs was queued by it. */
  let quietDrain = false;
  let loud = 0;
  let stepPromises = new WeakSet<Promise<unknown>>();
  const stop = promiseHooks.createHook({
    init: (p) => {
      if (inStep) stepPromises.add(p);
    },
    settled: (p) => {
      if (checking && stepPromises.has(p)) stale += 1;
    },
    before: (p) => {
      if (quietDrain && stepPromises.has(p)) loud += 1;
    },
  });
  return {
    begin() {
      inStep = true;
    },
    skip() {
      inStep = false;
    },
    // Not an async function: every promise of the settler's own (the drain, its continuation, the turn) is made with
    // `inStep` off, so only the step's promises are watched; what the chains make while draining is (inStep back on).
    settle(atMs) {
      inStep = false;
      const afterDrain = (): Promise<void> => {
        inStep = false;
        checking = true;
        stale = 0;
        return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          checking = false;
          stepPromises = new WeakSet();
          if (stale > 0) throw new UnsettledChainError(stale, atMs);
        });
      };
      const done = drain().then(afterDrain);
      inStep = true;
      return done;
    },
    // A quiet step queued nothing, so the drain runs none of its promises' reactions (a promise waiting on virtual
    // time, e.g. a request's, is not settled by a drain).
    checkQuiet(atMs) {
      inStep = false;
      quietDrain = true;
      loud = 0;
      return drain().then(() => {
        quietDrain = false;
        stepPromises = new WeakSet();
        if (loud > 0) throw new LoudStepError(loud, atMs);
      });
    },
    stop: stop as () => void,
  };
}

export class UnsettledChainError extends BotError {
  constructor(settled: number, atMs: number) {
    super(`replay: ${settled} promise(s) of a step settled after virtual time ${atMs} was left: a chain was still running when time moved`, {
      code: 'ERR_REPLAY_UNSETTLED',
    });
  }
}

export class LoudStepError extends BotError {
  constructor(reactions: number, atMs: number) {
    super(
      `replay: a step at virtual time ${atMs} counted as leaving nothing to settle queued ${reactions} promise reaction(s): work marked as only starting a request did more`,
      {
        code: 'ERR_REPLAY_LOUD_STEP',
      },
    );
  }
}
