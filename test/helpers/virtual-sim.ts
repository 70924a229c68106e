/**
 * The simulated exchange in-process on a virtual clock, for tests that trade against it for simulated minutes in
 * a second, the same way every run. The sim's own parts are all there (SimExchange, its synthetic flow and
 * housekeeping tick, and its request handling: routes, rate windows, auth and nonces, statistics, faults, lies);
 * only the socket is left out: the real RestClient signs each request and hands the bytes to the sim's handler
 * (src/sim/http/sim-handler.ts) through an in-process transport, and reads the answer as it would off the wire.
 *
 * One SteppingScheduler (backtest/replay) is the clock of everything: the sim, the flow, the client's rate limiter
 * and nonces, and the runtime under test. Time moves only in `advance` / `run`, and only when nothing is left to
 * do at the current instant (every promise chain settled, no request being handled), so a run is a function of
 * the config and the seeds. Answers take no virtual time: a request is handled at the instant it is sent.
 */
import type { SchedulerAction, SchedulerLike } from 'rxjs';
import { SteppingScheduler } from '../../backtest/replay/stepping-scheduler.js';
import { SimExchange } from '../../src/sim/exchange.js';
import type { FaultConfig } from '../../src/sim/http/faults.js';
import { garbageAnswer } from '../../src/sim/http/garbage-answers.js';
import { createSimHandler, type SimHandler } from '../../src/sim/http/sim-handler.js';
import type { SimStats } from '../../src/sim/http/sim-stats.js';
import type { VenueLies } from '../../src/sim/http/venue-lies.js';
import type { MarketFlow } from '../../src/sim/market-flow.js';
import type { SimConfig } from '../../src/sim/sim-config.js';
import type { SimAccountInfo } from '../../src/sim/start-sim.js';
import { createSyntheticFlow } from '../../src/sim/synthetic-flow.js';
import { NetworkError } from '../../src/venue/errors.js';
import type { RawResponse } from '../../src/venue/http-transport.js';
import { RateLimiter, type LimiterClock } from '../../src/venue/rate-limiter.js';
import { RestClient } from '../../src/venue/rest-client.js';
import type { RestClientOptions } from '../../src/venue/rest-client-options.js';
import type { VenueTransport } from '../../src/venue/venue-transport.js';
import type { Dialect, RateBucket, RateLimit } from '../../src/venue/wire.js';

/** 2026-01-01T00:00:00Z: a fixed start, so order times, deal times and nonces are the same on every run. */
export const VIRTUAL_EPOCH_MS = Date.UTC(2026, 0, 1);

/** A nominal base URL: nothing listens there, the transport never opens a socket. */
const IN_PROCESS_URL = 'http://sim.in-process';

export interface VirtualSimOptions {
  readonly config: SimConfig;
  readonly dialect?: Dialect;
  readonly faults?: FaultConfig;
  readonly rateLimits?: Partial<Record<RateBucket, Partial<RateLimit>>>;
  /** Run the synthetic flow (default true when the config has one), stepped every `config.flow.stepMs` (250 ms). */
  readonly flow?: boolean;
  /** The housekeeping tick (stop activations, kill switches); default 50 ms as startSim's. */
  readonly tickMs?: number;
  readonly startMs?: number;
}

/** What the client needs to reach the in-process sim on its clock (also what `runDaemon`'s `clientOptions` takes). */
export type InProcessClientOptions = Required<Pick<RestClientOptions, 'transport' | 'rateLimiter' | 'clock'>>;

export class VirtualSim {
  readonly scheduler: SteppingScheduler;
  /** Virtual time at creation, Unix ms. */
  readonly startMs: number;
  readonly exchange: SimExchange;
  readonly stats: SimStats;
  readonly lies: VenueLies;
  readonly faults: SimHandler['faults'];
  readonly accounts: readonly SimAccountInfo[];
  readonly baseUrl = IN_PROCESS_URL;
  readonly flow: MarketFlow | undefined;
  readonly #handler: SimHandler;
  /** Requests handed to the sim and not yet answered (a fault's delay or a garbage answer may hold one). */
  #inflight = 0;
  readonly #limiters = new Map<string, RateLimiter>();
  readonly #nonceClocks = new Map<string, () => number>();
  readonly #timers: Array<{ unsubscribe(): void }> = [];

