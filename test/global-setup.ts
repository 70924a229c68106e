import { execFileSync } from 'node:child_process';
import { canMountTmpfs } from './helpers/tiny-disk.js';
import { buildForTests } from './setup/build-once.js';
import { makeRunDir } from './setup/run-dir.js';

/** Where a real external program is looked up: PATH, as the tests that start it do. */
function onPath(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs once before the suite. Tests that need a real redis-server or Chromium skip themselves when it is
 * missing; this prints the one visible line that says so, with the install command. It also builds the sources once
 * for the children the tests start (setup/build-once.ts), makes the run's scratch directory (setup/run-dir.ts) and
 * returns the teardown that removes both.
 */
export default function setup(): () => void {
  const missing: string[] = [];
  if (!onPath('redis-server')) missing.push('redis-server (BullMQ sweep tests)');
  if (!onPath('chromium') && !onPath('chromium-browser')) missing.push('chromium (browser tests: the dashboard, parity.html)');
  if (missing.length > 0) {
    process.stdout.write(
      `SKIPPED: tests needing ${missing.join(' and ')}: not on PATH; install with: apt-get install redis-server chromium\n`,
    );
  }
  if (!canMountTmpfs()) process.stdout.write('SKIPPED: the disk-full daemon test (it mounts a tiny tmpfs, which needs root)\n');
  const removeRunDir = makeRunDir();
  const removeBuild = buildForTests();
  return () => {
    removeBuild?.();
    removeRunDir();
  };
}
