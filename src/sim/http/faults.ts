import type { EndpointName } from '../../venue/wire.js';
import { createPrng } from '../prng.js';
import { GARBAGE_KINDS, type GarbageKind } from './garbage-answers.js';
import type { LieConfig } from './lie-config.js';

/**
 * Fault injection (issue 3 item 6; widened for the chaos harness, issue 15), off by default. Per endpoint
 * (or `'*'` for every endpoint):
 * - `error5xx`: probability of answering 503 with a non-JSON body WITHOUT acting;
 * - `dropAfterAccept`: probability of acting (e.g. accepting the order) and then destroying the
 *   socket without an answer, the case a client must reconcile as "outcome unknown";
 * - `latencyMs` (+ `latencyProbability`, default 1): added delay before acting;
 * - `spike` + `spikeMs`: probability of a latency spike (a further delay drawn from `spikeMs`);
 * - `timeout` + `timeoutMs`: probability of holding the request for `timeoutMs` (meant to be past the
 *   client's deadline) and THEN acting: the venue processes a request its client has given up on;
 * - `burst429` + `burstMs`: probability that a burst of 429 answers starts; for `burstMs` every request
 *   to the endpoint is answered 429 without acting (what a venue under load does);
 * - `garbage` + `garbageKinds`: probability of acting and then answering garbage of one of the kinds
 *   (HTML, truncated JSON, wrong types, NaN, 1e400, a 200 with an error object, an empty body, a slow drip);
 *   `dripMs`: how long a drip takes to send the whole body.
 * Decisions come from a seeded PRNG so a failing test replays the same faults. A field left out draws no
 * number, so adding one to a config does not move the others' decisions.
 */
export interface EndpointFaults {
  readonly error5xx?: number | undefined;
  readonly dropAfterAccept?: number | undefined;
  readonly latencyMs?: number | readonly [min: number, max: number] | undefined;
  readonly latencyProbability?: number | undefined;
  readonly spike?: number | undefined;
  readonly spikeMs?: number | readonly [min: number, max: number] | undefined;
  readonly timeout?: number | undefined;
  readonly timeoutMs?: number | undefined;
  readonly burst429?: number | undefined;
  readonly burstMs?: number | undefined;
  readonly garbage?: number | undefined;
  readonly garbageKinds?: readonly GarbageKind[] | undefined;
  readonly dripMs?: number | readonly [min: number, max: number] | undefined;
}

export interface FaultConfig {
  /** PRNG seed; default 1. */
  readonly seed?: number | undefined;
  readonly endpoints?: Partial<Record<EndpointName | '*', EndpointFaults>> | undefined;
  /** The lying venue (lie-config.ts, venue-lies.ts): acts truthfully, answers wrongly in well-formed JSON. */
  readonly lies?: LieConfig | undefined;
}

export interface FaultPlan {
  readonly fail5xx: boolean;
  readonly drop: boolean;
  /** Delay before acting (latency, spike, timeout hold), ms. */
  readonly delayMs: number;
  /** Answer 429 without acting (a burst is on). */
  readonly tooMany?: true;
  /** Act, then answer this kind of garbage. */
  readonly garbage?: GarbageKind;
  /** For a `drip`: the time over which the body is sent, ms. */
  readonly dripMs?: number;
  /** Which faults were decided, for the sim's counters (e.g. `timeout`, `spike`). */
  readonly labels?: readonly string[];
}

const NO_FAULT: FaultPlan = { fail5xx: false, drop: false, delayMs: 0 };
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_BURST_MS = 2_000;
const DEFAULT_DRIP_MS: readonly [number, number] = [1_000, 8_000];

export class FaultInjector {
  readonly #config: FaultConfig;
  readonly #random: () => number;
  /** End of the 429 burst per endpoint, in the injector's clock. */
  readonly #burstUntil = new Map<string, number>();
  readonly #clock: () => number;
  #enabled = true;

  constructor(config: FaultConfig = {}, clock: () => number = Date.now) {
    for (const [name, faults] of Object.entries(config.endpoints ?? {})) validateFaults(name, faults);
    this.#config = config;
    this.#clock = clock;
    const prng = createPrng(config.seed ?? 1);
    this.#random = () => prng.next();
  }

  /** Turns every fault off (or back on): the chaos harness stops the faults before its final reconciliation. */
  setEnabled(enabled: boolean): void {
    this.#enabled = enabled;
    if (!enabled) this.#burstUntil.clear();
  }

