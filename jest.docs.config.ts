import type { Config } from 'jest';

// The documentation site's browser tests (`npm run test:docs`), apart from `npm test`: they need the
// built site (`npm run docs:build`) and Debian's Chromium (/usr/bin/chromium).
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/docs/test'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false, tsconfig: '<rootDir>/docs/test/tsconfig.json' }],
  },
  testMatch: ['<rootDir>/docs/test/**/*.test.ts'],
  testTimeout: 60_000,
  maxWorkers: 1,
};

export default config;
