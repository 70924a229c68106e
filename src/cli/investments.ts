import type { Command } from 'commander';

/** `bot investments`: not built yet. */
export function register(_program: Command): void {}
