import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The seams of design.md, read from the import graph of the sources (every import and export-from, type-only
 * ones and dynamic imports of a literal path included): the engine reaches venues only through the client (no
 * `src/sim`), only the CLI and the app (the wiring) reach `backtest/`, and the engine's files import one another
 * without a cycle.
 */
const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

// static imports and export-froms, and dynamic import('./x.js') with a literal path (the CLI's commands load their implementation so)
const IMPORT = /^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.[^'"]+)['"]|^\s*import\s+['"](\.[^'"]+)['"]|\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

/** Relative imports of a source as repo-relative `.ts` paths. */
export function importsOf(text: string, file: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    out.push(relative(repo, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'));
  }
  return out;
}

function graph(dirs: readonly string[]): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const d of dirs) for (const f of tsFiles(join(repo, d))) g.set(relative(repo, f), importsOf(readFileSync(f, 'utf8'), f));
  return g;
}

/** A cycle among the nodes `inside` selects, as a path that ends where it starts; undefined when there is none. */
export function findCycle(g: ReadonlyMap<string, readonly string[]>, inside: (file: string) => boolean): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string): string[] | undefined => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of g.get(n) ?? []) {
      if (!inside(m)) continue;
      if (state.get(m) === 'open') return [...stack.slice(stack.indexOf(m)), m];
      if (state.get(m) === undefined) {
        const found = visit(m);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(n, 'done');
    return undefined;
  };
  for (const n of g.keys()) {
    if (!inside(n) || state.has(n)) continue;
    const found = visit(n);
    if (found) return found;
  }
  return undefined;
}

describe('import seams (design.md)', () => {
  const g = graph(['src', 'backtest']);
  const edges = [...g].flatMap(([from, tos]) => tos.map((to) => `${from} -> ${to}`));

  it('reads the graph it checks (the engine imports the client; the app wires the sim; the CLI loads the daemon)', () => {
    expect(edges).toContain('src/engine/runtime.ts -> src/engine/engine-core.ts');
    expect(edges.some((e) => e.startsWith('src/app/') && e.includes('-> src/sim/'))).toBe(true);
    // a dynamic import: `bot run` loads the daemon in its action
    expect(edges).toContain('src/cli/run.ts -> src/app/daemon.ts');
  });

  it('src/engine imports nothing from src/sim', () => {
    expect(edges.filter((e) => e.startsWith('src/engine/') && e.includes('-> src/sim/'))).toEqual([]);
  });

  it('src/ imports backtest/ only from the wiring (src/cli, src/app)', () => {
    expect(edges.some((e) => e.startsWith('src/cli/') && e.includes('-> backtest/'))).toBe(true);
    const wiring = (e: string): boolean => e.startsWith('src/cli/') || e.startsWith('src/app/');
    expect(edges.filter((e) => e.startsWith('src/') && !wiring(e) && e.includes('-> backtest/'))).toEqual([]);
  });

  it('src/engine has no import cycle', () => {
    expect(findCycle(g, (f) => f.startsWith('src/engine/'))).toBeUndefined();
  });

  it('the cycle finder finds a cycle (so the check above can fail)', () => {
    const withCycle = new Map(g);
    withCycle.set('src/engine/status-view.ts', [...(g.get('src/engine/status-view.ts') ?? []), 'src/engine/engine-core.ts']);
    expect(findCycle(withCycle, (f) => f.startsWith('src/engine/'))).toBeDefined();
  });
});