  constructor(o: VirtualSimOptions) {
    this.startMs = o.startMs ?? VIRTUAL_EPOCH_MS;
    this.scheduler = new SteppingScheduler(this.startMs);
    const now = (): number => this.scheduler.now();
    this.exchange = new SimExchange(o.config, now);
    this.#handler = createSimHandler({
      exchange: this.exchange,
      clock: now,
      ...(o.dialect ? { dialect: o.dialect } : {}),
      ...(o.faults ? { faults: o.faults } : {}),
      ...(o.rateLimits ? { rateLimits: o.rateLimits } : {}),
    });
    this.stats = this.#handler.stats;
    this.lies = this.#handler.lies;
    this.faults = this.#handler.faults;
    this.accounts = this.exchange.accounts
      .filter((a) => !a.internal)
      .map((a) => ({ name: a.name, apiKey: a.apiKey, apiSecret: a.apiSecret, partner: a.partner }));
    this.#every(o.tickMs ?? 50, () => this.exchange.tick(now()));
    this.flow = o.flow === false || o.config.flow === undefined ? undefined : createSyntheticFlow(this.exchange);
    const flow = this.flow;
    if (flow !== undefined) {
      // the first step seeds the book: a client that starts now sees a market, as one a moment after startSim would
      flow.step(this.exchange, now());
      this.#every(o.config.flow?.stepMs ?? 250, () => flow.step(this.exchange, now()));
    }
  }

  account(name: string): SimAccountInfo {
    const a = this.accounts.find((x) => x.name === name);
    if (a === undefined) throw new Error(`no sim account ${name} (have ${this.accounts.map((x) => x.name).join(', ')})`);
    return a;
  }

  /** The exchange's id of a client account (for `exchange.openOrders` and the like). */
  accountId(name: string): string {
    return this.exchange.accountByKey(this.account(name).apiKey)!.id;
  }

  /**
   * The transport, rate limiter and nonce clock of a client of `apiKey`. The limiter and the nonces are shared by
   * every client of the key, as the process-wide ones of client-registry.ts are: a restarted client must neither
   * start a fresh rate budget nor send a nonce at or below its predecessor's (the sim refuses those).
   */
  clientOptions(apiKey: string): InProcessClientOptions {
    let limiter = this.#limiters.get(apiKey);
    if (limiter === undefined) {
      limiter = new RateLimiter({ clock: this.limiterClock });
      this.#limiters.set(apiKey, limiter);
    }
    let clock = this.#nonceClocks.get(apiKey);
    if (clock === undefined) {
      // Strictly increasing across the key's clients and never behind the virtual clock: several requests of one
      // instant take consecutive milliseconds, as NonceSource itself does within one client.
      let last = 0;
      clock = () => (last = Math.max(last + 1, this.scheduler.now()));
      this.#nonceClocks.set(apiKey, clock);
    }
    return { transport: this.transport(), rateLimiter: limiter, clock };
  }

  /** The virtual clock for a RateLimiter of the test's own (other limits than the venue's). */
  readonly limiterClock: LimiterClock = {
    now: () => this.scheduler.now(),
    setTimer: (ms, fn) => {
      const action = this.scheduler.schedule(fn, Math.max(0, ms));
      return () => action.unsubscribe();
    },
  };

  /** Resolves at virtual time now + ms (the recorder's or a daemon's wait, on this clock). */
  readonly sleep = (ms: number): Promise<void> => new Promise((resolve) => this.scheduler.schedule(() => resolve(), Math.max(0, ms)));

  /** The real REST client of an account, reaching this sim in-process on its virtual clock. */
  client(name: string, extra: Omit<RestClientOptions, 'baseUrl' | 'region' | 'apiKey' | 'apiSecret'> = {}): RestClient {
    const a = this.account(name);
    return new RestClient({ baseUrl: this.baseUrl, apiKey: a.apiKey, apiSecret: a.apiSecret, ...this.clientOptions(a.apiKey), ...extra });
  }

  /** Requests reach the sim's handler as the bytes the client signed; answers come back as text, as off the wire. */
  transport(): VenueTransport {
    const send = (method: string, path: string, body: string, headers: Readonly<Record<string, string>>, endpoint: string): Promise<RawResponse> =>
      new Promise<RawResponse>((resolve, reject) => {
        this.#inflight += 1;
        const done =
          <A extends unknown[]>(fn: (...a: A) => void) =>
          (...a: A): void => {
            this.#inflight -= 1;
            fn(...a);
          };
        const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
        this.#handler
          .handle(
            { method, url: path, headers: lower, rawBody: Buffer.from(body), remoteAddress: '127.0.0.1' },
            {
              reply: done((reply) => resolve({ status: reply.status, text: reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)) })),
              drop: done(() =>
                reject(
                  new NetworkError(`${endpoint}: network failure ECONNRESET (socket hang up)`, {
                    endpoint,
                    cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
                  }),
                ),
              ),
              // a drip arrives whole: its pace is the HTTP tests' business
              garbage: async (plan, reply, random) => {
                const answer = garbageAnswer(plan.garbage!, reply.text ?? reply.body, random);
                done(() => resolve({ status: answer.status, text: answer.text }))();
              },
            },
          )
          .catch(done(reject));
      });
    return {
      get: (path, endpoint) => send('GET', path, '', {}, endpoint),
      post: (path, body, headers, endpoint) => send('POST', path, body, headers, endpoint),
      close: () => undefined,
    };
  }

  /** Lets every promise chain run to its end (and every request in the sim be answered) before time moves. */
  async settle(): Promise<void> {
    do await new Promise((resolve) => setImmediate(resolve));
    while (this.#inflight > 0);
  }

  /** Runs everything due in the next `ms` of virtual time, step by step, settling after each; ends at now + ms. */
  async advance(ms: number): Promise<void> {
    const until = this.scheduler.now() + ms;
    await this.settle();
    while (this.scheduler.runNext(until)) await this.settle();
    this.scheduler.advanceTo(until);
  }

  /**
   * Drives virtual time until `work` settles (e.g. a runtime's start or stop, which wait on polls and timers), at
   * most `maxMs` of it; returns its value or throws its error.
   */
  async run<T>(work: Promise<T>, maxMs = 600_000): Promise<T> {
    let settled = false;
    const watched = work.finally(() => (settled = true));
    watched.catch(() => undefined);
    const limit = this.scheduler.now() + maxMs;
    await this.settle();
    while (!settled) {
      // Only the sim's own clockwork left queued: the work waits on real I/O (a file being closed), not on virtual
      // time, which must not race ahead meanwhile.
      if (this.scheduler.pending <= this.#timers.length) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        continue;
      }
      if (!this.scheduler.runNext(limit)) throw new Error(`virtual sim: the work did not finish within ${maxMs} ms of virtual time`);
      await this.settle();
    }
    return watched;
  }

  /**
   * The scheduler a component under test gets, telling `onFirstUse` when it first schedules something: a daemon
   * that is still loading its modules (real I/O) has not yet, and time must not move under it meanwhile.
   */
  watchedScheduler(onFirstUse: () => void): SchedulerLike {
    const s = this.scheduler;
    let told = false;
    return {
      now: () => s.now(),
      schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T) {
        if (!told) {
          told = true;
          onFirstUse();
        }
        return s.schedule(work, delay, state);
      },
    };
  }

  /** Stops the periodic work and the trade tape; the scheduler holds nothing of the sim's afterwards. */
  close(): void {
    for (const t of this.#timers) t.unsubscribe();
    for (const l of this.#limiters.values()) l.close();
    this.#handler.close();
  }

  #every(ms: number, fn: () => void): void {
    this.#timers.push(
      this.scheduler.schedule(function (this: SchedulerAction<unknown>) {
        fn();
        this.schedule(undefined, ms);
      }, ms),
    );
  }
}
