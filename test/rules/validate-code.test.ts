import { describe, expect, it } from 'vitest';
import { validateCodeAmount } from '../../src/rules/index.js';

describe('validateCodeAmount', () => {
  it.each([
    ['1', []],
    ['0.00000001', []],
    [2.5, []],
    ['1.50000000000', []],
    [undefined, ['The amount field is required.']],
    ['', ['The amount field is required.']],
    ['ten', ['The amount must be a number.']],
    [{}, ['The amount must be a number.']],
    ['0', ['The amount must be greater than 0.']],
    ['-1', ['The amount must be greater than 0.']],
    ['0.000000001', ['The amount may have at most 8 decimal places.']],
    ['1.123456789', ['The amount may have at most 8 decimal places.']],
  ])('%j → %j', (amount, messages) => {
    const got = validateCodeAmount(amount);
    expect(got.map((x) => x.message)).toEqual(messages);
    for (const x of got) expect([x.code, x.field]).toEqual([0, 'amount']);
  });
});
