const swcrc = JSON.parse(require('fs').readFileSync(`${__dirname}/.swcrc`, 'utf8'));

/** Tests run against a real PostgreSQL: see tests/setup/. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  globalSetup: '<rootDir>/tests/setup/global-setup.ts',
  globalTeardown: '<rootDir>/tests/setup/global-teardown.ts',
  setupFiles: ['<rootDir>/tests/setup/env.ts'],
  maxWorkers: 2,
  testTimeout: 30000,
};