  get enabled(): boolean {
    return this.#enabled;
  }

  /** Decides the faults of one request to `endpoint`. */
  plan(endpoint: EndpointName): FaultPlan {
    if (!this.#enabled) return NO_FAULT;
    const key = this.#config.endpoints?.[endpoint] !== undefined ? endpoint : '*';
    const faults = this.#config.endpoints?.[key];
    if (faults === undefined) return NO_FAULT;
    const burstKey = `${endpoint}`;
    if ((this.#burstUntil.get(burstKey) ?? 0) > this.#clock()) return { fail5xx: false, drop: false, delayMs: 0, tooMany: true, labels: ['429'] };
    if (this.#roll(faults.burst429)) {
      this.#burstUntil.set(burstKey, this.#clock() + (faults.burstMs ?? DEFAULT_BURST_MS));
      return { fail5xx: false, drop: false, delayMs: 0, tooMany: true, labels: ['429'] };
    }
    const fail5xx = this.#roll(faults.error5xx);
    const drop = !fail5xx && this.#roll(faults.dropAfterAccept);
    const labels: string[] = [];
    if (fail5xx) labels.push('503');
    if (drop) labels.push('drop');
    let delayMs = 0;
    if (faults.latencyMs !== undefined && this.#roll(faults.latencyProbability ?? 1)) delayMs += this.#between(faults.latencyMs);
    if (faults.spike !== undefined && this.#roll(faults.spike)) {
      delayMs += this.#between(faults.spikeMs ?? [500, 3000]);
      labels.push('spike');
    }
    if (faults.timeout !== undefined && this.#roll(faults.timeout)) {
      delayMs += faults.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      labels.push('timeout');
    }
    let garbage: GarbageKind | undefined;
    let dripMs: number | undefined;
    if (!fail5xx && !drop && faults.garbage !== undefined && this.#roll(faults.garbage)) {
      const kinds = faults.garbageKinds ?? GARBAGE_KINDS;
      garbage = kinds[Math.floor(this.#random() * kinds.length)] ?? 'html';
      if (garbage === 'drip') dripMs = this.#between(faults.dripMs ?? DEFAULT_DRIP_MS);
      labels.push(`garbage:${garbage}`);
    }
    if (labels.length === 0) return { fail5xx, drop, delayMs };
    return { fail5xx, drop, delayMs, ...(garbage !== undefined ? { garbage } : {}), ...(dripMs !== undefined ? { dripMs } : {}), labels };
  }

  /** One draw of the injector's seeded PRNG (garbage bodies use it, so a seed replays them too). */
  draw(): number {
    return this.#random();
  }

  /** A uniform draw between the bounds (a number is both bounds). */
  #between(bounds: number | readonly [number, number]): number {
    const [min, max] = typeof bounds === 'number' ? [bounds, bounds] : bounds;
    return Math.round(min + (max - min) * this.#random());
  }

  #roll(probability: number | undefined): boolean {
    if (probability === undefined || probability <= 0) return false;
    return this.#random() < probability;
  }
}

function validateFaults(name: string, faults: EndpointFaults | undefined): void {
  if (faults === undefined) return;
  for (const key of ['error5xx', 'dropAfterAccept', 'latencyProbability', 'spike', 'timeout', 'burst429', 'garbage'] as const) {
    const p = faults[key];
    if (p !== undefined && !(p >= 0 && p <= 1)) throw new RangeError(`faults.endpoints.${name}.${key} must be a probability in [0, 1], got ${p}`);
  }
  for (const key of ['latencyMs', 'spikeMs', 'timeoutMs', 'burstMs', 'dripMs'] as const) {
    const value = faults[key];
    const bounds = typeof value === 'number' ? [value] : (value ?? []);
    for (const ms of bounds) {
      if (!(ms >= 0 && Number.isFinite(ms))) throw new RangeError(`faults.endpoints.${name}.${key} must be >= 0 ms, got ${ms}`);
    }
  }
  for (const kind of faults.garbageKinds ?? []) {
    if (!GARBAGE_KINDS.includes(kind))
      throw new RangeError(`faults.endpoints.${name}.garbageKinds: unknown kind '${kind}' (known: ${GARBAGE_KINDS.join(', ')})`);
  }
}
