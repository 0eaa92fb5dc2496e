// Shard 4 of npm test (fixtures/shards.cjs): its test files in one module graph.
import { shards } from '../fixtures/shards.cjs'

for (const file of shards()[3] ?? []) await import(`../${file}.test.js`)
