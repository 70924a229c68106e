import type { Command } from 'commander';

/** `bot backtest`: not built yet. */
export function register(_program: Command): void {}
