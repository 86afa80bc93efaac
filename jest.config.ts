import { availableParallelism } from 'node:os';

import type { Config } from 'jest';

/**
 * Jest runs the TypeScript sources directly through ts-jest in ESM mode
 * (inversify 8 is ESM-only). Type checking is `npm run typecheck`'s job, so
 * ts-jest transpiles each file on its own (`isolatedModules` in tsconfig.json).
 *
 * Two projects, both run by `npm test`: `unit` needs nothing but Node;
 * `servers` (test/durable-servers/) starts real PostgreSQL and Redis servers
 * from Debian's packages on 127.0.0.1 (docs/guide/durable.md).
 * `npm run test:quick` runs `unit` only, without its slow suites (below).
 */
const shared = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^affordance$': '<rootDir>/src/index.ts',
    '^affordance/(.*)$': '<rootDir>/src/$1/index.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true }],
  },
  setupFiles: ['<rootDir>/test/support/setup.ts'],
} satisfies Config;

/**
 * The suites `npm run test:quick` leaves out: each builds or packs the package,
 * starts a browser or takes over a minute on its own. `npm test` runs them all.
 */
const slowSuites = [
  '/test/docs/site.test.ts', // builds the docs site, crawls it in chromium
  '/test/examples/chat-page.test.ts', // chromium
  '/test/evals/eval-report-html.test.ts', // chromium
  '/test/inspector/inspector-page.test.ts', // chromium
  '/test/inspector/inspect-cli.test.ts', // builds the package, spawns the command
  '/test/evals/eval-cli.test.ts', // builds the package and the examples, spawns the command
  '/test/hardening/consumer-package.test.ts', // npm pack, tsc
  '/test/hardening/hostile-patterns.test.ts', // child processes with hostile input
  '/test/hardening/dispatch.property.test.ts', // property test, thousands of evaluations
  '/test/schema/compiled-parse.property.test.ts', // property test against the reference parser
];
const quick = process.env['AFFORDANCE_TEST_QUICK'] === '1';

const config: Config = {
  // Jest's default, one worker less than the cores, is one worker on a 2-core
  // machine, and many suites spend their time waiting on child processes
  // (npm, tsc, node, chromium) and servers: two workers at least keep both
  // cores busy (figures in docs/guide/development.md, "How long npm test takes").
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // A test's budget is for catching a hang, not for judging speed: jest's 5 s
  // default failed CPU-bound tests (session.test.ts › concurrency) on a loaded
  // 2-core machine. Tests that start servers set their own, longer, budgets.
  // (A global option: jest ignores it inside a project.)
  testTimeout: 60_000,
  // Compiles dist/ and .build/ once before the suites (test/support/build-once.ts).
  globalSetup: '<rootDir>/test/support/build-once.ts',
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: [
        '/node_modules/',
        '/test/bench/',
        '/test/durable-servers/',
        ...(quick ? slowSuites : []),
      ],
    },
    {
      ...shared,
      displayName: 'servers',
      roots: ['<rootDir>/test/durable-servers'],
      testPathIgnorePatterns: ['/node_modules/'],
    },
  ],
};

export default config;
