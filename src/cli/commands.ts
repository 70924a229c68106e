import type { Command } from 'commander';
import { register as pingCmd } from './ping.js';
import { register as marketsCmd } from './markets.js';
import { register as bookCmd } from './book.js';
import { register as balanceCmd } from './balance.js';
import { register as orderCmd } from './order.js';
import { register as stopLimitCmd } from './stop-limit.js';
import { register as cancelCmd } from './cancel.js';
import { register as ordersCmd } from './orders.js';
import { register as codeCmd } from './code.js';
import { register as investmentsCmd } from './investments.js';
import { register as simCmd } from './sim.js';
import { register as runCmd } from './run.js';
import { register as recordCmd } from './record.js';
import { register as importCmd } from './import.js';
import { register as backtestCmd } from './backtest.js';
import { register as cacheCmd } from './cache.js';
import { register as dataCmd } from './data.js';
import { register as newStrategyCmd } from './new-strategy.js';
import { register as bulkCmd } from './bulk.js';
import { register as cancelAllCmd } from './cancel-all.js';
import { register as orderHistoryCmd } from './order-history.js';
import { register as chaosCmd } from './chaos.js';
import { register as killSwitchCmd } from './kill-switch.js';
import { register as sweepCmd } from './sweep.js';
import { register as parityCmd } from './parity.js';
import { register as workerCmd } from './worker.js';
import { register as journalCmd } from './journal.js';
import { register as checkCmd } from './check.js';

/** The commands of one heading of `bot --help`. */
export interface CommandGroup {
  readonly heading: string;
  readonly commands: ReadonlyArray<(program: Command) => void>;
}

/**
 * Every `bot` command, grouped and in help order. Each module wires parts and holds no logic.
 * Command modules import their implementation inside the action, so that a command starts without loading the others.
 */
export const COMMAND_GROUPS: readonly CommandGroup[] = [
  { heading: 'Daemon:', commands: [runCmd, checkCmd, journalCmd] },
  { heading: 'Research (backtests, sweeps, your own strategies):', commands: [backtestCmd, sweepCmd, parityCmd, workerCmd, newStrategyCmd] },
  { heading: 'Data (recordings for backtests):', commands: [recordCmd, importCmd, cacheCmd, dataCmd] },
  {
    heading: 'Venue calls (one request each; credentials from BOT_API_KEY and BOT_API_SECRET):',
    commands: [
      pingCmd,
      marketsCmd,
      bookCmd,
      balanceCmd,
      orderCmd,
      stopLimitCmd,
      cancelCmd,
      ordersCmd,
      bulkCmd,
      cancelAllCmd,
      orderHistoryCmd,
      killSwitchCmd,
      codeCmd,
      investmentsCmd,
    ],
  },
  { heading: 'Tools:', commands: [simCmd, chaosCmd] },
];
