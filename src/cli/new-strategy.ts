import type { Command } from 'commander';

/** `bot new-strategy <name> [--dir DIR]`: writes a documented strategy skeleton, its test, a config and a backtest config. */
export function register(program: Command): void {
  program
    .command('new-strategy')
    .description('write a strategy skeleton (strategies/<name>/index.ts), its virtual-time test, a config and a backtest config')
    .argument('<name>', 'kebab-case strategy name, e.g. my-quoter')
    .option('--dir <dir>', 'folder to write into (strategies/, test/strategies/, config/ below it)', '.')
    .addHelpText(
      'after',
      '\nExamples:\n  npx bot new-strategy my-quoter\n  npx vitest run test/strategies/my-quoter.test.ts\n' +
        '  npx bot backtest config/my-quoter.backtest.yaml\n  npx bot run config/my-quoter.yaml --dry-run',
    )
    .action(async (name: string, opts: { dir: string }) => {
      const { nextSteps, planScaffold, writeScaffold } = await import('../strategy/scaffold/generate-strategy.js');
      const files = planScaffold({ name, dir: opts.dir });
      writeScaffold(files);
      process.stdout.write(
        `created ${files.map((f) => f.display).join(', ')}\nnext:\n${nextSteps(files)
          .map((l) => `  ${l}\n`)
          .join('')}`,
      );
    });
}
