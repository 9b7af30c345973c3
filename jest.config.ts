import type { Config } from 'jest';

// ESM TypeScript through ts-jest; type checking is `npm run typecheck`'s job, so tests only transpile.
const config: Config = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // Generous: a suite builds its own database and app in beforeAll, slow on a busy 2-core machine.
  testTimeout: 60_000,
  maxWorkers: 2,
};

export default config;
