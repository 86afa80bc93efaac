/**
 * The import rules of affordance, checked by `npm run lint` (ARCHITECTURE.md, "Layers").
 *
 * The core library is a stack of folders under src/, each importing only from the folders
 * below it. The entry points built on top of it (adapters, ready-made sections, NestJS) reach
 * the core only through its public entry points, so they use exactly what a user can use.
 * Type-only imports count: a cycle through types is still a cycle for a reader.
 */

/** The core layers, bottom first. A folder may import from its own layer and the ones before it. */
const layers = [
  'core',
  'content',
  'metadata',
  'schema',
  'tools',
  'provider',
  'session',
  'resources',
  'prompt',
  'decorators',
  'runtime',
];

/** Entry points built on the core, with the other entry points each may import. */
const entryPoints = {
  openai: ['provider'],
  anthropic: ['provider'],
  'ai-sdk': ['provider'],
  testing: ['provider'],
  planning: [],
  filesystem: [],
  nest: ['provider', 'durable', 'mcp'],
  otel: ['provider'],
  durable: [],
  bullmq: ['provider', 'durable'],
  mcp: ['provider'],
  evals: ['durable', 'inspector'],
  inspector: ['durable', 'mcp'],
};

const entryNames = Object.keys(entryPoints);

/** A path pattern for the folders `names` under src/. */
const folders = (names) => `^src/(${names.join('|')})/`;

const layerRules = layers.slice(0, -1).map((layer, index) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ is layer ${index + 1} of ${layers.length}: it may import only from ${layers
    .slice(0, index + 1)
    .join(
      ', ',
    )}. Move the shared piece down, or invert the dependency (ARCHITECTURE.md, "Layers").`,
  severity: 'error',
  from: { path: folders([layer]) },
  to: { path: [folders(layers.slice(index + 1)), folders(entryNames), '^src/index\\.ts$'] },
}));

const entryRules = entryNames.map((entry) => {
  const allowed = [entry, ...entryPoints[entry]];
  return {
    name: `entry-${entry}`,
    comment:
      `src/${entry}/ is an entry point built on the core: it imports the core through src/index.ts ` +
      `(and ${entryPoints[entry].map((name) => `src/${name}/index.ts`).join(', ') || 'no other entry point'}), ` +
      'never a module behind it. Export what it needs from the right entry point instead.',
    severity: 'error',
    // The barrel chooses the entry point's public names, so it may re-export core modules.
    from: { path: folders([entry]), pathNot: `^src/${entry}/index\\.ts$` },
    to: {
      path: '^src/',
      pathNot: [
        folders([entry]),
        '^src/index\\.ts$',
        ...entryPoints[entry].map((name) => `^src/${name}/index\\.ts$`),
      ],
    },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'Import cycles (type imports included) make a layer impossible to read on its own. ' +
        'Move the shared piece into a lower module, or pass it in.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-not-through-barrels',
      comment:
        'Inside the core, import the module that declares a name, not an entry point barrel ' +
        '(a barrel imports everything, so it hides the real dependency and makes cycles).',
      severity: 'error',
      from: { path: folders(layers) },
      to: { path: ['^src/index\\.ts$', '^src/[^/]+/index\\.ts$'] },
    },
    ...layerRules,
    ...entryRules,
    {
      name: 'examples-use-entry-points',
      comment:
        'The examples show how a user writes an agent: they import the package entry points ' +
        "('affordance', 'affordance/testing', ...), never a module behind them.",
      severity: 'error',
      from: { path: '^examples/' },
      to: { path: '^src/', pathNot: ['^src/index\\.ts$', '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '^dist/', '\\.d\\.ts$'] },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      extensions: ['.ts', '.js', '.d.ts'],
    },
  },
};
