import type { Command } from 'commander';

/** `bot ping`: not built yet. */
export function register(_program: Command): void {}
