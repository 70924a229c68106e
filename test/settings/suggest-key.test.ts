import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/model/errors.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { parseYamlConfig } from '../../src/settings/load-yaml.js';
import { objectKeysAt } from '../../src/settings/schema-keys.js';
import { closestKey, editDistance, unknownKeyText } from '../../src/settings/suggest-key.js';

const message = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('closestKey (did you mean)', () => {
  it('counts a swapped pair as one edit and ignores case', () => {
    expect(editDistance('sprad', 'spread')).toBe(1);
    expect(editDistance('maxinventroy', 'maxinventory')).toBe(1);
    expect(editDistance('abc', 'xyz', 1)).toBe(2);
    expect(closestKey('sprad', ['size', 'spread', 'levels'])).toBe('spread');
    expect(closestKey('MaxLoss', ['maxLoss', 'maxOpenOrders'])).toBe('maxLoss');
    expect(closestKey('maxInventroy', ['maxInventory', 'maxLoss'])).toBe('maxInventory');
  });

  it('suggests nothing when no key is near or two are equally near', () => {
    expect(closestKey('zzz', ['spread', 'size'])).toBeUndefined();
    expect(closestKey('sze', ['size', 'sue'])).toBeUndefined();
    expect(unknownKeyText('zzz', ['spread'])).toBe('unknown key (not allowed here; check its spelling and indentation)');
    expect(unknownKeyText('sprad', ['spread'])).toBe('unknown key (did you mean `spread`?)');
  });

  it('reads the keys allowed at a path through defaults, arrays and the venue union (by its kind)', () => {
    expect(objectKeysAt(DaemonConfigSchema, ['polling'])).toContain('bookMs');
    expect(objectKeysAt(DaemonConfigSchema, ['strategies', 0, 'risk'])).toEqual(expect.arrayContaining(['maxOrderNotional', 'maxLoss', 'unlimited']));
    expect(objectKeysAt(DaemonConfigSchema, ['venue'], { kind: 'sim' })).not.toContain('apiKey');
    expect(objectKeysAt(DaemonConfigSchema, ['venue'], { kind: 'rest' })).toContain('apiKey');
    expect(objectKeysAt(z.string(), [])).toEqual([]);
  });
});

describe('unknown config keys say which key was meant', () => {
  it('a daemon config typo names the file, line, key path and the near key', () => {
    const text = 'venue: { kind: sim }\nstrategies: [{ id: a, use: grid, market: BTC_USDT, risk: { maxLos: 5 } }]\npolling: { bookMS: 100 }\n';
    const lines = message(() => parseYamlConfig(text, DaemonConfigSchema, 'x.yaml', {})).split('\n');
    expect(lines).toContain('x.yaml:2:60: strategies[0].risk.maxLos: unknown key (did you mean `maxLoss`?)');
    expect(lines).toContain('x.yaml:3:12: polling.bookMS: unknown key (did you mean `bookMs`?)');
  });

  it('a key of the other venue kind is not suggested', () => {
    const strategies = '\nstrategies: [{ id: a, use: grid, market: BTC_USDT, risk: { unlimited: true } }]\n';
    const sim = message(() => parseYamlConfig(`venue: { kind: sim, apiKy: x }${strategies}`, DaemonConfigSchema, 'x.yaml', {}));
    expect(sim).toMatch(/venue\.apiKy: unknown key \(not allowed here/);
    const rest = message(() => parseYamlConfig(`venue: { kind: rest, apiKy: x, apiKey: k, apiSecret: s }${strategies}`, DaemonConfigSchema, 'x.yaml', {}));
    expect(rest).toMatch(/venue\.apiKy: unknown key \(did you mean `apiKey`\?\)/);
  });
});
