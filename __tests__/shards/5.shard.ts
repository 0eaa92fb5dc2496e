// Shard 5 of npm test (fixtures/shards.cjs): its test files in one module graph.
import { shards } from '../fixtures/shards.cjs'

for (const file of shards()[4] ?? []) await import(`../${file}.test.js`)
