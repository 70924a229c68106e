import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/sim/ledger.js';
import { LedgerViews } from '../../backtest/replay/ledger-views.js';

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
          for (const [available, freeze] of cells) {
            const cell = ledger.cell('a', 'BTC');
            cell.available = available;
            cell.freeze = freeze;
            expect(views.totalNumber('BTC')).toBe(ledger.decimal(available + freeze).toNumber());
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
