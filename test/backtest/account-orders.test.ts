import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AccountOrders, type VirtualOrder } from '../../backtest/replay/account-orders.js';
import type { Deal } from '../../src/model/order.js';
import { makeDeal } from '../streams/fake-api.js';

const deal = (id: number, market: string, clientOrderId: string): Deal => ({ ...makeDeal(id, id, market), clientOrderId });

/** The venue's semantics spelt out: newest first, filtered, then offset and limit. */
function naive(
  all: readonly Deal[],
  q: { market?: string | undefined; clientOrderId?: string | undefined; offset?: number | undefined; limit?: number | undefined },
): Deal[] {
  return [...all]
    .reverse()
    .filter((d) => (q.market === undefined || d.market === q.market) && (q.clientOrderId === undefined || d.clientOrderId === q.clientOrderId))
    .slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 100));
}

describe('AccountOrders deals', () => {
  it('property: every query (market, client order id, offset, limit) answers as the venue pages the history, between and after appends', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('deal' as const), market: fc.constantFrom('A_B', 'C_D'), client: fc.constantFrom('', 'x', 'y', 'z') }),
      fc.record({
        kind: fc.constant('query' as const),
        market: fc.option(fc.constantFrom('A_B', 'C_D'), { nil: undefined }),
        clientOrderId: fc.option(fc.constantFrom('', 'x', 'y', 'w'), { nil: undefined }),
        offset: fc.option(fc.integer({ min: 0, max: 6 }), { nil: undefined }),
        limit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const account = new AccountOrders();
        const all: Deal[] = [];
        for (const o of ops) {
          if (o.kind === 'deal') {
            const d = deal(all.length + 1, o.market, o.client);
            all.push(d);
            account.addDeal(d);
          } else {
            const q = { market: o.market, clientOrderId: o.clientOrderId, offset: o.offset, limit: o.limit };
            const page = account.deals(q);
            expect(page.map((d) => d.id)).toEqual(naive(all, q).map((d) => d.id));
            // asked again with nothing new: the very same frozen page
            expect(Object.isFrozen(page)).toBe(true);
            expect(account.deals(q)).toBe(page);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('AccountOrders deals cache', () => {
  it("a look-up of one order's deals between two polls keeps the poll's page (the very same array)", () => {
    const account = new AccountOrders();
    for (let i = 1; i <= 5; i++) account.addDeal(deal(i, 'A_B', i % 2 === 0 ? 'x' : 'y'));
    const poll = { market: 'A_B', offset: 0, limit: 3 };
    const page = account.deals(poll);
    expect(account.deals({ market: 'A_B', clientOrderId: 'x', limit: 100 }).map((d) => d.id)).toEqual([4, 2]);
    expect(account.deals(poll)).toBe(page);
    account.addDeal(deal(6, 'C_D', 'x'));
    account.addDeal(deal(7, 'A_B', 'x'));
    expect(account.deals(poll).map((d) => d.id)).toEqual([7, 5, 4]);
  });
});

describe('AccountOrders deals, the poll', () => {
  it('property: the same first-page query asked between appends and look-ups answers as the venue pages the history', () => {
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom('A_B', 'C_D'), { nil: undefined }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.oneof(fc.constantFrom('A_B', 'C_D'), fc.constant('look-up')), { maxLength: 40 }),
        (market, limit, ops) => {
          const account = new AccountOrders();
          const all: Deal[] = [];
          const poll = { market, offset: 0, limit };
          for (const o of ops) {
            if (o === 'look-up') account.deals({ market, clientOrderId: 'x', limit: 100 });
            else {
              const d = deal(all.length + 1, o, all.length % 2 === 0 ? 'x' : 'y');
              all.push(d);
              account.addDeal(d);
            }
            expect(account.deals(poll).map((d) => d.id)).toEqual(naive(all, poll).map((d) => d.id));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('AccountOrders client order ids', () => {
  it('property: an id is used exactly when an order with it was added, however often it was asked about before', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('ask' as const), id: fc.constantFrom('a', 'b', 'c') }),
      fc.record({ kind: fc.constant('add' as const), id: fc.constantFrom('a', 'b', 'c', '') }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const account = new AccountOrders();
        const added = new Set<string>();
        let n = 0;
        for (const o of ops) {
          if (o.kind === 'ask') expect(account.isClientOrderIdUsed(o.id)).toBe(added.has(o.id));
          else {
            n += 1;
            account.add(orderWithId(n, o.id));
            if (o.id !== '') added.add(o.id);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Just enough of a venue-side order for the account's id bookkeeping (the rest is never read here). */
function orderWithId(id: number, clientOrderId: string): VirtualOrder {
  return { id, clientOrderId, market: 'A_B' } as unknown as VirtualOrder;
}
