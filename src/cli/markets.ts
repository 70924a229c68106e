import type { Command } from 'commander';

/** `bot markets`: not built yet. */
export function register(_program: Command): void {}
