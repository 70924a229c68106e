import type { Command } from 'commander';

/** `bot record`: not built yet. */
export function register(_program: Command): void {}
