import type { Command } from 'commander';

/** `bot cancel`: not built yet. */
export function register(_program: Command): void {}
