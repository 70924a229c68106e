import type { Command } from 'commander';

/** `bot book`: not built yet. */
export function register(_program: Command): void {}
