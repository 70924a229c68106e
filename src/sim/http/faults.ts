import type { EndpointName } from '../../venue/wire.js';
import { createPrng } from '../prng.js';

/**
 * Fault injection (issue 3 item 6), off by default. Per endpoint (or `'*'` for every endpoint):
 * - `error5xx`: probability of answering 503 with a non-JSON body WITHOUT acting;
 * - `dropAfterAccept`: probability of acting (e.g. accepting the order) and then destroying the
 *   socket without an answer, the case a client must reconcile as "outcome unknown";
 * - `latencyMs` (+ `latencyProbability`, default 1): added delay before the answer.
 * Decisions come from a seeded PRNG so a failing test replays the same faults.
 */
export interface EndpointFaults {
  readonly error5xx?: number;
  readonly dropAfterAccept?: number;
  readonly latencyMs?: number | readonly [min: number, max: number];
  readonly latencyProbability?: number;
}

export interface FaultConfig {
  /** PRNG seed; default 1. */
  readonly seed?: number;
  readonly endpoints?: Partial<Record<EndpointName | '*', EndpointFaults>>;
}

export interface FaultPlan {
  readonly fail5xx: boolean;
  readonly drop: boolean;
  readonly delayMs: number;
}

const NO_FAULT: FaultPlan = { fail5xx: false, drop: false, delayMs: 0 };

export class FaultInjector {
  readonly #config: FaultConfig;
  readonly #random: () => number;

  constructor(config: FaultConfig = {}) {
    for (const [name, faults] of Object.entries(config.endpoints ?? {})) validateFaults(name, faults);
    this.#config = config;
    const prng = createPrng(config.seed ?? 1);
    this.#random = () => prng.next();
  }

  /** Decides the faults of one request to `endpoint`. */
  plan(endpoint: EndpointName): FaultPlan {
    const faults = this.#config.endpoints?.[endpoint] ?? this.#config.endpoints?.['*'];
    if (faults === undefined) return NO_FAULT;
    const fail5xx = this.#roll(faults.error5xx);
    const drop = !fail5xx && this.#roll(faults.dropAfterAccept);
    let delayMs = 0;
    if (faults.latencyMs !== undefined && this.#roll(faults.latencyProbability ?? 1)) {
      const [min, max] = typeof faults.latencyMs === 'number' ? [faults.latencyMs, faults.latencyMs] : faults.latencyMs;
      delayMs = Math.round(min + (max - min) * this.#random());
    }
    return { fail5xx, drop, delayMs };
  }

  #roll(probability: number | undefined): boolean {
    if (probability === undefined || probability <= 0) return false;
    return this.#random() < probability;
  }
}

function validateFaults(name: string, faults: EndpointFaults | undefined): void {
  if (faults === undefined) return;
  for (const key of ['error5xx', 'dropAfterAccept', 'latencyProbability'] as const) {
    const p = faults[key];
    if (p !== undefined && !(p >= 0 && p <= 1)) throw new RangeError(`faults.endpoints.${name}.${key} must be a probability in [0, 1], got ${p}`);
  }
  const latency = faults.latencyMs;
  const bounds = typeof latency === 'number' ? [latency] : (latency ?? []);
  for (const ms of bounds) {
    if (!(ms >= 0 && Number.isFinite(ms))) throw new RangeError(`faults.endpoints.${name}.latencyMs must be >= 0 ms, got ${ms}`);
  }
}
