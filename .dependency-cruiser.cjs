// The seams of ../shared/design.md ("Rules of the house"), checked on every import: static, type-only, export-from
// and dynamic import('./x.js') with a literal path, in .ts, .mjs and .js files. `npm run deps` (part of `npm test`)
// cruises src/, backtest/, strategies/ and bin/; test/architecture/dependency-rules.test.ts plants one violation of
// each rule below and shows it reported. Change a rule in design.md first, then here.

/**
 * The layer order, outermost first: `cli -> app -> engine/backtest/ops/chaos -> strategy/streams -> venue/sim ->
 * rules -> model`. A folder imports only from its own layer and the layers after it. Folders design.md's order does
 * not name are placed by what they are: `recording` (the recorded-books format, which the sim replays and the
 * daemon will write) beside venue/sim, reading only the wire; `fill-model` (the fill model on polled snapshots, which
 * the backtest's virtual exchange and the paper venue's live flow both apply) beside them too, reading recorded
 * snapshots; `settings` (YAML, schema, logger) beside rules;
 * `loading` (how modules are found and loaded, compiled or from the sources) beside model, importing nothing of ours.
 */
const LAYERS = [
  ['cli'],
  ['app'],
  ['engine', 'backtest', 'ops', 'chaos'],
  ['strategy', 'streams'],
  ['venue', 'sim', 'recording', 'fill-model'],
  ['rules', 'settings'],
  ['model', 'loading'],
];

/** Where a layer's folder is: backtest/ sits beside src/ (design.md), the rest under src/. */
const dir = (name) => (name === 'backtest' ? 'backtest/' : `src/${name}/`);
const anyOf = (names) => `^(${names.map(dir).join('|')})`;
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const layerRules = LAYERS.slice(1).map((names, i) => ({
  name: `layer-${names.join('-')}`,
  comment: `${names.join(', ')} may not import the layers outside them (${LAYERS.slice(0, i + 1)
    .flat()
    .join(', ')}): dependencies point inward (design.md)`,
  severity: 'error',
  from: { path: anyOf(names) },
  to: { path: anyOf(LAYERS.slice(0, i + 1).flat()) },
}));

/** The v4 wire: src/venue/wire.ts and the folder it re-exports. */
const WIRE = '^src/venue/wire(\\.ts$|/)';

/** Within a layer, the few edges design.md implies; everything else between siblings is refused. */
const SIBLING_EDGES = {
  engine: [],
  backtest: ['engine'], // the same executor, risk and journal on virtual time
  ops: ['engine'], // what operators see is the engine's state and events
  chaos: ['engine'], // the journal-vs-venue audit reads the engine's journal
  strategy: [],
  streams: [],
  venue: [],
  sim: ['recording', 'fill-model'], // the sim replays recordings; the paper venue's live flow fills by the fill model
  recording: [],
  'fill-model': ['recording'], // it reads recorded snapshots
  rules: [],
  settings: [],
  model: [],
  loading: [],
};

const siblingRules = LAYERS.flatMap((names) =>
  names
    .map((name) => ({ name, refused: names.filter((other) => other !== name && !SIBLING_EDGES[name].includes(other)) }))
    .filter(({ refused }) => refused.length > 0)
    .map(({ name, refused }) => ({
      name: `siblings-${name}`,
      comment: `${name} may not import ${refused.join(', ')} (same layer; only ${SIBLING_EDGES[name].join(', ') || 'nothing'} there)`,
      severity: 'error',
      from: { path: `^${esc(dir(name))}` },
      // the wire is the contract every part of the venue/sim layer shares (see sim-and-client-share-only-the-wire)
      to: { path: anyOf(refused), pathNot: WIRE },
    })),
);

module.exports = {
  forbidden: [
    ...layerRules,
    ...siblingRules,
    {
      name: 'engine-not-sim',
      comment: 'the engine reaches a venue only through the client, never the simulated exchange (design.md)',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/sim/' },
    },
    {
      name: 'embedded-sim-only-in-the-wiring',
      comment: 'only the composition root (src/app) and the CLI put the embedded sim beside an engine; the chaos harness starts one for the daemons it spawns',
      severity: 'error',
      from: { pathNot: '^src/(app|cli|chaos|sim)/' },
      to: { path: '^src/sim/start-sim\\.ts$' },
    },
    {
      name: 'sim-and-client-share-only-the-wire',
      comment: 'src/venue/wire is the only contract shared by the client and the simulated exchange (design.md)',
      severity: 'error',
      from: { path: '^src/(sim|recording)/' },
      to: { path: '^src/venue/', pathNot: WIRE },
    },
    {
      name: 'wire-is-only-the-contract',
      comment: 'the wire holds JSON shapes and constants, no logic: it imports nothing outside itself',
      severity: 'error',
      from: { path: WIRE },
      to: { pathNot: WIRE, dependencyTypesNot: ['core'] },
    },
    {
      name: 'src-never-imports-backtest',
      comment: 'backtest/ imports from src/, never the reverse; only the wiring above it (src/cli, src/app) starts a backtest',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|app)/' },
      to: { path: '^backtest/' },
    },
    {
      name: 'src-never-imports-strategies',
      comment: 'strategies/ imports from src/, never the reverse; the composition root (src/app, src/cli) passes the registry in',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(cli|app)/' },
      to: { path: '^strategies/' },
    },
    {
      name: 'strategies-only-through-the-registry',
      comment: 'outside strategies/, a strategy is reached by name through the registry (strategies/index.ts), never by its files',
      severity: 'error',
      from: { pathNot: '^strategies/' },
      to: { path: '^strategies/', pathNot: '^strategies/index\\.ts$' },
    },
    {
      name: 'strategies-import-only-the-sdk',
      comment: 'a strategy imports its own folder, the SDK (src/strategy/index.ts) and packages (rxjs), nothing else of ours',
      severity: 'error',
      from: { path: '^strategies/([^/]+)/' },
      to: { pathNot: '^(strategies/$1/|src/strategy/index\\.ts$)', dependencyTypesNot: ['npm', 'npm-dev', 'core'] },
    },
    {
      name: 'registry-imports-strategies-and-the-sdk',
      comment: 'the registry names the strategies beside it and takes its type from the SDK',
      severity: 'error',
      from: { path: '^strategies/index\\.ts$' },
      to: { pathNot: '^(strategies/[^/]+/|src/strategy/index\\.ts$)' },
    },
    {
      name: 'no-circular',
      comment: 'no import cycles (type-only imports count: a cycle of types still ties the files together)',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'every relative import names a file that is there (a dynamic import too, which tsc does not check by path)',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // `.tmp-*`: tests' scratch folders inside the tree, made and removed while `npm test` checks beside the suite
    exclude: { path: '(^|/)(node_modules|dist|\\.tmp-[^/]*)/' },
    // type-only imports are dependencies too (a strategy importing a model type is still reaching past the SDK)
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
