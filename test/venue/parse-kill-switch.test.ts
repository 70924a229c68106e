import { describe, expect, it } from 'vitest';
import { MalformedResponseError } from '../../src/venue/errors.js';
import { parseKillSwitch, parseKillSwitchStatus } from '../../src/venue/parse-kill-switch.js';

describe('kill-switch parsers', () => {
  const docs = { market: 'BTC_USDT', startTime: 1662478154, cancellationTime: 1662478214, types: ['spot', 'margin'] };

  it('reads the docs example, and the snake_case spelling and digit strings alike', () => {
    const want = { market: 'BTC_USDT', startTime: 1662478154, cancellationTime: 1662478214, types: ['spot', 'margin'] };
    expect(parseKillSwitch(docs)).toEqual(want);
    expect(parseKillSwitch({ market: 'BTC_USDT', start_time: '1662478154', cancellation_time: 1662478214, types: ['spot', 'margin'] })).toEqual(want);
    expect(parseKillSwitchStatus([docs])).toEqual([want]);
    expect(parseKillSwitchStatus([])).toEqual([]);
  });

  it('types absent or null mean every type', () => {
    expect(parseKillSwitch({ ...docs, types: null })?.types).toEqual(['spot', 'margin', 'futures']);
    const { types: _, ...noTypes } = docs;
    expect(parseKillSwitch(noTypes)?.types).toEqual(['spot', 'margin', 'futures']);
  });

  it('a deletion answer without a timer is null; a broken timer or an unknown shape is a typed error', () => {
    for (const raw of [[], {}, null, undefined, true]) expect(parseKillSwitch(raw)).toBeNull();
    expect(() => parseKillSwitch({ market: 'BTC_USDT', startTime: 'soon' })).toThrow(MalformedResponseError);
    expect(() => parseKillSwitch({ ...docs, types: ['options'] })).toThrow(MalformedResponseError);
    expect(() => parseKillSwitch(['x'])).toThrow(MalformedResponseError);
    expect(() => parseKillSwitch(42)).toThrow(MalformedResponseError);
    expect(() => parseKillSwitchStatus(docs)).toThrow(MalformedResponseError);
  });
});
