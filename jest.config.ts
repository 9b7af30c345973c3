import type { Config } from 'jest';

// ESM TypeScript through ts-jest; type checking is `npm run typecheck`'s job, so tests only transpile.
const typescript: Config = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
};

/**
 * Three projects, run together by `npm test` (`--selectProjects` picks some): checks of the source
 * and contract (test/static) and the domain's unit tests need no database; the API's tests do, and
 * their globalSetup makes the migrated database each harness copies (test/helpers/database-template.ts).
 */
const config: Config = {
  projects: [
    { ...typescript, displayName: 'static', testMatch: ['<rootDir>/test/static/**/*.test.ts'] },
    { ...typescript, displayName: 'domain', testMatch: ['<rootDir>/test/domain/**/*.test.ts'] },
    {
      ...typescript,
      displayName: 'api',
      testMatch: ['<rootDir>/test/{http,platform,browser}/**/*.test.ts'],
      globalSetup: '<rootDir>/test/helpers/global-setup.ts',
    },
  ],
  // Generous: a suite builds its own app in beforeAll, slow on a busy 2-core machine.
  testTimeout: 60_000,
  maxWorkers: 2,
  // A worker that ran many API files holds what their ES modules left (the VM module registry is not
  // freed between files): past this heap it is replaced before its next file. Without it one worker
  // reached Node's 4 GB heap limit 26 minutes into a CI run and the file it held failed to run.
  workerIdleMemoryLimit: '1500MB',
};

export default config;
