import { z } from 'zod';
import { PATHS } from '../../venue/wire.js';
import type { FaultConfig } from './faults.js';
import { GARBAGE_KINDS } from './garbage-answers.js';
import { ABSURD_BOOKS, ANSWER_CONTRADICTIONS, DEAL_CORRUPTIONS, RECORD_CORRUPTIONS } from './lie-config.js';

/**
 * YAML form of the fault injection config (`bot sim --faults FILE`), e.g.
 *   seed: 3
 *   endpoints:
 *     orderNew: { error5xx: 0.05, dropAfterAccept: 0.05, latencyMs: [20, 200] }
 *     "*": { latencyMs: 10 }
 * and the chaos harness's kinds: spike/spikeMs, timeout/timeoutMs, burst429/burstMs, garbage/garbageKinds/dripMs.
 *
 * `lies` (the lying venue: it acts truthfully, answers wrongly; lie-config.ts), e.g.
 *   lies:
 *     hiddenOpenOrders: { probability: 0.03, forMs: 16000 }     # per order accepted: left out of `orders` answers
 *     duplicateDeals: { probability: 0.05 }                     # per deal: also reported under a new id
 *     corruptDeals: { probability: 0.05, forMs: 3000, variants: [negative-amount, zero-price, negative-price, negative-fee] }
 *     contradictingAnswers: { probability: 0.03, recordProbability: 0.002 }   # creation answers / listed and cancelled records
 *     absurdBook: { perMinute: 0.5, forMs: 6000, variants: [ask-under-bid, times-10, huge] }   # episodes per minute and market
 *     crossedBook: { perMinute: 0.5, forMs: 3000, crossBy: 0.001 }
 *     frozenBook: { perMinute: 0.3, forMs: 12000 }
 *     bookOutage: { perMinute: 0.2, forMs: 20000, markets: [BTC_USDT] }
 */
const probability = z.number().min(0).max(1);
const latency = z.union([z.number().min(0), z.tuple([z.number().min(0), z.number().min(0)])]);
const endpointNames = [...(Object.keys(PATHS) as Array<keyof typeof PATHS>), '*'] as const;
const ms = z.number().min(0);
const bookLie = { perMinute: z.number().min(0), forMs: ms, markets: z.array(z.string().min(1)).optional() };

const LiesSchema = z.strictObject({
  seed: z.number().int().optional(),
  hiddenOpenOrders: z.strictObject({ probability, forMs: ms.optional() }).optional(),
  duplicateDeals: z.strictObject({ probability }).optional(),
  corruptDeals: z.strictObject({ probability, forMs: ms.optional(), variants: z.array(z.enum(DEAL_CORRUPTIONS)).optional() }).optional(),
  contradictingAnswers: z
    .strictObject({
      probability: probability.optional(),
      recordProbability: probability.optional(),
      variants: z.array(z.enum([...ANSWER_CONTRADICTIONS, ...RECORD_CORRUPTIONS])).optional(),
    })
    .optional(),
  absurdBook: z.strictObject({ ...bookLie, variants: z.array(z.enum(ABSURD_BOOKS)).optional() }).optional(),
  crossedBook: z.strictObject({ ...bookLie, crossBy: z.number().gt(0).lt(1).optional() }).optional(),
  frozenBook: z.strictObject(bookLie).optional(),
  bookOutage: z.strictObject(bookLie).optional(),
});

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
  lies: LiesSchema.optional(),
}) satisfies z.ZodType<FaultConfig>;
