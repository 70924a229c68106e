import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkReadableFile, checkWritableFile, checkWritableFolder } from '../../src/settings/file-paths.js';
import { refusal } from '../helpers/config-refusal.js';

const dir = mkdtempSync(join(tmpdir(), 'file-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const source = { configFile: 'cfg.yaml', key: 'journal.path', cwd: dir };

describe('checkWritableFile: only regular files the bot can own (issue 24)', () => {
  it('refuses /dev/null and leaves it alone', () => {
    expect(refusal(() => checkWritableFile('/dev/null', source))).toBe(
      "cfg.yaml: journal.path: /dev/null is under /dev: a system folder, not a place for the bot's files",
    );
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('refuses a directory', () => {
    mkdirSync(join(dir, 'a-dir'));
    expect(refusal(() => checkWritableFile('a-dir', source))).toMatch(/^cfg\.yaml: journal\.path: a-dir \(.*a-dir\) is a directory: expected a regular file/);
  });

  it('refuses a FIFO without opening it (an open would block for good)', () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(() => checkWritableFile(fifo, source))).toMatch(/is a FIFO \(named pipe\): expected a regular file/);
    expect(refusal(() => checkReadableFile(fifo, { ...source, key: 'venue.sim.file' }))).toMatch(/^cfg\.yaml: venue\.sim\.file: .* is a FIFO/);
  });

  it('refuses a path whose parent is a file', () => {
    writeFileSync(join(dir, 'plain'), '');
    expect(refusal(() => checkWritableFile('plain/j.jsonl', source))).toMatch(
      /^cfg\.yaml: journal\.path: plain\/j\.jsonl .* a folder on its way is a file \(.*plain is a file\)/,
    );
  });

  it('refuses /proc/1/nope/j.jsonl at once, and a symlink into /dev', () => {
    expect(refusal(() => checkWritableFile('/proc/1/nope/j.jsonl', source))).toMatch(/is under \/proc/);
    expect(refusal(() => checkWritableFile('/sys/x', source))).toMatch(/is under \/sys/);
    symlinkSync('/dev/null', join(dir, 'null-link'));
    expect(refusal(() => checkWritableFile('null-link', source))).toMatch(/resolves to \/dev\/null, under \/dev/);
    symlinkSync('/proc/self', join(dir, 'proc-link'));
    expect(refusal(() => checkWritableFile('proc-link/new/j.jsonl', source))).toMatch(/under \/proc/);
  });

  it('accepts a new file, creating its folders level by level, and an existing regular file or a symlink to one', () => {
    const path = checkWritableFile('deep/er/j.jsonl', source);
    expect(path).toBe(join(dir, 'deep/er/j.jsonl'));
    expect(statSync(join(dir, 'deep/er')).isDirectory()).toBe(true);
    expect(existsSync(path)).toBe(false);
    writeFileSync(join(dir, 'real.jsonl'), '');
    symlinkSync(join(dir, 'real.jsonl'), join(dir, 'link.jsonl'));
    expect(checkWritableFile('real.jsonl', source)).toBe(join(dir, 'real.jsonl'));
    expect(checkWritableFile('link.jsonl', source)).toBe(join(dir, 'link.jsonl'));
  });

  it('names an option when no config file is involved; folders and readable files too', () => {
    expect(refusal(() => checkWritableFile('/dev/full', { key: '--out' }))).toMatch(/^--out: \/dev\/full is under \/dev/);
    expect(refusal(() => checkWritableFolder('plain', { key: '--out', cwd: dir }))).toMatch(
      /^--out: plain .* cannot be created: .*plain is a regular file, not a folder/,
    );
    expect(refusal(() => checkReadableFile('missing.yaml', { configFile: 'cfg.yaml', key: 'venue.sim.file', cwd: dir }))).toMatch(
      /^cfg\.yaml: venue\.sim\.file: missing\.yaml .* does not exist/,
    );
  });
});
