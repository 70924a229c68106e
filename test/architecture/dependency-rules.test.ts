import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The rules of .dependency-cruiser.cjs (`npm run deps`, part of `npm test`) on a miniature of the repository: a tree
 * that keeps every seam passes, and the same tree with one violation planted per rule has each reported under its
 * rule. A rule added to the config without a planted violation here fails the last test, so every rule is shown
 * failing once. A miniature, not the repository, keeps this at a few hundred ms.
 */
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
  options: Record<string, unknown>;
};

const root = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Tree = Record<string, string>;

/** Every folder of the layer order with the imports design.md allows, the exceptions included. */
const CLEAN: Tree = {
  'bin/bot.js': "await import('../src/cli/main.ts');\n",
  'src/cli/main.ts': "export async function main(): Promise<void> {\n  await import('../app/daemon.js');\n  await import('../../backtest/run.js');\n}\n",
  'src/app/daemon.ts':
    "import { builtinStrategies } from '../../strategies/index.js';\nimport { startSim } from '../sim/start-sim.js';\nimport { runEngine } from '../engine/core.js';\nimport { serveOps } from '../ops/serve.js';\nexport const daemon = [builtinStrategies, startSim, runEngine, serveOps];\n",
  'src/engine/core.ts':
    "import { sdk } from '../strategy/index.js';\nimport { poll } from '../streams/poll.js';\nimport { client } from '../venue/client.js';\nimport { check } from '../rules/index.js';\nimport { D } from '../model/decimal.js';\nexport const runEngine = [sdk, poll, client, check, D];\n",
  'backtest/run.ts':
    "import { builtinStrategies } from '../strategies/index.js';\nimport { runEngine } from '../src/engine/core.js';\nimport { exchange } from '../src/sim/exchange.js';\nimport { readRecording } from '../src/recording/format.js';\nimport { fillStep } from '../src/fill-model/fill-model.js';\nexport const run = [builtinStrategies, runEngine, exchange, readRecording, fillStep];\n",
  'backtest/worker.mjs': "import { importBeside } from '../src/loading/import-beside.mjs';\nexport const worker = importBeside;\n",
  'src/ops/serve.ts':
    "import { runEngine } from '../engine/core.js';\nimport { settings } from '../settings/load.js';\nexport const serveOps = [runEngine, settings];\n",
  'src/chaos/run.ts':
    "import { runEngine } from '../engine/core.js';\nimport { startSim } from '../sim/start-sim.js';\nexport const chaos = [runEngine, startSim];\n",
  'src/strategy/index.ts':
    "import { settings } from '../settings/load.js';\nimport { sourceRoot } from '../loading/root.js';\nimport type { D } from '../model/decimal.js';\nexport type Money = typeof D;\nexport const sdk = [settings, sourceRoot];\n",
  'src/streams/poll.ts': "import { client } from '../venue/client.js';\nexport const poll = client;\n",
  'src/venue/client.ts':
    "import type { WireOrder } from './wire.js';\nimport { D } from '../model/decimal.js';\nexport const client = D;\nexport type Order = WireOrder;\n",
  'src/venue/wire.ts': "export * from './wire/orders.js';\n",
  'src/venue/wire/orders.ts': 'export interface WireOrder {\n  readonly price: string;\n}\n',
  'src/sim/start-sim.ts': "import { exchange } from './exchange.js';\nexport const startSim = exchange;\n",
  'src/sim/exchange.ts':
    "import type { WireOrder } from '../venue/wire.js';\nimport { readRecording } from '../recording/format.js';\nimport { fillStep } from '../fill-model/fill-model.js';\nimport { check } from '../rules/index.js';\nexport const exchange = [readRecording, fillStep, check];\nexport type Order = WireOrder;\n",
  'src/recording/format.ts': "import type { WireOrder } from '../venue/wire/orders.js';\nexport const readRecording = (o: WireOrder) => o;\n",
  'src/fill-model/fill-model.ts':
    "import { readRecording } from '../recording/format.js';\nimport { settings } from '../settings/load.js';\nexport const fillStep = [readRecording, settings];\n",
  'src/rules/index.ts': "import { D } from '../model/decimal.js';\nexport const check = D;\n",
  'src/settings/load.ts': "import { ConfigError } from '../model/errors.js';\nexport const settings = ConfigError;\n",
  'src/model/decimal.ts': 'export const D = 1;\n',
  'src/model/errors.ts': 'export class ConfigError extends Error {}\n',
  'src/loading/root.ts': 'export const sourceRoot = 1;\n',
  'src/loading/import-beside.mjs': 'export const importBeside = 1;\n',
  'strategies/index.ts':
    "import type { Money } from '../src/strategy/index.js';\nexport const builtinStrategies = { mm: () => import('./mm/index.js') };\nexport type M = Money;\n",
  'strategies/mm/index.ts': "import { sdk } from '../../src/strategy/index.js';\nimport { plan } from './plan.js';\nexport default [sdk, plan];\n",
  'strategies/mm/plan.ts': 'export const plan = 1;\n',
};

