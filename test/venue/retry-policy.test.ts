import { describe, expect, it } from 'vitest';
import {
  InnerValidationError,
  MalformedResponseError,
  NetworkError,
  NonceError,
  OutcomeUnknownError,
  RateLimitedError,
  RequestValidationError,
  TimeoutError,
  UnavailableError,
  type VenueError,
} from '../../src/venue/errors.js';
import { countFailure, NONCE_RETRIES, retryDelay, surfacedError, type CallPolicy } from '../../src/venue/retry-policy.js';

const R = { limit: 3, rateLimitBaseMs: 1000, networkBaseMs: 250, maxMs: 30_000, jitter: 0 };
const ctx = { endpoint: '/api/v4/order/new' };
const zero = { retries: 0, rateLimited: 0, nonce: 0 };
const errors: Record<string, () => VenueError> = {
  network: () => new NetworkError('reset', ctx),
  timeout: () => new TimeoutError('late', ctx),
  unavailable: () => new UnavailableError('503', { ...ctx, status: 503 }),
  malformed: () => new MalformedResponseError('html', { ...ctx, status: 200 }),
  rateLimited: () => new RateLimitedError('429', { ...ctx, status: 429 }),
  nonce: () => new NonceError('Too many requests.', { ...ctx, status: 400 }),
  validation: () => new RequestValidationError('bad', { ...ctx, status: 422 }),
  inner: () => new InnerValidationError('no money', { ...ctx, status: 400 }),
};

describe('retry policy', () => {
  it.each<[string, CallPolicy, number | undefined]>([
    ['network', 'read', 250],
    ['timeout', 'read', 250],
    ['unavailable', 'read', 250],
    ['malformed', 'read', undefined],
    ['rateLimited', 'read', 1000],
    ['nonce', 'read', 0],
    ['validation', 'read', undefined],
    ['network', 'create', undefined],
    ['timeout', 'create', undefined],
    ['unavailable', 'create', undefined],
    ['malformed', 'create', undefined],
    ['rateLimited', 'create', 1000],
    ['nonce', 'create', 0],
    ['inner', 'create', undefined],
    ['unavailable', 'once', undefined],
    ['rateLimited', 'once', 1000],
  ])('%s on a %s call: first retry delay %s', (kind, policy, delay) => {
    expect(retryDelay(errors[kind]!(), policy, zero, R)).toBe(delay);
  });

  it('backs off doubling per failure and stops at the limit; nonce refusals have their own budget', () => {
    let count = zero;
    const delays: (number | undefined)[] = [];
    for (let i = 0; i < 4; i++) {
      const e = errors.rateLimited!();
      delays.push(retryDelay(e, 'read', count, R));
      count = countFailure(e, count);
    }
    expect(delays).toEqual([1000, 2000, 4000, undefined]);
    expect(retryDelay(errors.nonce!(), 'create', { ...zero, retries: 3 }, R)).toBe(0);
    expect(retryDelay(errors.nonce!(), 'create', { ...zero, nonce: NONCE_RETRIES }, R)).toBeUndefined();
  });

  it('order creation surfaces uncertain failures as OutcomeUnknownError, certain ones as they are', () => {
    for (const kind of ['network', 'timeout', 'unavailable', 'malformed']) {
      const cause = errors[kind]!();
      const e = surfacedError(cause, 'create', '/api/v4/order/new', 'cid-1');
      expect(e).toBeInstanceOf(OutcomeUnknownError);
      expect((e as OutcomeUnknownError).clientOrderId).toBe('cid-1');
      expect(e.cause).toBe(cause);
      expect(surfacedError(cause, 'read', '/x', '')).toBe(cause);
      expect(surfacedError(cause, 'once', '/x', '')).toBe(cause);
    }
    for (const kind of ['rateLimited', 'validation', 'inner', 'nonce']) {
      const cause = errors[kind]!();
      expect(surfacedError(cause, 'create', '/api/v4/order/new', 'cid-1')).toBe(cause);
    }
  });
});
