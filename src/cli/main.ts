import { Command, CommanderError } from 'commander';
import { exitCodeFor, describeError } from './exit-codes.js';
import { COMMANDS } from './commands.js';

/** `bot`: builds the commander program from one module per command and runs it. */
export async function main(argv: readonly string[]): Promise<void> {
  const program = new Command('bot')
    .description('Automated trading on the v4 exchange interface: daemon, simulated exchange, backtests, strategies')
    .showHelpAfterError()
    .exitOverride();
  for (const register of COMMANDS) register(program);
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
