/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json', diagnostics: { warnOnly: false } }] },
  testTimeout: 120000,
  globalSetup: '<rootDir>/test/globalSetup.ts',
  // Engine tests are CPU-bound; two workers match the machine and keep timings stable.
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/reporters/summary.js'],
};
