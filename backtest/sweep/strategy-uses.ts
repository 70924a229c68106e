import path from 'node:path';
import { resolveStrategyUse } from '../../src/strategy/strategy-path.js';

/**
 * The base config's `use:` paths, found from the base config file's folder (as `bot backtest` finds them), written
 * back relative to `cwd`: a trial's job resolves `use:` from the folder it runs in (a `bot worker` elsewhere runs
 * it from its own checkout), so the job carries the path from the sweep's folder, not the file's.
 */
export function relocateStrategyUses(raw: Record<string, unknown>, baseFile: string, cwd = process.cwd()): void {
  const strategies = raw['strategies'];
  if (!Array.isArray(strategies)) return;
  for (const [i, s] of strategies.entries()) {
    const use = (s as { use?: unknown } | null)?.use;
    if (typeof use !== 'string') continue;
    const file = resolveStrategyUse(use, { configFile: baseFile, cwd }, `${baseFile}: strategies[${i}].use`);
    if (file === use) continue;
    const relative = path.relative(cwd, file).split(path.sep).join('/');
    (s as { use: string }).use = relative.startsWith('.') ? relative : `./${relative}`;
  }
}
