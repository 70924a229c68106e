import { lstatSync, mkdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { ConfigError } from '../model/errors.js';

/**
 * Every file path a config or a command names goes through here before it is opened, created or renamed: the
 * daemon renames its journal aside, truncates a torn journal tail and appends to its log, so a path that is a
 * device (`/dev/null`), a FIFO (an open that never returns), a directory or a kernel file (`/proc/...`) must be
 * refused before anything touches it. Checks use lstat (nothing is opened); a symlink counts as what it points to.
 * Missing parent folders are created one level at a time, a bounded walk: a recursive mkdir under /proc was seen
 * spinning for minutes, deaf to SIGTERM.
 */

/** Where a path came from, for the message: `config/x.yaml: journal.path: ...` or `--out: ...`. */
export interface PathSource {
  /** The config file that names the path; absent for a command-line option. */
  readonly configFile?: string;
  /** The key (`journal.path`, `venue.sim.file`) or the option (`--out`). */
  readonly key: string;
  /** Relative paths resolve against this. Default: the current directory. */
  readonly cwd?: string;
  /** Create missing folders (default true); false only checks that they could be made (`bot check` changes nothing). */
  readonly createFolders?: boolean;
}

/** Kernel and device trees: nothing there is a file the daemon may own, wherever a symlink points from. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

/** Folders created for one path at most: a path deeper than this is refused rather than walked. */
const MAX_NEW_FOLDERS = 32;

/**
 * A file the caller will create, append to, truncate or rename: absent, or a regular file (or a symlink to one),
 * outside /proc, /sys and /dev, in a folder (created when missing). Returns the absolute path.
 */
export function checkWritableFile(path: string, source: PathSource): string {
  const abs = resolve(source.cwd ?? process.cwd(), path);
  const fail = (why: string, cause?: unknown): never => {
    throw new ConfigError(`${prefix(source)}${path}${abs === path ? '' : ` (${abs})`} ${why}`, cause === undefined ? {} : { cause });
  };
  refuseSystemTree(abs, fail);
  const st = lstatOrUndefined(abs, fail);
  if (st !== undefined) {
    const target = st.isSymbolicLink() ? statOrUndefined(abs, fail) : st;
    if (target === undefined) return fail('is a dangling symlink (expected a regular file or a new file)');
    if (!target.isFile())
      fail(
        `is ${kindOf(target)}${st.isSymbolicLink() ? ' (through a symlink)' : ''}: expected a regular file (the bot creates, appends to and renames only files it owns)`,
      );
    return abs;
  }
  ensureFolder(dirname(abs), fail, source.createFolders !== false);
  return abs;
}

/**
 * A file the caller will read whole: a regular file (or a symlink to one) outside /proc, /sys and /dev. A FIFO
 * or a device would block the read or never end. Returns the absolute path.
 */
export function checkReadableFile(path: string, source: PathSource): string {
  const abs = resolve(source.cwd ?? process.cwd(), path);
  const fail = (why: string, cause?: unknown): never => {
    throw new ConfigError(`${prefix(source)}${path}${abs === path ? '' : ` (${abs})`} ${why}`, cause === undefined ? {} : { cause });
  };
  refuseSystemTree(abs, fail);
  const st = statOrUndefined(abs, fail);
  if (st === undefined) return fail('does not exist (no such file)');
  if (!st.isFile()) fail(`is ${kindOf(st)}: expected a regular file`);
  return abs;
}

/** A folder the caller will write files into (a report directory): absent (created) or a folder. */
export function checkWritableFolder(path: string, source: PathSource): string {
  const abs = resolve(source.cwd ?? process.cwd(), path);
  const fail = (why: string, cause?: unknown): never => {
    throw new ConfigError(`${prefix(source)}${path}${abs === path ? '' : ` (${abs})`} ${why}`, cause === undefined ? {} : { cause });
  };
  refuseSystemTree(abs, fail);
  ensureFolder(abs, fail, source.createFolders !== false);
  return abs;
}

function prefix(source: PathSource): string {
  return `${source.configFile === undefined ? '' : `${source.configFile}: `}${source.key}: `;
}

type Fail = (why: string, cause?: unknown) => never;

/** The path as the kernel will see it: the deepest existing ancestor resolved through its symlinks, then the rest. */
function refuseSystemTree(abs: string, fail: Fail): void {
  const inTree = (p: string): string | undefined => SYSTEM_TREES.find((t) => p === t || p.startsWith(`${t}${sep}`));
  const named = inTree(abs);
  if (named !== undefined) fail(`is under ${named}: a system folder, not a place for the bot's files`);
  let existing = abs;
  const rest: string[] = [];
  for (let i = 0; i < 256 && lstatOrUndefined(existing, fail) === undefined; i++) {
    const parent = dirname(existing);
    if (parent === existing) break;
    rest.unshift(existing.slice(parent.length).replace(/^[/\\]/, ''));
    existing = parent;
  }
  let real: string;
  try {
    real = join(realpathSync(existing), ...rest);
  } catch {
    return; // an unreadable link is reported by the checks that follow
  }
  const tree = inTree(real);
  if (tree !== undefined) fail(`resolves to ${real}, under ${tree}: a system folder, not a place for the bot's files`);
}

/** Creates `folder` and its missing parents one level at a time (with `create`); an ancestor that is not a folder is an error. */
function ensureFolder(folder: string, fail: Fail, create: boolean): void {
  const missing: string[] = [];
  let at = folder;
  for (;;) {
    const st = statOrUndefined(at, fail);
    if (st !== undefined) {
      if (!st.isDirectory()) fail(`cannot be created: ${at} is ${kindOf(st)}, not a folder`);
      break;
    }
    if (missing.length >= MAX_NEW_FOLDERS) fail(`would need more than ${MAX_NEW_FOLDERS} new folders`);
    missing.unshift(at);
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  if (!create) return;
  for (const m of missing) {
    try {
      mkdirSync(m);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statOrUndefined(m, fail)?.isDirectory() === true) continue;
      fail(`cannot be created: cannot make the folder ${m} (${describeCode(code, error)})`, error);
    }
  }
}

function lstatOrUndefined(p: string, fail: Fail): Stats | undefined {
  return statWith(lstatSync, p, fail);
}

function statOrUndefined(p: string, fail: Fail): Stats | undefined {
  return statWith(statSync, p, fail);
}

function statWith(fn: (p: string) => Stats, p: string, fail: Fail): Stats | undefined {
  try {
    return fn(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') return fail(`cannot be used: a folder on its way is a file (${notDirAncestor(p)})`, error);
    return fail(`cannot be checked (${describeCode(code, error)})`, error);
  }
}

/** The first ancestor of `p` that exists and is not a folder (what ENOTDIR is about). */
function notDirAncestor(p: string): string {
  const parts: string[] = [];
  for (let at = dirname(p); at !== dirname(at); at = dirname(at)) parts.unshift(at);
  for (const at of parts) {
    try {
      if (!statSync(at).isDirectory()) return `${at} is a file`;
    } catch {
      break;
    }
  }
  return 'ENOTDIR';
}

export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symlink';
  return 'a regular file';
}

function describeCode(code: string | undefined, error: unknown): string {
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ELOOP') return 'too many symlinks';
  if (code === 'ENAMETOOLONG') return 'name too long';
  return code ?? (error instanceof Error ? error.message : String(error));
}
