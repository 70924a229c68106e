import type { Command } from 'commander';

/** `bot new-strategy <name> [--dir DIR]`: writes a documented strategy skeleton, its test and a config example. */
export function register(program: Command): void {
  program
    .command('new-strategy')
    .description('write a strategy skeleton (strategies/<name>/index.ts), its virtual-time test and a config example')
    .argument('<name>', 'kebab-case strategy name, e.g. my-quoter')
    .option('--dir <dir>', 'folder to write into (strategies/, test/strategies/, config/ below it)', '.')
    .addHelpText(
      'after',
      '\nExamples:\n  npx bot new-strategy my-quoter\n  npx vitest run test/strategies/my-quoter.test.ts\n  npx bot run config/my-quoter.yaml',
    )
    .action(async (name: string, opts: { dir: string }) => {
      const { planScaffold, writeScaffold } = await import('../strategy/scaffold/generate-strategy.js');
      const files = planScaffold({ name, dir: opts.dir });
      writeScaffold(files);
      const [strategy, test, config] = files;
      process.stdout.write(
        `created ${files.map((f) => f.display).join(', ')}\n` +
          `next:\n  npx vitest run ${test!.display}\n  npx bot run ${config!.display} --dry-run\n  edit ${strategy!.display} (desiredOrders)\n`,
      );
    });
}
