import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PayloadSigner, signPayload } from '../../src/venue/signing.js';

describe('signPayload', () => {
  it('gives the known check value of exchange-facts §1', () => {
    const body = '{"request":"/api/v4/order/new","nonce":"1700000000000","nonceWindow":false,"market":"BTC_USDT","side":"buy","amount":"0.01","price":"30000"}';
    const { payload, signature } = signPayload(body, 's');
    expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(body);
    expect(signature).toBe('ac3fe0a34a8002a196ee9ac6d965410b896c6c71fe3d4579ef6a6a0e964a8ba465c37e542c5573b6a7bc984da56ed12994a1ed54df8ab6e3871b0f11573ce446');
  });

  it('signs the Base64 payload, so another secret or body gives another signature', () => {
    const a = signPayload('{"a":1}', 'k1');
    expect(signPayload('{"a":1}', 'k2').signature).not.toBe(a.signature);
    expect(signPayload('{"a":2}', 'k1').signature).not.toBe(a.signature);
    expect(a.payload).toBe('eyJhIjoxfQ==');
    expect(a.signature).toMatch(/^[0-9a-f]{128}$/);
  });
});

describe('PayloadSigner', () => {
  it('gives exactly what signPayload gives, for any secret (also longer than a SHA-512 block) and body', () => {
    // secrets of 1..300 utf-8 bytes cross the 128-byte block where the key is hashed first
    const secret = fc.oneof(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ unit: 'binary', minLength: 1, maxLength: 150 }));
    const body = fc.oneof(fc.string({ maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 200 }));
    fc.assert(
      fc.property(secret, fc.array(body, { minLength: 1, maxLength: 3 }), (s, bodies) => {
        const signer = new PayloadSigner(s);
        for (const b of bodies) expect(signer.sign(b)).toEqual(signPayload(b, s));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps to the known check value, and block-size edges of the key', () => {
    const body = '{"request":"/api/v4/order/new","nonce":"1700000000000","nonceWindow":false,"market":"BTC_USDT","side":"buy","amount":"0.01","price":"30000"}';
    expect(new PayloadSigner('s').sign(body).signature).toBe(signPayload(body, 's').signature);
    for (const n of [127, 128, 129, 256, 300]) {
      const s = 'k'.repeat(n - 2) + 'é'; // n bytes of utf-8
      expect(new PayloadSigner(s).sign(body)).toEqual(signPayload(body, s));
    }
  });
});
