import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'compiled-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `bot backtest` of the sample, from the build in `dist` (or, with an empty `dist`, from the sources: no build is made). */
function backtest(dist: string, out: string): { stderr: string; report: { lanes: unknown[]; band: unknown } } {
  const r = spawnSync(process.execPath, ['bin/bot.js', 'backtest', 'config/backtest.yaml', '--out', out, '--no-progress', '--no-cache'], {
    cwd: repo,
    env: { ...process.env, BOT_DIST_DIR: dist, BOT_TRACE_ENTRY: '1', BOT_AUTO_BUILD: '0' },
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { lanes: unknown[]; band: unknown };
  return { stderr: r.stderr, report };
}

describe('npm run build: bin/bot.js runs the compiled JavaScript when it is fresh, the sources otherwise (BOT_AUTO_BUILD=0)', () => {
  it('a backtest from the build (its second lane on a compiled worker) reports exactly what one from the sources does', () => {
    const dist = join(dir, 'dist');
    const built = execFileSync(process.execPath, ['bin/build.js', '--out', dist], { cwd: repo, encoding: 'utf8' });
    expect(built).toMatch(/^built \d+ modules into /);
    const fromBuild = backtest(dist, join(dir, 'out-build'));
    expect(fromBuild.stderr).toContain(`running the build in ${dist}`);
    const fromSources = backtest(join(dir, 'no-build'), join(dir, 'out-sources'));
    expect(fromSources.stderr).toContain('running the TypeScript sources (tsx)');
    expect(fromBuild.report.lanes).toEqual(fromSources.report.lanes);
    expect(fromBuild.report.band).toEqual(fromSources.report.band);
  }, 120_000);
});
