import type { Command } from 'commander';

/** `bot sim`: not built yet. */
export function register(_program: Command): void {}
