import { join } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';

/**
 * `bot chaos [--orders N] [--kills K] [--seed S] [--malformed | --lying] [--minutes M]` (also `npm run chaos -- ...`):
 * the reliability harness (logic in src/chaos/, modes in docs/chaos.md). Prints one summary line on stdout, progress
 * on stderr; exit 0 only when every loss column, the rule rejects and the secret hits are zero.
 */
function positiveInt(name: string, min = 0) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`${name} must be an integer >= ${min}`);
    return n;
  };
}

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('expected a number > 0');
  return n;
}

export function register(program: Command): void {
  program
    .command('chaos')
    .description('chaos harness: faults at scale, SIGKILL/restart loops, journal-vs-venue audit, secret scan (or a malformed venue)')
    .option('--orders <n>', 'order submissions to reach (faults mode)', positiveInt('--orders', 1), 1000)
    .option('--kills <k>', 'SIGKILL + restart cycles of the daemons', positiveInt('--kills'), 10)
    .option('--seed <s>', 'seed of the faults, the kill moments and the market', positiveInt('--seed'), 1)
    .addOption(new Option('--malformed', 'malformed-venue mode: garbage answers instead of faults, no kills').conflicts('lying'))
    .option(
      '--lying',
      'lying-venue mode: well-formed but wrong answers (hidden orders, duplicate and corrupt deals, contradicting answers, absurd/crossed/frozen/absent books), no kills',
    )
    .option(
      '--minutes <m>',
      "trading time, counted from every daemon's first order: the malformed and lying modes run this long (default 10); caps the faults mode",
      positiveNumber,
    )
    .option('--speed <x>', 'speed of the simulated market', positiveNumber, 10)
    .option('--out <dir>', 'run directory (configs, journals, logs, report.json); default var/chaos/<mode>-<seed>-<time>')
    .addOption(new Option('--timeout-ms <ms>', "the daemons' request timeout").argParser(positiveInt('--timeout-ms', 100)).default(2500))
    .addHelpText(
      'after',
      '\nExamples:\n  npm run chaos -- --orders 10000 --kills 50 --seed 1\n  npx bot chaos --malformed --minutes 10\n  npm run chaos -- --lying --minutes 10 --seed 1\n\n' +
        'Summary: orders N, duplicates D, lost L, unknown-left U, fills-missing F, balance-diff B, 429 R,\n' +
        '         rule-rejects J, restarts K, secrets S, overfills O, phantom-cancels C, band-breaches B,\n' +
        '         stale-fills S   (columns: docs/chaos.md)',
    )
    .action(
      async (opts: {
        orders: number;
        kills: number;
        seed: number;
        malformed?: boolean;
        lying?: boolean;
        minutes?: number;
        speed: number;
        out?: string;
        timeoutMs: number;
      }) => {
        const { runChaos } = await import('../chaos/run-chaos.js');
        const mode = opts.malformed ? 'malformed' : opts.lying ? 'lying' : 'faults';
        const minutes = opts.minutes ?? (mode === 'faults' ? undefined : 10);
        const out = opts.out ?? join('var', 'chaos', `${mode}-${opts.seed}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
        const result = await runChaos({
          mode,
          orders: opts.orders,
          kills: mode === 'faults' ? opts.kills : 0,
          seed: opts.seed,
          ...(minutes !== undefined ? { durationMs: minutes * 60_000 } : {}),
          out,
          speed: opts.speed,
          clientTimeoutMs: opts.timeoutMs,
          progress: (line) => process.stderr.write(`${line}\n`),
        });
        for (const line of [...(result.malformedLines ?? []), ...(result.lyingLines ?? [])]) process.stderr.write(`chaos: ${line}\n`);
        for (const note of result.notes) process.stderr.write(`chaos: ${note}\n`);
        for (const a of result.audits) {
          const columns = {
            duplicate: a.duplicates,
            lost: a.lost,
            'unknown-left': a.unknownLeft,
            'fills-missing': a.fillsMissing,
            'balance-diff': a.balanceDiff,
            overfill: a.overfills,
            'phantom-cancel': a.phantomCancels,
            'band-breach': a.bandBreaches,
            'stale-fill': a.staleFills,
          };
          for (const [what, list] of Object.entries(columns)) {
            for (const x of list.slice(0, 10)) process.stderr.write(`chaos: ${a.account}: ${what}: ${x}\n`);
            if (list.length > 10) process.stderr.write(`chaos: ${a.account}: ${what}: ... ${list.length - 10} more in ${result.reportPath}\n`);
          }
        }
        process.stderr.write(`chaos: wall time ${(result.wallMs / 1000).toFixed(1)} s, report ${result.reportPath}\n`);
        process.stdout.write(`${result.line}\n`);
        process.exitCode = result.passed ? 0 : 1;
      },
    );
}
