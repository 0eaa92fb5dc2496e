// Measures npm test's test files one by one, in one process (Jest's --runInBand, so no file waits on
// another's CPU), and writes __tests__/fixtures/shard-weights.json: the seconds each took, which
// fixtures/shards.cjs deals the shards by and fixtures/shard-sequencer.cjs orders the other files by.
// Run it when test files were added or grew much: `npm run test:weights`. A file without a weight is
// estimated from its size until then.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from './action-metadata.js'

interface JestResults {
  testResults: { name: string; startTime: number; endTime: number }[]
}

const { testFiles } = createRequire(join(ROOT, 'package.json'))('./__tests__/fixtures/shards.cjs') as {
  testFiles: () => { file: string }[]
}
// The soak is npm run test:soak's (jest.config.js leaves it out).
const files = testFiles()
  .map((test) => test.file)
  .filter((file) => file !== 'soak')
const temp = mkdtempSync(join(tmpdir(), 'shard-weights-'))
const output = join(temp, 'results.json')
try {
  execFileSync(
    'npx',
    ['jest', '--runInBand', '--json', `--outputFile=${output}`, ...files.map((file) => `__tests__/${file}.test.ts`)],
    {
      cwd: ROOT,
      // Jest's report goes to stderr: shown only when a test failed (the error carries it).
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '--experimental-vm-modules' }
    }
  )
  const results = JSON.parse(readFileSync(output, 'utf8')) as JestResults
  const seconds = new Map(
    results.testResults.map((result) => [
      result.name.slice(join(ROOT, '__tests__').length + 1, -'.test.ts'.length),
      (result.endTime - result.startTime) / 1000
    ])
  )
  const weights = Object.fromEntries(files.map((file) => [file, Number((seconds.get(file) ?? 0).toFixed(2))]))
  writeFileSync(join(ROOT, '__tests__', 'fixtures', 'shard-weights.json'), `${JSON.stringify(weights, null, 2)}\n`)
  console.log(
    `shard-weights: ${String(files.length)} files, ${[...seconds.values()].reduce((a, b) => a + b, 0).toFixed(1)} s in all`
  )
} finally {
  rmSync(temp, { recursive: true, force: true })
}