interface Planted {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
  readonly source: string;
}

/** One violation per rule: the file planted (or replaced), what it imports, and the rule expected to report it. */
const PLANTED: readonly Planted[] = [
  // the layer order, one per layer that has layers outside it
  { rule: 'layer-app', from: 'src/app/up.ts', to: 'src/cli/main.ts', source: "export { main } from '../cli/main.js';\n" },
  {
    rule: 'layer-engine-backtest-ops-chaos',
    from: 'backtest/up.ts',
    to: 'src/app/daemon.ts',
    source: "import { daemon } from '../src/app/daemon.js';\nexport const x = daemon;\n",
  },
  // a dynamic import with a literal path counts
  { rule: 'layer-strategy-streams', from: 'src/streams/up.ts', to: 'src/engine/core.ts', source: "export const x = () => import('../engine/core.js');\n" },
  // a type-only import counts
  {
    rule: 'layer-venue-sim-recording-fill-model',
    from: 'src/venue/up.ts',
    to: 'src/strategy/index.ts',
    source: "import type { Money } from '../strategy/index.js';\nexport type X = Money;\n",
  },
  {
    rule: 'layer-rules-settings',
    from: 'src/settings/up.ts',
    to: 'src/venue/client.ts',
    source: "import { client } from '../venue/client.js';\nexport const x = client;\n",
  },
  // a plain-JavaScript module counts
  { rule: 'layer-model-loading', from: 'src/loading/up.mjs', to: 'src/rules/index.ts', source: "export { check } from '../rules/index.js';\n" },
  // siblings within a layer
  {
    rule: 'siblings-engine',
    from: 'src/engine/side.ts',
    to: 'src/ops/serve.ts',
    source: "import { serveOps } from '../ops/serve.js';\nexport const x = serveOps;\n",
  },
  {
    rule: 'siblings-backtest',
    from: 'backtest/side.ts',
    to: 'src/chaos/run.ts',
    source: "import { chaos } from '../src/chaos/run.js';\nexport const x = chaos;\n",
  },
  { rule: 'siblings-ops', from: 'src/ops/side.ts', to: 'src/chaos/run.ts', source: "import { chaos } from '../chaos/run.js';\nexport const x = chaos;\n" },
  {
    rule: 'siblings-chaos',
    from: 'src/chaos/side.ts',
    to: 'src/ops/serve.ts',
    source: "import { serveOps } from '../ops/serve.js';\nexport const x = serveOps;\n",
  },
  {
    rule: 'siblings-strategy',
    from: 'src/strategy/side.ts',
    to: 'src/streams/poll.ts',
    source: "import { poll } from '../streams/poll.js';\nexport const x = poll;\n",
  },
  {
    rule: 'siblings-streams',
    from: 'src/streams/side.ts',
    to: 'src/strategy/index.ts',
    source: "import { sdk } from '../strategy/index.js';\nexport const x = sdk;\n",
  },
  {
    rule: 'siblings-venue',
    from: 'src/venue/side.ts',
    to: 'src/recording/format.ts',
    source: "import { readRecording } from '../recording/format.js';\nexport const x = readRecording;\n",
  },
  {
    rule: 'siblings-sim',
    from: 'src/sim/side.ts',
    to: 'src/venue/client.ts',
    source: "import { client } from '../venue/client.js';\nexport const x = client;\n",
  },
  {
    rule: 'siblings-recording',
    from: 'src/recording/side.ts',
    to: 'src/sim/exchange.ts',
    source: "import { exchange } from '../sim/exchange.js';\nexport const x = exchange;\n",
  },
  {
    rule: 'siblings-fill-model',
    from: 'src/fill-model/side.ts',
    to: 'src/sim/exchange.ts',
    source: "import { exchange } from '../sim/exchange.js';\nexport const x = exchange;\n",
  },
  {
    rule: 'siblings-rules',
    from: 'src/rules/side.ts',
    to: 'src/settings/load.ts',
    source: "import { settings } from '../settings/load.js';\nexport const x = settings;\n",
  },
  {
    rule: 'siblings-settings',
    from: 'src/settings/side.ts',
    to: 'src/rules/index.ts',
    source: "import { check } from '../rules/index.js';\nexport const x = check;\n",
  },
  {
    rule: 'siblings-model',
    from: 'src/model/side.ts',
    to: 'src/loading/root.ts',
    source: "import { sourceRoot } from '../loading/root.js';\nexport const x = sourceRoot;\n",
  },
  {
    rule: 'siblings-loading',
    from: 'src/loading/side.ts',
    to: 'src/model/decimal.ts',
    source: "import { D } from '../model/decimal.js';\nexport const x = D;\n",
  },
  // the named seams
  {
    rule: 'engine-not-sim',
    from: 'src/engine/sim.ts',
    to: 'src/sim/exchange.ts',
    source: "import { exchange } from '../sim/exchange.js';\nexport const x = exchange;\n",
  },
  {
    rule: 'embedded-sim-only-in-the-wiring',
    from: 'src/ops/sim.ts',
    to: 'src/sim/start-sim.ts',
    source: "import { startSim } from '../sim/start-sim.js';\nexport const x = startSim;\n",
  },
  {
    rule: 'sim-and-client-share-only-the-wire',
    from: 'src/recording/client.ts',
    to: 'src/venue/client.ts',
    source: "import { client } from '../venue/client.js';\nexport const x = client;\n",
  },
  {
    rule: 'wire-is-only-the-contract',
    from: 'src/venue/wire/logic.ts',
    to: 'src/model/decimal.ts',
    source: "import { D } from '../../model/decimal.js';\nexport const x = D;\n",
  },
  {
    rule: 'src-never-imports-backtest',
    from: 'src/engine/backtest.ts',
    to: 'backtest/run.ts',
    source: "export const x = () => import('../../backtest/run.js');\n",
  },
  {
    rule: 'src-never-imports-strategies',
    from: 'src/strategy/builtins.ts',
    to: 'strategies/index.ts',
    source: "import { builtinStrategies } from '../../strategies/index.js';\nexport const x = builtinStrategies;\n",
  },
  {
    rule: 'strategies-only-through-the-registry',
    from: 'src/app/mm.ts',
    to: 'strategies/mm/index.ts',
    source: "export const x = () => import('../../strategies/mm/index.js');\n",
  },
  {
    rule: 'strategies-import-only-the-sdk',
    from: 'strategies/mm/money.ts',
    to: 'src/model/decimal.ts',
    source: "import type { D } from '../../src/model/decimal.js';\nexport type X = typeof D;\n",
  },
  {
    rule: 'registry-imports-strategies-and-the-sdk',
    from: 'strategies/index.ts',
    to: 'src/model/errors.ts',
    source:
      "import { ConfigError } from '../src/model/errors.js';\nexport const builtinStrategies = { mm: () => import('./mm/index.js') };\nexport const x = ConfigError;\n",
  },
  { rule: 'no-circular', from: 'src/model/cycle-a.ts', to: 'src/model/cycle-b.ts', source: "import type { B } from './cycle-b.js';\nexport type A = B | 1;\n" },
  { rule: 'not-to-unresolvable', from: 'src/cli/gone.ts', to: './moved-away.js', source: "export const x = () => import('./moved-away.js');\n" },
];
// the other half of the cycle
const CYCLE_PARTNER: Tree = { 'src/model/cycle-b.ts': "import type { A } from './cycle-a.js';\nexport type B = A | 2;\n" };

