import type { Command } from 'commander';

/** One `bot` command: its name and its module (whose `register` adds it to the program), imported when needed. */
export interface CommandEntry {
  readonly name: string;
  readonly load: () => Promise<{ readonly register: (program: Command) => void }>;
}

/** The commands of one heading of `bot --help`. */
export interface CommandGroup {
  readonly heading: string;
  readonly commands: readonly CommandEntry[];
}

/**
 * Every `bot` command, grouped and in help order. Each module wires parts and holds no logic. Command modules import
 * their implementation inside the action, so that a command starts without loading the others; and main.ts imports
 * only the module of the command named on the command line (the others' registrations are ~40 modules: the venue
 * wire types, the sim's config, ...), every module for `--help`, `help` and a name it does not know.
 */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  {
    heading: 'Daemon:',
    commands: [
      { name: 'run', load: () => import('./run.js') },
      { name: 'check', load: () => import('./check.js') },
      { name: 'journal', load: () => import('./journal.js') },
    ],
  },
  {
    heading: 'Research (backtests, sweeps, your own strategies):',
    commands: [
      { name: 'backtest', load: () => import('./backtest.js') },
      { name: 'sweep', load: () => import('./sweep.js') },
      { name: 'parity', load: () => import('./parity.js') },
      { name: 'worker', load: () => import('./worker.js') },
      { name: 'new-strategy', load: () => import('./new-strategy.js') },
    ],
  },
  {
    heading: 'Data (recordings for backtests):',
    commands: [
      { name: 'record', load: () => import('./record.js') },
      { name: 'import', load: () => import('./import.js') },
      { name: 'cache', load: () => import('./cache.js') },
      { name: 'data', load: () => import('./data.js') },
    ],
  },
  {
    heading: 'Venue calls (one request each; credentials from BOT_API_KEY and BOT_API_SECRET):',
    commands: [
      { name: 'ping', load: () => import('./ping.js') },
      { name: 'markets', load: () => import('./markets.js') },
      { name: 'book', load: () => import('./book.js') },
      { name: 'balance', load: () => import('./balance.js') },
      { name: 'order', load: () => import('./order.js') },
      { name: 'stop-limit', load: () => import('./stop-limit.js') },
      { name: 'cancel', load: () => import('./cancel.js') },
      { name: 'orders', load: () => import('./orders.js') },
      { name: 'bulk', load: () => import('./bulk.js') },
      { name: 'cancel-all', load: () => import('./cancel-all.js') },
      { name: 'order-history', load: () => import('./order-history.js') },
      { name: 'kill-switch', load: () => import('./kill-switch.js') },
      { name: 'code', load: () => import('./code.js') },
      { name: 'investments', load: () => import('./investments.js') },
    ],
  },
  {
    heading: 'Tools:',
    commands: [
      { name: 'sim', load: () => import('./sim.js') },
      { name: 'chaos', load: () => import('./chaos.js') },
    ],
  },
];

/**
 * Registers the command named first on the command line (`argv` as process.argv: node, script, ...), alone, under
 * its heading; or, when it names none of them (options, `help`, a typo commander will suggest a name for), every
 * command in help order.
 */
export async function registerCommands(program: Command, argv: readonly string[]): Promise<void> {
  const named = argv[2];
  for (const group of COMMAND_GROUPS) {
    const entry = group.commands.find((c) => c.name === named);
    if (entry === undefined) continue;
    program.commandsGroup(group.heading);
    (await entry.load()).register(program);
    return;
  }
  const modules = await Promise.all(COMMAND_GROUPS.map((g) => Promise.all(g.commands.map((c) => c.load()))));
  for (const [i, group] of COMMAND_GROUPS.entries()) {
    program.commandsGroup(group.heading);
    for (const m of modules[i]!) m.register(program);
  }
}
