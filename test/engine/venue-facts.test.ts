import { describe, expect, it } from 'vitest';
import { D } from '../../src/model/decimal.js';
import type { Deal } from '../../src/model/order.js';
import { dealtBy, provenByRecords } from '../../src/engine/venue-facts.js';
import { testDeal } from '../helpers/deal.js';

const deal = (id: number, time: number, amount: string, price = '100'): Deal => testDeal(id, amount, { time, price: D(price), clientOrderId: 'mm-1' });

describe('venue facts: what the deals prove', () => {
  it('a fill listed again under a new id (same time, amount and price) counts once: it proves no fill', () => {
    const listed = [deal(1989, 1_700_000_000.5, '0.002'), deal(1_000_000_000_009, 1_700_000_000.5, '0.002')];
    expect(dealtBy(listed).toFixed()).toBe('0.002');
    // two of 0.002 on an order of 0.004 would "prove" it filled while half of it still rests on the venue
    expect(provenByRecords(D('0.004'), { deals: listed })).toBeUndefined();
  });

  it('deals at other times, amounts or prices all count, malformed ones do not', () => {
    const listed = [deal(1, 10, '0.002'), deal(2, 11, '0.002'), deal(3, 10, '0.001'), deal(4, 10, '0.002', '101'), deal(5, 12, '-0.002')];
    expect(dealtBy(listed).toFixed()).toBe('0.007');
    expect(provenByRecords(D('0.007'), { deals: listed })).toBe('filled');
  });
});
