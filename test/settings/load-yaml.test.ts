import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../../src/model/errors.js';
import { zIntLike, zPositiveDecimal } from '../../src/settings/decimal-schema.js';
import { loadYamlConfig, parseYamlConfig } from '../../src/settings/load-yaml.js';

const schema = z.strictObject({
  venue: z.strictObject({ url: z.string(), apiSecret: z.string(), port: zIntLike.default(8080) }),
  strategies: z.array(
    z.strictObject({
      name: z.enum(['market-maker', 'grid']),
      params: z.strictObject({ spread: zPositiveDecimal, levels: z.number().int().min(1) }),
    }),
  ),
});

const good = `venue:
  url: http://127.0.0.1:9000
  apiSecret: \${BOT_SECRET}
strategies:
  - name: market-maker
    params:
      spread: 0.002
      levels: 3
`;
const env = { BOT_SECRET: 'shh-very-secret-value' };

/** The ConfigError thrown by `fn`, or a failure when nothing is thrown. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

const dir = mkdtempSync(path.join(tmpdir(), 'settings-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string): string => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('loadYamlConfig', () => {
  it('returns the typed, interpolated value', () => {
    const cfg = loadYamlConfig(file('good.yaml', good), schema, env);
    expect(cfg.venue).toEqual({ url: 'http://127.0.0.1:9000', apiSecret: 'shh-very-secret-value', port: 8080 });
    expect(cfg.strategies[0]?.params.spread.toFixed()).toBe('0.002');
  });

  it('names the file when it cannot be read', () => {
    const missing = path.join(dir, 'nope.yaml');
    const e = configError(() => loadYamlConfig(missing, schema, env));
    expect(e.message).toBe(`${missing}: cannot read config file (no such file)`);
    expect(e.code).toBe('ERR_CONFIG');
  });

  it('wrong type: file:line:col, path, expected and got', () => {
    const p = file('type.yaml', good.replace('levels: 3', 'levels: three'));
    expect(configError(() => loadYamlConfig(p, schema, env)).message).toBe(`${p}:8:15: strategies[0].params.levels: expected a number, got a string`);
  });

  it('missing key points at the mapping it belongs in', () => {
    const p = file('missing.yaml', good.replace('      spread: 0.002\n', ''));
    expect(configError(() => loadYamlConfig(p, schema, env)).message).toBe(
      `${p}:7:7: strategies[0].params.spread: missing (expected a decimal greater than 0)`,
    );
  });

  it('unknown key in a strict object, with the near key when there is one', () => {
    const p = file('unknown.yaml', good.replace('levels: 3', 'levels: 3\n      sprad: 1\n      colour: 2'));
    expect(configError(() => loadYamlConfig(p, schema, env)).message).toBe(
      [
        `${p}:9:7: strategies[0].params.sprad: unknown key (did you mean \`spread\`?)`,
        `${p}:10:7: strategies[0].params.colour: unknown key (not allowed here; check its spelling and indentation)`,
      ].join('\n'),
    );
  });

  it('a YAML alias bomb is refused with the file named (was a bare error, exit 1)', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      levels.push(`${name}: &${name} [${Array.from({ length: 9 }, () => `*${prev}`).join(', ')}]`);
    }
    const p = file('bomb.yaml', `${levels.join('\n')}\n`);
    expect(configError(() => loadYamlConfig(p, schema, env)).message).toBe(
      `${p}: YAML: too many aliases (an alias that expands into a huge document is refused)`,
    );
  });

  it('bad YAML gives file:line:col', () => {
    const p = file('syntax.yaml', 'venue:\n  url: [1, 2\nstrategies: []\n');
    expect(configError(() => loadYamlConfig(p, schema, env)).message).toMatch(
      new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+: YAML syntax error: `),
    );
  });

  it('duplicate keys are a syntax error with their position', () => {
    expect(configError(() => parseYamlConfig('a: 1\na: 2\n', z.object({ a: z.number() }), 'dup.yaml')).message).toBe(
      'dup.yaml:2:1: YAML syntax error: Map keys must be unique',
    );
  });

  it('reports every issue, one line each, enum values shown', () => {
    const text = good.replace('market-maker', 'market_maker').replace('spread: 0.002', 'spread: -1').replace('url: http://127.0.0.1:9000', 'url: 5');
    const lines = configError(() => parseYamlConfig(text, schema, 'c.yaml', env)).message.split('\n');
    expect(lines).toEqual([
      'c.yaml:2:8: venue.url: expected a string, got an integer',
      'c.yaml:5:11: strategies[0].name: expected "market-maker" | "grid", got "market_maker"',
      'c.yaml:7:15: strategies[0].params.spread: expected a decimal greater than 0, got -1',
    ]);
  });

  it('an empty file says so', () => {
    expect(configError(() => parseYamlConfig('', schema, 'e.yaml', env)).message).toBe('e.yaml: (root): the file is empty (expected a mapping, got null)');
  });

  it('never shows the value of a secret-looking key, nor an interpolated secret', () => {
    const s = z.strictObject({ apiSecret: z.enum(['a', 'b']), port: z.number() });
    const msg = configError(() => parseYamlConfig('apiSecret: ${S}\nport: ${S}\n', s, 's.yaml', { S: 'hunter2-secret' })).message;
    expect(msg).toContain('s.yaml:1:12: apiSecret: expected "a" | "b", got a string');
    expect(msg).toContain('s.yaml:2:7: port: expected a number, got a string');
    expect(msg).not.toContain('hunter2');
  });

  it('keeps decimals exact when a JS number could not hold them', () => {
    const s = z.strictObject({ spread: zPositiveDecimal, big: z.unknown(), small: z.number() });
    const cfg = parseYamlConfig('spread: 0.123456789012345678901\nbig: 123456789012345678901\nsmall: 0.25\n', s, 'x.yaml', {});
    expect(cfg.spread.toFixed()).toBe('0.123456789012345678901');
    expect(cfg.big).toBe('123456789012345678901');
    expect(cfg.small).toBe(0.25);
  });

  it('explains a discriminated union mismatch', () => {
    const s = z.strictObject({
      feed: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('sim') }), z.strictObject({ kind: z.literal('rest'), url: z.string() })]),
    });
    expect(configError(() => parseYamlConfig('feed:\n  kind: ws\n', s, 'u.yaml', {})).message).toBe('u.yaml:2:9: feed.kind: expected "sim" | "rest", got "ws"');
    expect(configError(() => parseYamlConfig('feed:\n  kind: rest\n', s, 'u.yaml', {})).message).toBe('u.yaml:2:3: feed.url: missing (expected a string)');
  });
});

describe('environment interpolation', () => {
  const s = z.strictObject({ a: z.string(), list: z.array(z.string()).optional(), port: zIntLike.optional() });
  const parse = (text: string, e: NodeJS.ProcessEnv) => parseYamlConfig(text, s, 'env.yaml', e);

  it.each<[string, NodeJS.ProcessEnv, string]>([
    ['a: ${X}', { X: 'v' }, 'v'],
    ['a: pre-${X}-post', { X: 'v' }, 'pre-v-post'],
    ['a: ${X:-fallback}', {}, 'fallback'],
    ['a: ${X:-fallback}', { X: '' }, 'fallback'],
    ['a: ${X:-}', {}, ''],
    ['a: ${X}', { X: '' }, ''],
    ['a: "$${X}"', {}, '${X}'],
    ['a: ${X}${Y:-2}', { X: '1' }, '12'],
    ['a: "${X:-http://127.0.0.1:8080/x}"', {}, 'http://127.0.0.1:8080/x'],
  ])('%s with %j → %s', (text, e, expected) => {
    expect(parse(text, e).a).toBe(expected);
  });

  it('interpolates inside lists and turns numeric strings into numbers where the schema allows it', () => {
    expect(parse('a: x\nlist: ["${A}", b]\nport: ${P:-8081}\n', { A: 'aa' })).toEqual({ a: 'x', list: ['aa', 'b'], port: 8081 });
  });

  it('names every missing variable with its path and position', () => {
    expect(configError(() => parse('a: ${NOPE}\nlist:\n  - ${ALSO_NOPE}\n', {})).message.split('\n')).toEqual([
      'env.yaml:1:4: a: environment variable NOPE is not set and has no default (write ${NOPE:-default} to give one)',
      'env.yaml:3:5: list[0]: environment variable ALSO_NOPE is not set and has no default (write ${ALSO_NOPE:-default} to give one)',
    ]);
  });

  it('rejects a malformed reference', () => {
    expect(configError(() => parse('a: ${1X}\n', {})).message).toBe(
      'env.yaml:1:4: a: malformed variable reference "${1X}" (expected ${NAME} or ${NAME:-default})',
    );
  });

  it('does not interpolate keys', () => {
    const loose = z.record(z.string(), z.string());
    expect(parseYamlConfig('"${K}": v\n', loose, 'k.yaml', { K: 'key' })).toEqual({ '${K}': 'v' });
  });
});
