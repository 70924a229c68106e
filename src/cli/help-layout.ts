import type { Command } from 'commander';

/** Help lines end by this column, or by the terminal's when narrower: long lines wrap instead of running on. */
export const HELP_WIDTH = 100;

function widthOf(stream: NodeJS.WriteStream): number {
  return stream.isTTY && stream.columns > 0 ? Math.min(HELP_WIDTH, stream.columns) : HELP_WIDTH;
}

/**
 * The help's layout for `program` and every command registered on it afterwards (commander copies both settings
 * into each new subcommand): wrapped to HELP_WIDTH, and a command list that names each command without its
 * arguments. With the arguments the list's first column was as wide as its longest usage (`stop-limit [options]
 * <market> <side> <amount> <price> <activation-price>`), too wide for the descriptions beside it to wrap at all;
 * each command's own help shows its usage.
 */
export function layoutHelp(program: Command): Command {
  return program
    .configureOutput({ getOutHelpWidth: () => widthOf(process.stdout), getErrHelpWidth: () => widthOf(process.stderr) })
    .configureHelp({ subcommandTerm: (cmd) => cmd.name() });
}
