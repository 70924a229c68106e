import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `bot <args>` in-process through the real commander program, capturing what it writes and the
 * exit code it sets. Credentials travel through the environment as in real use.
 */
export async function runBot(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  process.exitCode = 0;
  try {
    await main(['node', 'bot', ...args]);
  } finally {
    out.mockRestore();
    err.mockRestore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, stdout, stderr };
}
