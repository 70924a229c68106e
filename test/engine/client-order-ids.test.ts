import { describe, expect, it } from 'vitest';
import { ClientOrderIds, ownsClientOrderId, prefixFor, runOf } from '../../src/engine/client-order-ids.js';
import { CLIENT_ORDER_ID_PATTERN } from '../../src/rules/index.js';

describe('client order ids', () => {
  it('are valid for the venue, prefixed per strategy, unique within a run', () => {
    const ids = new ClientOrderIds(1_700_000_000_000);
    const made = Array.from({ length: 2000 }, (_, i) => ids.next(i % 2 ? 'mm' : 'grid-1'));
    expect(new Set(made).size).toBe(made.length);
    for (const id of made) expect(CLIENT_ORDER_ID_PATTERN.test(id)).toBe(true);
  });

  it('stay unique across restarts even when the clock steps back (run restored from the journal)', () => {
    const first = new ClientOrderIds(2000);
    const a = first.next('mm');
    const second = new ClientOrderIds(1000, runOf(a));
    expect(second.run).toBe(2001);
    expect(second.next('mm')).not.toBe(a);
  });

  it('a prefix owns only its own ids (mm does not claim mm-2)', () => {
    const ids = new ClientOrderIds(5000);
    const own = ownsClientOrderId('mm');
    expect(own(ids.next('mm'))).toBe(true);
    expect(own(ids.next('mm-2'))).toBe(false);
    expect(ownsClientOrderId('mm-2')(ids.next('mm'))).toBe(false);
    expect(own('mm')).toBe(false);
  });

  it('derives prefixes from strategy ids', () => {
    expect(prefixFor('mm-btc')).toBe('mm-btc');
    expect(prefixFor('a-very-long-strategy-id')).toBe('a-very-long');
    expect(() => prefixFor('___')).toThrow(/prefix/);
  });
});
