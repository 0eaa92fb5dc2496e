/** @type {import('jest').Config} */
export default {
  // Node's, with GitHub's OpenAPI validators compiled once per worker (fixtures/environment.cjs).
  testEnvironment: '<rootDir>/__tests__/fixtures/environment.cjs',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  // The soak slice spawns 40 runs of the built action: .ci/run runs it on its own (npm run test:soak).
  testPathIgnorePatterns: ['/node_modules/', '/__tests__/soak\\.test\\.ts$'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // esbuild strips the types (tsc --noEmit checks them): see fixtures/transform.cjs.
  transform: { '^.+\\.ts$': '<rootDir>/__tests__/fixtures/transform.cjs' },
  // The slow files wait (child processes, the cache library's own retry sleeps) rather than
  // compute: four workers on two cores finish in a third of the time of one.
  maxWorkers: 4,
  // Temp folders under .test-tmp/, one per run, removed at its end: a run leaves nothing behind.
  globalSetup: '<rootDir>/__tests__/fixtures/temp-setup.cjs',
  globalTeardown: '<rootDir>/__tests__/fixtures/temp-teardown.cjs',
  // Every answer of the fake GitHub is checked against GitHub's OpenAPI description.
  setupFilesAfterEnv: ['<rootDir>/__tests__/fixtures/openapi-setup.ts'],
  testTimeout: 60000
}
