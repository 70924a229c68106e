import type { Command } from 'commander';

/** `bot balance`: not built yet. */
export function register(_program: Command): void {}
