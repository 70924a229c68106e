import type { Command } from 'commander';

/** `bot check <config.yaml>`: the go-live pre-flight of a daemon config, one line per check (logic in app/preflight.ts). */
export function register(program: Command): void {
  program
    .command('check')
    .description(
      'pre-flight of a daemon config before going live: config, signed call, markets, limits against rules and balances, dead-man, kill-switch; one line per check',
    )
    .argument('<config>', 'daemon config (YAML), e.g. config/market-maker.yaml')
    .addHelpText(
      'after',
      '\nExit codes: 0 every check passed (warn lines pass), 1 a check failed, 2 the config does not load or\n' +
        'the venue refused the key, 3 the venue could not be reached. Nothing that trades is sent.\n' +
        'Example:\n  BOT_API_KEY=... BOT_API_SECRET=... npx bot check config/market-maker.yaml',
    )
    .action(async (config: string) => {
      const { runPreflight } = await import('../app/preflight.js');
      const r = await runPreflight({ configPath: config, onCheck: (c) => process.stdout.write(`${c.status.padEnd(4)} ${c.text}\n`) });
      process.stdout.write(`go-live: ${r.passed}/${r.checks.length} checks passed\n`);
      process.exitCode = r.exitCode;
    });
}
