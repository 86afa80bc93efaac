import type { Config } from 'jest';

/**
 * Jest runs the TypeScript sources directly through ts-jest in ESM mode
 * (inversify 8 is ESM-only). Type checking is `npm run typecheck`'s job, so
 * ts-jest transpiles each file on its own (`isolatedModules` in tsconfig.json).
 */
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/test/bench/'],
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
};

export default config;
