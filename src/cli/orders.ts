import type { Command } from 'commander';

/** `bot orders`: not built yet. */
export function register(_program: Command): void {}
