import { spawn } from 'node:child_process';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { checkBacktestLimits, resolveStrategies } from '../../backtest/run-from-config.js';
import { BacktestConfigSchema } from '../../backtest/backtest-config.js';
import { describeError, exitCodeFor } from '../../src/cli/exit-codes.js';
import { DaemonConfigSchema } from '../../src/settings/daemon-config.js';
import { checkDaemonFiles } from '../../src/settings/daemon-files.js';
import { checkLimitTickers } from '../../src/settings/limit-tickers.js';
import { loadYamlConfig } from '../../src/settings/load-yaml.js';
import { loadSimConfigFile } from '../../src/sim/load-sim-config-file.js';
import { embeddedSimConfig } from '../../src/sim/embedded-sim-config.js';
import { loadStrategy, parseParams } from '../../src/strategy/load-strategy.js';
import { builtinStrategies } from '../../strategies/index.js';
import type { ConfigKind } from './config-mutations.js';

/** How a config ended, as a user sees it: the exit code and what was printed on stderr. */
export interface Outcome {
  readonly exit: number;
  readonly stderr: string;
  /** The child was stopped by the check after it ran a while (a valid config runs until stopped). */
  readonly ranUntilStopped?: boolean;
}

/**
 * The loaders a config meets before any network (what `bot run`, `bot backtest` and `bot sim --config` do
 * first: the daemon's file paths too, and the maxInventory tickers where the markets are known without a venue),
 * in-process, with the CLI's own error printer (`bot: <message>`, exit code by error class).
 */
export async function checkInProcess(kind: ConfigKind, file: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  try {
    if (kind === 'sim') loadSimConfigFile(file, env);
    else if (kind === 'backtest') {
      const cfg = loadYamlConfig(file, BacktestConfigSchema, env);
      const strategies = await resolveStrategies(cfg, cwd, file);
      await checkBacktestLimits(
        cfg,
        cfg.data.map((f) => (isAbsolute(f) ? f : join(dirname(file), f))),
        file,
      );
      // with the `where` the backtest itself gives the runtime
      for (const s of strategies) parseParams(s.definition, s.params, s.where ?? 'strategies.params');
    } else {
      const cfg = loadYamlConfig(file, DaemonConfigSchema, env);
      checkDaemonFiles(cfg, file, cwd);
      // what runDaemon's openVenue does before it starts the embedded sim, and the limit check once its markets are known
      if (cfg.venue.kind === 'sim') {
        const sim = embeddedSimConfig(cfg.venue.sim, { cwd, configFile: file, env });
        checkLimitTickers(cfg.strategies, new Map(sim.markets.map((m) => [m.name, m])), file);
      }
      for (const [i, s] of cfg.strategies.entries())
        parseParams(await loadStrategy(builtinStrategies, s.use, cwd, `${file}: strategies[${i}].use`), s.params, `${file}: strategies[${i}].params`);
    }
    return { exit: 0, stderr: '' };
  } catch (error) {
    return { exit: exitCodeFor(error), stderr: `bot: ${describeError(error)}\n` };
  }
}

const BOT = resolve(import.meta.dirname, '../../bin/bot.js');

/**
 * The real thing: `node bin/bot.js run|backtest|sim ...` as a child process in `cwd`. A config that is valid runs
 * (the daemon and the sim until stopped): after `runMs` it gets SIGTERM, and a clean stop counts as a valid run.
 */
export function checkChild(kind: ConfigKind, file: string, cwd: string, env: NodeJS.ProcessEnv, runMs = 6000): Promise<Outcome> {
  const args =
    kind === 'daemon'
      ? ['run', file]
      : kind === 'backtest'
        ? ['backtest', file, '--out', resolve(cwd, 'bt-out'), '--no-progress']
        : ['sim', '--config', file, '--json'];
  return new Promise((done) => {
    const child = spawn(process.execPath, [BOT, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let stopped = false;
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      stopped = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
    }, runMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      done({ exit: code ?? (signal === 'SIGTERM' ? 143 : 137), stderr, ...(stopped ? { ranUntilStopped: true } : {}) });
    });
  });
}

/**
 * What the issue asks of every case: exit 2 with one message naming the file and the path (or line), no stack
 * trace; or a valid run (exit 0, or the venue unreachable: 3). Returns what is wrong, or undefined.
 */
export function judge(outcome: Outcome, file: string): string | undefined {
  const { exit, stderr } = outcome;
  if (/\n\s+at .+[(:]\d+/.test(stderr) || /^\s+at /m.test(stderr)) return `a stack trace was printed (exit ${exit})`;
  if (exit === 0 || exit === 3 || outcome.ranUntilStopped) return undefined;
  if (exit !== 2) return `exit ${exit} (expected 2 or a valid run): ${stderr.trim().slice(0, 300)}`;
  const messages = stderr.split('\n').filter((l) => l.startsWith('bot: '));
  if (messages.length !== 1) return `expected one 'bot: ' message, got ${messages.length}: ${stderr.trim().slice(0, 300)}`;
  // every line names the file and a path or position, but a header line that ends in ':' (its issues follow)
  const lines = stderr.trim().split('\n');
  const named = new RegExp(`${escape(file)}(:\\d+:\\d+)?: \\S`);
  const bad = lines.find((l) => !named.test(l) && !l.trimEnd().endsWith(':'));
  if (bad !== undefined) return `a line does not name the file and a path: ${bad.slice(0, 200)}`;
  if (!lines.some((l) => named.test(l))) return `no line names the file and a path: ${lines[0]!.slice(0, 200)}`;
  return undefined;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
