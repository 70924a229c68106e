import type { Command } from 'commander';

/** `bot run`: not built yet. */
export function register(_program: Command): void {}
