import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/sim/ledger.js';
import { LedgerViews, unitsToNumber } from '../../backtest/replay/ledger-views.js';

describe('LedgerViews.totalNumber (the equity curve, every snapshot)', () => {
  it('property: the number ledger.decimal(available + freeze).toNumber() gives, through every change of the cell', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 18 }),
        fc.array(fc.tuple(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 20n })), { minLength: 1, maxLength: 8 }),
        (scale, cells) => {
          const ledger = new Ledger(['BTC'], scale);
          ledger.openAccount('a', {}, {});
          const views = new LedgerViews(ledger, 'a');
          // a handle made before any change (the lane makes its two at its start), read after each
          const handle = views.totalNumberOf('BTC');
          for (const [available, freeze] of cells) {
            const cell = ledger.cell('a', 'BTC');
            cell.available = available;
            cell.freeze = freeze;
            expect(views.totalNumber('BTC')).toBe(ledger.decimal(available + freeze).toNumber());
            expect(handle()).toBe(ledger.decimal(available + freeze).toNumber());
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('unitsToNumber (the equity curve after a fill)', () => {
  it('property (seeded): the double Number parses from the units scaled by text, below 2^53 and past it, at every scale', () => {
    const units = fc.oneof(
      fc.bigInt({ min: -(2n ** 53n) - 5n, max: 2n ** 53n + 5n }),
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
      fc.integer({ min: -1000, max: 1000 }).map(BigInt),
    );
    fc.assert(
      fc.property(units, fc.integer({ min: 0, max: 30 }), (u, scale) => {
        expect(Object.is(unitsToNumber(u, scale), Number(`${u}e-${scale}`))).toBe(true);
      }),
      { numRuns: 20000, seed: 33 },
    );
  });
});

describe('LedgerViews.tradeBalances (the balances poll)', () => {
  it('property (seeded): the values ledger.tradeBalances gives, through changes that return parts to earlier values', () => {
    // a few values per part, so parts come back to the value before and the one before that
    const part = fc.constantFrom(0n, 1n, 250_000_000n, 10n ** 14n + 7n, 2n ** 60n);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.tuple(fc.constantFrom('BTC', 'USDT'), part, part), { minLength: 1, maxLength: 12 }),
        (scale, changes) => {
          const ledger = new Ledger(['BTC', 'USDT'], scale);
          ledger.openAccount('a', {}, {});
          const views = new LedgerViews(ledger, 'a');
          const text = (b: ReturnType<Ledger['tradeBalances']>) =>
            Object.entries(b).map(([k, v]) => `${k} ${v.available.toFixed()} ${v.freeze.toFixed()} ${v.available.e}/${v.freeze.e}`);
          expect(text(views.tradeBalances())).toEqual(text(ledger.tradeBalances('a')));
          for (const [asset, available, freeze] of changes) {
            const cell = ledger.cell('a', asset);
            cell.available = available;
            cell.freeze = freeze;
            expect(text(views.tradeBalances())).toEqual(text(ledger.tradeBalances('a')));
          }
        },
      ),
      { numRuns: 2000, seed: 33 },
    );
  });
});
