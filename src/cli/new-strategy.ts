import type { Command } from 'commander';

/** `bot new-strategy`: not built yet. */
export function register(_program: Command): void {}
