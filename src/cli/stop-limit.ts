import type { Command } from 'commander';

/** `bot stop-limit`: not built yet. */
export function register(_program: Command): void {}
