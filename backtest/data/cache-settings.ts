/**
 * Where the recording cache lives and whether it is used: `$XDG_CACHE_HOME/v4-trader`, else
 * `~/.cache/v4-trader` (never next to the data, which may be read-only). `bot backtest --cache DIR` /
 * `--no-cache` pass their own options down (runBacktest's `cache`, then the DataFeed's).
 * Debug messages (why a file is not cached, a damaged cache rebuilt) go to stderr with `DEBUG=v4-trader:cache`
 * (or any DEBUG naming v4-trader), or to the `log` given here.
 */
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

export interface RecordingCacheSettings {
  /** Cache directory; undefined = no cache (read the text every time, build nothing). */
  readonly dir: string | undefined;
  readonly log: (message: string) => void;
  /** Lines per cache block (default BLOCK_EVENTS); tests make it small to cross many block boundaries. */
  readonly blockEvents?: number;
}

export interface RecordingCacheOptions {
  /** A directory, or false for no cache. Default: `defaultCacheDir()`. */
  readonly dir?: string | false;
  readonly log?: (message: string) => void;
  readonly blockEvents?: number;
}

/** The default cache directory of this environment. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env['XDG_CACHE_HOME'];
  return join(xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache'), 'v4-trader');
}

function defaultLog(env: NodeJS.ProcessEnv = process.env): (message: string) => void {
  return /v4-trader/.test(env['DEBUG'] ?? '') ? (m) => process.stderr.write(`v4-trader:cache ${m}\n`) : () => undefined;
}

/** The effective settings: `options`, else the defaults. */
export function recordingCacheSettings(options: RecordingCacheOptions = {}): RecordingCacheSettings {
  // Under the test runner the cache is off unless a test asks for it: tests must not leave caches of their
  // temporary recordings in the user's home, and each test states which path (text or cache) it exercises.
  const dir = options.dir ?? (process.env['VITEST'] !== undefined ? false : defaultCacheDir());
  const blockEvents = options.blockEvents;
  return { dir: dir === false ? undefined : dir, log: options.log ?? defaultLog(), ...(blockEvents === undefined ? {} : { blockEvents }) };
}
