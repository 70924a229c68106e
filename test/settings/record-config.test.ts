import { describe, expect, it } from 'vitest';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { parseYamlConfig } from '../../src/settings/load-yaml.js';
import { recordFileOf } from '../../src/settings/record-config.js';
import { refusal } from '../helpers/config-refusal.js';

const parse = (record: string) =>
  parseYamlConfig(`venue: { kind: sim }\nstrategies: [{ id: mm, use: market-maker, market: BTC_USDT }]\nrecord: ${record}\n`, DaemonConfigSchema, 'r.yaml', {});

describe('record: in the daemon config', () => {
  it('takes a folder and an optional rotation by size (bytes, or k/M/G) and by UTC day', () => {
    expect(parse('{ path: var/rec }').record).toEqual({ path: 'var/rec' });
    expect(parse('{ path: var/rec, rotate: { maxBytes: 50M, daily: true } }').record?.rotate).toEqual({ maxBytes: 52_428_800, daily: true });
    expect(parse('{ path: var/rec, rotate: { maxBytes: 1048576 } }').record?.rotate).toEqual({ maxBytes: 1_048_576 });
    expect(parse('{ path: var/rec, rotate: { maxBytes: 10k } }').record?.rotate).toEqual({ maxBytes: 10_240 });
    expect(
      parseYamlConfig(`venue: { kind: sim }\nstrategies: [{ id: mm, use: grid, market: BTC_USDT }]\n`, DaemonConfigSchema, 'r.yaml', {}).record,
    ).toBeUndefined();
  });

  it('refuses a bad one with the key path and what was expected', () => {
    expect(refusal(() => parse('{}'))).toMatch(/record\.path/);
    expect(refusal(() => parse('{ path: var/rec, rotate: { maxBytes: 0 } }'))).toMatch(
      /record\.rotate\.maxBytes: expected a size such as 50M or 1048576 \(bytes\), got 0/,
    );
    expect(refusal(() => parse('{ path: var/rec, rotate: { maxBytes: 5 MB } }'))).toMatch(/record\.rotate\.maxBytes: expected a size such as 50M .*got "5 MB"/);
    expect(refusal(() => parse('{ path: var/rec, rotate: { daily: yes } }'))).toMatch(/record\.rotate\.daily/);
    expect(refusal(() => parse('{ path: var/rec, rotate: { maxBytes: 1M, hourly: true } }'))).toMatch(/record\.rotate\.hourly: unknown key/);
  });

  it('names a file when path ends in .gz (the market before the suffix for several markets), else a folder of one file per market', () => {
    expect(recordFileOf('/v/session.jsonl.gz', 'BTC_USDT', 1)).toBe('/v/session.jsonl.gz');
    expect(recordFileOf('/v/session.jsonl.gz', 'ETH_USDT', 2)).toBe('/v/session.ETH_USDT.jsonl.gz');
    expect(recordFileOf('/v/session.gz', 'ETH_USDT', 2)).toBe('/v/session.ETH_USDT.gz');
    expect(recordFileOf('/v/recordings', 'BTC_USDT', 1)).toBe('/v/recordings/BTC_USDT.jsonl.gz');
    expect(recordFileOf('/v/recordings/', 'BTC_USDT', 2)).toBe('/v/recordings/BTC_USDT.jsonl.gz');
  });
});
