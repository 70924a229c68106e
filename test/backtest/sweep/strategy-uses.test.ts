import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { relocateStrategyUses } from '../../../backtest/sweep/strategy-uses.js';

const root = mkdtempSync(path.join(tmpdir(), 'strategy-uses-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(path.join(root, 'config'));
mkdirSync(path.join(root, 'strategies'));
writeFileSync(path.join(root, 'strategies', 'mine.ts'), 'export {};\n');

describe("a sweep's base config", () => {
  it("carries its use: paths from the sweep's folder, found from the base file's (trials resolve them from where they run)", () => {
    const raw = { strategies: [{ use: '../strategies/mine.ts' }, { use: 'market-maker' }] };
    relocateStrategyUses(raw, path.join(root, 'config', 'backtest.yaml'), root);
    expect(raw.strategies.map((s) => s.use)).toEqual(['./strategies/mine.ts', 'market-maker']);
  });
});
