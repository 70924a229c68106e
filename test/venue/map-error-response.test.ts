import { describe, expect, it } from 'vitest';
import {
  AuthError,
  InnerValidationError,
  MalformedResponseError,
  NonceError,
  PublicApiError,
  RateLimitedError,
  RequestValidationError,
  UnavailableError,
} from '../../src/venue/errors.js';
import { mapErrorResponse } from '../../src/venue/map-error-response.js';

const j = (v: unknown): string => JSON.stringify(v);
const ORDER = '/api/v4/order/new';
const CODES = '/api/v4/main-account/codes';

describe('mapErrorResponse', () => {
  it.each([
    [
      422,
      j({ code: 30, message: 'Validation failed', errors: { total: ['Total(amount * price) is less than 5.05'] } }),
      ORDER,
      'trading',
      RequestValidationError,
      true,
    ],
    [400, j({ code: 10, message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } }), ORDER, 'trading', InnerValidationError, true],
    [400, j({ code: 0, message: 'Validation failed', errors: { amount: ['x'] } }), CODES, 'mainAccount', RequestValidationError, true],
    [422, j({ code: 5, message: 'Inner validation failed', errors: { amount: ['Not enough balance.'] } }), CODES, 'mainAccount', InnerValidationError, true],
    [401, j({ code: 10, message: 'Unauthorized request.', errors: {} }), ORDER, 'trading', AuthError, true],
    [401, j({ code: 0, message: 'Payload not provided.', errors: {} }), ORDER, 'trading', AuthError, true],
    [400, j({ code: 9, message: 'Invalid payload.', errors: {} }), ORDER, 'trading', AuthError, true],
    [403, j({ code: 0, message: "You don't have permission to use this endpoint." }), CODES, 'mainAccount', AuthError, true],
    [400, j({ code: 0, message: 'Too many requests.', errors: {} }), ORDER, 'trading', NonceError, true],
    [400, j({ code: 0, message: 'Your nonce is more than 5 seconds lesser than the current nonce', errors: {} }), ORDER, 'trading', NonceError, true],
    [429, 'Too Many Requests', ORDER, 'trading', RateLimitedError, true],
    [503, '<html>maintenance</html>', ORDER, 'trading', UnavailableError, false],
    [500, j({ code: 1, message: 'boom' }), ORDER, 'trading', UnavailableError, false],
    [422, j({ success: false, message: 'Market is not available.', params: [] }), '/api/v4/public/orderbook', 'public', PublicApiError, true],
    [422, j({ market: ['Market is not available.'] }), '/api/v4/public/orderbook', 'public', PublicApiError, true],
    [404, '', '/api/v4/public/nope', 'public', PublicApiError, true],
    [404, '', ORDER, 'trading', RequestValidationError, true],
    [400, '<html>bad gateway</html>', ORDER, 'trading', MalformedResponseError, false],
  ] as const)('HTTP %i %s on %s → %s', (status, body, endpoint, family, Type, rejected) => {
    const e = mapErrorResponse(status, body, endpoint, family);
    expect(e).toBeInstanceOf(Type);
    expect(e.endpoint).toBe(endpoint);
    expect(e.status).toBe(status);
    expect(e.rejected).toBe(rejected);
  });

  it('keeps the venue code and errors map', () => {
    const e = mapErrorResponse(422, j({ code: 36, message: 'Validation failed', errors: { client_order_id: ['taken'] } }), ORDER, 'trading');
    expect(e.venueCode).toBe(36);
    expect(e.errors).toEqual({ client_order_id: ['taken'] });
    const flat = mapErrorResponse(422, j({ market: ['Market is not available.'] }), '/api/v4/public/orderbook', 'public');
    expect(flat.message).toMatch(/Market is not available/);
    expect(flat.errors).toEqual({ market: ['Market is not available.'] });
  });
});
