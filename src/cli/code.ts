import type { Command } from 'commander';

/** `bot code`: not built yet. */
export function register(_program: Command): void {}