function write(name: string, tree: Tree): string {
  const dir = join(root, name);
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

interface Violation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

/** The repository's rules and options on `dir` (no tsconfig there: relative `.js` imports of `.ts` resolve without it). */
async function violations(dir: string): Promise<Violation[]> {
  const { tsConfig: _tsConfig, ...options } = config.options;
  const r = await cruise(
    ['src', 'backtest', 'strategies', 'bin'],
    { ...options, baseDir: dir, validate: true, ruleSet: { forbidden: config.forbidden } },
    { bustTheCache: true },
  );
  const result = r.output as ICruiseResult;
  return result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

describe('dependency rules (.dependency-cruiser.cjs)', () => {
  it('a miniature that keeps every seam passes (the sim reads the wire and the fill model, the app and the backtest name the registry, the CLI starts a backtest)', async () => {
    expect(await violations(write('clean', CLEAN))).toEqual([]);
  });

  it('reports each planted violation under its rule, and nothing in the untouched files', async () => {
    const planted = Object.fromEntries(PLANTED.map((p) => [p.from, p.source]));
    const found = await violations(write('planted', { ...CLEAN, ...planted, ...CYCLE_PARTNER }));
    for (const p of PLANTED) {
      expect(found, `${p.rule}: ${p.from} -> ${p.to}`).toContainEqual({ rule: p.rule, from: p.from, to: p.to });
    }
    const plantedFiles = new Set([...PLANTED.map((p) => p.from), ...Object.keys(CYCLE_PARTNER)]);
    expect(found.filter((v) => !plantedFiles.has(v.from))).toEqual([]);
  });

  it('every rule of the config has a planted violation above', () => {
    expect(config.forbidden.map((r) => r.name).sort()).toEqual([...new Set(PLANTED.map((p) => p.rule))].sort());
  });
});
