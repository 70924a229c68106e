import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real, tiny file system for the disk-full tests: a tmpfs of `kib` KiB mounted on a fresh directory, filled so that
 * only `freeKib` KiB are left. Needs the right to mount (root, as CI runs); tests that need it skip when
 * `canMountTmpfs()` is false, and test/global-setup.ts prints the one line that says so.
 */
export interface TinyDisk {
  readonly dir: string;
  unmount(): void;
}

export function canMountTmpfs(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'tmpfs-probe-'));
  try {
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir], { stdio: 'ignore' }).status !== 0) return false;
    spawnSync('umount', [dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function mountTinyDisk(kib: number, freeKib: number): TinyDisk {
  const dir = mkdtempSync(join(tmpdir(), 'tiny-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cannot mount a tmpfs on ${dir}: ${r.stderr}`);
  writeFileSync(join(dir, 'filler'), Buffer.alloc((kib - freeKib) * 1024));
  return {
    dir,
    unmount: () => {
      spawnSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
