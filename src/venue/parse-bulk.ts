import { z } from 'zod';
import type { BulkPlaceResult } from './bulk-records.js';
import { InnerValidationError, RequestValidationError, type VenueError } from './errors.js';
import { parseOrder } from './parse-order.js';
import { parseShape } from './parse-shape.js';

/** The venue's per-order error: its `{code, message, errors}` body, or (older docs) a bare message string. */
const itemError = z.union([z.object({ code: z.number().int(), message: z.string(), errors: z.record(z.string(), z.array(z.string())).nullish() }), z.string()]);

const bulkSchema = z.array(z.object({ result: z.unknown().optional(), error: itemError.nullish() }));

/**
 * The bulk answer, one result per requested order (`requestedIds[i]` = the client order id of orders[i],
 * '' when none). Exact mapping, nothing lost or doubled:
 * - an item with an order record whose client order id is the one asked for → `placed`;
 * - an item with an error and no record → `rejected` (the venue refused that order for sure);
 * - no item for an order (the answer is shorter), an item with neither or both, or a record naming another
 *   client order id → `unknown` (reconcile, never resubmit);
 * an answer with MORE items than orders, or items of the wrong shape, is malformed (every order then unknown
 * by the caller's rule for a malformed answer).
 *
 * With `stopOnFail`, the orders after the first failure were not processed: `rejected` (not placed) instead of unknown.
 */
export function parseBulkResults(raw: unknown, requestedIds: readonly string[], endpoint: string, stopOnFail = false): BulkPlaceResult[] {
  const items = parseShape(bulkSchema, raw, endpoint, 'list of bulk order results');
  if (items.length > requestedIds.length) {
    parseShape(z.array(z.unknown()).max(requestedIds.length), raw, endpoint, 'list of bulk order results (one per order)');
  }
  let failed = false;
  return requestedIds.map((id, i): BulkPlaceResult => {
    const item = items[i];
    if (item === undefined) {
      if (stopOnFail && failed) return { status: 'rejected', error: notProcessed(endpoint) };
      return { status: 'unknown', reason: `${endpoint}: the answer has no result for order ${i + 1}` };
    }
    const hasResult = item.result !== undefined && item.result !== null;
    const hasError = item.error !== undefined && item.error !== null;
    if (hasResult === hasError)
      return { status: 'unknown', reason: `${endpoint}: result ${i + 1} has ${hasResult ? 'both a record and an error' : 'neither a record nor an error'}` };
    if (hasError) {
      failed = true;
      return { status: 'rejected', error: itemVenueError(item.error!, endpoint) };
    }
    const order = parseOrder(item.result, endpoint);
    if (id !== '' && order.clientOrderId !== id) return { status: 'unknown', reason: `${endpoint}: result ${i + 1} names another client order id` };
    return { status: 'placed', order };
  });
}

/** Codes 30-37 are request validation (422 on order/new); anything else an inner (business) refusal. */
function itemVenueError(e: z.output<typeof itemError>, endpoint: string): VenueError {
  if (typeof e === 'string') return new InnerValidationError(`${endpoint}: ${e}`, { endpoint });
  const errors = e.errors ?? {};
  const ctx = { endpoint, venueCode: e.code, errors };
  if (e.code >= 30 && e.code <= 37) return new RequestValidationError(`${endpoint}: ${e.message}`, { ...ctx, status: 422 });
  return new InnerValidationError(`${endpoint}: ${e.message}`, { ...ctx, status: 400 });
}

function notProcessed(endpoint: string): VenueError {
  return new InnerValidationError(`${endpoint}: not processed (stopOnFail after an earlier order failed)`, { endpoint });
}
