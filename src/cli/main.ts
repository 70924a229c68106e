import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { sourceRoot } from '../loading/source-root.js';
import { exitCodeFor, describeError } from './exit-codes.js';
import { registerCommands } from './commands.js';
import { dropOutputToClosedPipe } from './closed-output.js';
import { layoutHelp } from './help-layout.js';
import { ownProcess } from './own-process.js';

/**
 * `bot`: builds the commander program from one module per command (the named one's only, see commands.ts) and runs it.
 * `ownsProcess`: bin/bot.js's call, the process is the command's (own-process.ts); a harness calling it in a process
 * of its own leaves it off.
 */
export async function main(argv: readonly string[], options: { readonly ownsProcess?: boolean } = {}): Promise<void> {
  if (options.ownsProcess === true) ownProcess();
  dropOutputToClosedPipe(process.stdout);
  dropOutputToClosedPipe(process.stderr);
  const program = layoutHelp(new Command('bot'))
    .description('Automated trading on the v4 exchange interface: daemon, simulated exchange, backtests, strategies')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError()
    .exitOverride();
  await registerCommands(program, argv);
  program.helpCommand(true);
  program.addHelpText(
    'after',
    "\nRun it from the repository's folder as `npx bot <command>` (no install or link needed);\n" +
      '`npx bot <command> --help` shows its arguments, options and examples.\n' +
      'Exit codes: 0 ok, 1 refused by the venue, 2 usage or config error, 3 venue unreachable,\n' +
      '4 the daemon ended in an emergency stop.',
  );
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // help and version exit 0; usage errors 2 (commander already printed the message)
      process.exitCode = error.exitCode === 0 ? 0 : 2;
      return;
    }
    process.stderr.write(`bot: ${describeError(error)}\n`);
    process.exitCode = exitCodeFor(error);
  }
}

/** package.json's version (also from the compiled copy, whose root is the repository's). */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(sourceRoot(import.meta.url), 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
