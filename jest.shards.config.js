// What `npm test` runs: jest.config.js's suites, but the test files the mutation suites import run in
// shards (__tests__/fixtures/shards.cjs), each loading the module graph once; the shards first (they
// are the longest), the files that mostly wait beside them. A test file on its own still runs with
// jest.config.js: `npx jest <path>`.
import { createRequire } from 'node:module'
import base from './jest.config.js'

const { shardedFiles } = createRequire(import.meta.url)('./__tests__/fixtures/shards.cjs')
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** @type {import('jest').Config} */
export default {
  ...base,
  testMatch: [...base.testMatch, '**/__tests__/shards/*.shard.ts'],
  testPathIgnorePatterns: [
    ...base.testPathIgnorePatterns,
    ...shardedFiles().map((file) => `/__tests__/${escape(file)}\\.test\\.ts$`)
  ],
  testSequencer: '<rootDir>/__tests__/fixtures/shard-sequencer.cjs',
  // Eight workers on two cores: the six shards compute while the process and cache-hang files in the
  // other two wait (a cold run: 50 s with four workers and Jest's order; 43 s with eight, the shards
  // balanced and first). More workers cost more CPU than their waits save: each compiles the graph.
  maxWorkers: 8
}
