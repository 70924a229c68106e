import type { Command } from 'commander';

/** `bot import`: not built yet. */
export function register(_program: Command): void {}
