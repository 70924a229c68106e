import { z } from 'zod';
import { PATHS } from '../../venue/wire.js';
import type { FaultConfig } from './faults.js';
import { GARBAGE_KINDS } from './garbage-answers.js';

/**
 * YAML form of the fault injection config (`bot sim --faults FILE`), e.g.
 *   seed: 3
 *   endpoints:
 *     orderNew: { error5xx: 0.05, dropAfterAccept: 0.05, latencyMs: [20, 200] }
 *     "*": { latencyMs: 10 }
 * and the chaos harness's kinds: spike/spikeMs, timeout/timeoutMs, burst429/burstMs, garbage/garbageKinds/dripMs.
 */
const probability = z.number().min(0).max(1);
const latency = z.union([z.number().min(0), z.tuple([z.number().min(0), z.number().min(0)])]);
const endpointNames = [...(Object.keys(PATHS) as Array<keyof typeof PATHS>), '*'] as const;

export const FaultConfigSchema = z.strictObject({
  seed: z.number().int().optional(),
  endpoints: z
    .partialRecord(
      z.enum(endpointNames),
      z.strictObject({
        error5xx: probability.optional(),
        dropAfterAccept: probability.optional(),
        latencyMs: latency.optional(),
        latencyProbability: probability.optional(),
        spike: probability.optional(),
        spikeMs: latency.optional(),
        timeout: probability.optional(),
        timeoutMs: z.number().min(0).optional(),
        burst429: probability.optional(),
        burstMs: z.number().min(0).optional(),
        garbage: probability.optional(),
        garbageKinds: z.array(z.enum(GARBAGE_KINDS)).optional(),
        dripMs: latency.optional(),
      }),
    )
    .optional(),
}) satisfies z.ZodType<FaultConfig>;
