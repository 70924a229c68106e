import type { Command } from 'commander';

/** `bot order`: not built yet. */
export function register(_program: Command): void {}
