import { describe, expect, it } from 'vitest';
import { NonceCheck } from '../../src/sim/http/nonce-check.js';

describe('NonceCheck', () => {
  it('strict mode: each nonce must be larger than the last accepted one for the key', () => {
    const n = new NonceCheck();
    expect(n.accept('k', '100', false, 0)).toBe('ok');
    expect(n.accept('k', '100', false, 0)).toBe('not-increasing');
    expect(n.accept('k', '99', false, 0)).toBe('not-increasing');
    expect(n.accept('k', '101', false, 0)).toBe('ok');
    expect(n.accept('other', '1', false, 0)).toBe('ok');
  });

  it('rejects absent or non-numeric nonces as missing', () => {
    const n = new NonceCheck();
    for (const bad of [undefined, null, '', 'abc', '1.5', -1, {}]) expect(n.accept('k', bad, false, 0)).toBe('missing');
  });

  it('compares long digit strings exactly (no float rounding)', () => {
    const n = new NonceCheck();
    expect(n.accept('k', '90071992547409930', false, 0)).toBe('ok');
    expect(n.accept('k', '90071992547409931', false, 0)).toBe('ok');
  });

  it('window mode: within ±5 s of server time and unique, in any order', () => {
    const n = new NonceCheck();
    const now = 1_700_000_000_000;
    expect(n.accept('k', String(now + 10), true, now)).toBe('ok');
    expect(n.accept('k', String(now - 10), true, now)).toBe('ok');
    expect(n.accept('k', String(now - 10), true, now)).toBe('not-increasing');
    expect(n.accept('k', String(now - 5_001), true, now)).toBe('out-of-window');
    expect(n.accept('k', String(now + 5_001), true, now)).toBe('out-of-window');
    expect(n.accept('k', String(now + 5_000), true, now)).toBe('ok');
  });
});
