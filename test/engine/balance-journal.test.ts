import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Balances } from '../../src/model/balance.js';
import { Decimal } from '../../src/model/decimal.js';
import { journalBalances } from '../../src/engine/journal-records.js';
import { sameBalanceValues } from '../../src/engine/runtime.js';

/** Amounts written several ways for one value ("1.5", "1.50", "15e-1"), and zeros of both signs. */
const amount = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 3 }))
    .map(([m, k, z]) => new Decimal(`${m}${'0'.repeat(z)}e-${k + z}`)),
  fc.constantFrom('0', '-0', '1', '1.0', '0.1', '0.10').map((s) => new Decimal(s)),
);
const record = fc.record({ available: amount, freeze: amount });
const balances = fc.dictionary(fc.constantFrom('BTC', 'ETH', 'USDT', 'EUR'), record, { maxKeys: 4 });

describe('the balance journal: a poll is journalled when its journal form would change', () => {
  it('property: sameBalanceValues is "the journal records would be the same text", without formatting', () => {
    // b made from a entry by entry: the very record, the same values as new Decimals written otherwise, or one of the
    // two amounts changed; sometimes an entry dropped, sometimes the order reversed, sometimes an unrelated b
    const edit = fc.constantFrom('same', 'rewritten', 'available', 'freeze');
    const rewrite = (x: Decimal) => new Decimal(x.isZero() ? '0.000' : `${x.toFixed()}${x.toFixed().includes('.') ? '0' : '.0'}`);
    fc.assert(
      fc.property(
        balances,
        fc.array(edit, { minLength: 4, maxLength: 4 }),
        amount,
        fc.constantFrom('keep', 'drop', 'reverse', 'other'),
        balances,
        (a, edits, other, shape, unrelated) => {
          let entries = Object.entries(a).map(([k, v], i): [string, { available: Decimal; freeze: Decimal }] => {
            const e = edits[i]!;
            if (e === 'same') return [k, v];
            if (e === 'rewritten') return [k, { available: rewrite(v.available), freeze: rewrite(v.freeze) }];
            return [k, e === 'available' ? { available: other, freeze: v.freeze } : { available: v.available, freeze: other }];
          });
          if (shape === 'drop') entries = entries.slice(1);
          if (shape === 'reverse') entries = entries.reverse();
          const b: Balances = shape === 'other' ? unrelated : Object.fromEntries(entries);
          expect(sameBalanceValues(a, b)).toBe(JSON.stringify(journalBalances(a)) === JSON.stringify(journalBalances(b)));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('tells a reordering of the tickers apart (the journal form changes with it)', () => {
    const one = { available: new Decimal(1), freeze: new Decimal(0) };
    expect(sameBalanceValues({ BTC: one, USDT: one }, { USDT: one, BTC: one })).toBe(false);
    expect(sameBalanceValues({ BTC: one }, { BTC: { available: new Decimal('1.000'), freeze: new Decimal('-0') } })).toBe(true);
  });
});
