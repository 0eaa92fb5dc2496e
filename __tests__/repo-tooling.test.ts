// The repository checks in scripts/: the YAML validation against the vendored schemas and action.yml,
// the README tables generated from action.yml, the runtime stated once, the mutation suite, npm test's order
// and the check that fails a run in which Jest had to force a worker to exit.
import { describe, expect, it } from '@jest/globals'
import { Ajv, type AnySchema } from 'ajv'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { parseActionMetadata } from '../scripts/action-metadata.js'
import { DEFAULT_PORT } from '../simulator/cli.js'
import { renderTable, TABLES_PAGE, updateReadme } from '../scripts/readme-tables.js'
import { actionInputs, validateFile, validateRepository } from '../scripts/validate-yaml.js'
import { SHARDS, shardedFiles, shards, testFiles, WEIGHTS } from './fixtures/shards.cjs'

const ROOT = process.cwd()
const workflowSchema = new Ajv({ allErrors: true, strict: false }).compile(
  JSON.parse(readFileSync(join(ROOT, 'schemas/github-workflow.json'), 'utf8')) as AnySchema
)
const inputs = actionInputs(readFileSync(join(ROOT, 'action.yml'), 'utf8'))

const workflow = (step: string): string =>
  [
    'on: push',
    'jobs:',
    '  docs:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - uses: docs-agent/docs-agent-action@v1',
    '        with:',
    step,
    ''
  ].join('\n')

describe('validate-yaml', () => {
  it('finds nothing wrong with action.yml, the examples and the workflows', () => {
    expect(validateRepository(ROOT)).toEqual([])
  })

  it('names the file, line and key of a schema error', () => {
    const text =
      'on: push\njobs:\n  docs:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n        wiht: {}\n'
    const problems = validateFile('w.yml', text, workflowSchema)
    expect(problems[0]).toMatchObject({ file: 'w.yml', line: 6, message: expect.stringContaining('"wiht"') })
  })

  it('reports YAML syntax errors such as duplicate keys', () => {
    const problems = validateFile('w.yml', 'on: push\non: pull_request\njobs: {}\n', workflowSchema)
    expect(problems).toEqual([expect.objectContaining({ line: 2, message: expect.stringMatching(/^YAML: /) })])
  })

  it('accepts a step that passes the required inputs and known ones', () => {
    const text = workflow('          api-key: k\n          project-id: p\n          prompt: x\n          wait: false')
    expect(validateFile('w.yml', text, workflowSchema, inputs)).toEqual([])
  })

  it('flags an input action.yml does not declare, and a missing required one, where they are', () => {
    const text = workflow('          api-key: k\n          projectid: p')
    const problems = validateFile('w.yml', text, workflowSchema, inputs)
    expect(problems.map(({ line, column, message }) => [line, column, message])).toEqual([
      [9, 22, '/jobs/docs/steps/0 passes "projectid", which action.yml does not declare'],
      [6, 9, '/jobs/docs/steps/0 does not pass the required input "project-id"']
    ])
  })

  it('checks this action by any owner at any ref, quoted or not, or as ./, and no other action', () => {
    const uses = (value: string) => workflow('          wiat: false').replace('docs-agent/docs-agent-action@v1', value)
    const flagged = (value: string) =>
      validateFile('w.yml', uses(value), workflowSchema, inputs).some((p) => p.message.includes('"wiat"'))
    expect(["'someone/docs-agent-action@0123abc'", './', '.', 'docs-agent/other-action@v1'].map(flagged)).toEqual([
      true,
      true,
      true,
      false
    ])
  })
})

describe('readme-tables', () => {
  const meta = parseActionMetadata(readFileSync(join(ROOT, 'action.yml'), 'utf8'))
  const readmePath = join(ROOT, TABLES_PAGE)

  it('keeps the tables on the inputs and outputs page, as action.yml has them', async () => {
    const page = readFileSync(readmePath, 'utf8')
    expect(await updateReadme(page, meta, readmePath)).toEqual({ text: page, changed: [] })
  })

  it('reads every input and output of action.yml, in order', () => {
    expect(meta.inputs[0]).toEqual(expect.objectContaining({ name: 'api-key', required: true, default: undefined }))
    expect(meta.inputs.find((i) => i.name === 'wait')?.default).toBe('true')
    expect(meta.outputs.map((o) => o.name)).toContain('pr-number')
  })

  it('gives the same metadata from its cache as from the YAML', () => {
    // An empty cache of its own: the first call parses, the second reads what the first wrote.
    const cacheDir = mkdtempSync(join(tmpdir(), 'action-metadata-'))
    const text = readFileSync(join(ROOT, 'action.yml'), 'utf8')
    const parsed = parseActionMetadata(text, cacheDir)
    expect(readdirSync(cacheDir)).toHaveLength(1)
    expect(parseActionMetadata(text, cacheDir)).toStrictEqual(parsed)
    expect(parsed).toStrictEqual(meta)
    rmSync(cacheDir, { recursive: true })
  })

  it('escapes pipes and folds line breaks inside cells', () => {
    const table = renderTable(
      { inputs: [{ name: 'a', description: 'one | two\nthree', required: false, default: 'x|y' }], outputs: [] },
      'inputs'
    )
    expect(table.split('\n')[2]).toBe('| `a` | no | `x\\|y` | one \\| two three |')
  })

  it('writes the tables between the markers, then finds nothing to change', async () => {
    const readme =
      '# T\n\n<!-- inputs:start -->\nold\n<!-- inputs:end -->\n\n<!-- outputs:start -->\n<!-- outputs:end -->\n'
    const first = await updateReadme(readme, meta, readmePath)
    expect(first.changed).toEqual(['inputs', 'outputs'])
    expect(first.text).toContain('| `project-id`')
    expect(first.text.startsWith('# T\n\n<!-- inputs:start -->\n\n|')).toBe(true)
    const second = await updateReadme(first.text, meta, readmePath)
    expect(second).toEqual({ text: first.text, changed: [] })
  })

  it('fails without markers', async () => {
    await expect(updateReadme('# T\n', meta, readmePath)).rejects.toThrow('<!-- inputs:start -->')
  })
})

describe('.env.example', () => {
  const meta = parseActionMetadata(readFileSync(join(ROOT, 'action.yml'), 'utf8'))
  const lines = [...readFileSync(join(ROOT, '.env.example'), 'utf8').matchAll(/^(?:# )?INPUT_([A-Z-]+)=(.*)$/gm)]

  it('lists every input of action.yml, in its order, and nothing else', () => {
    expect(lines.map(([, name]) => name)).toEqual(meta.inputs.map((input) => input.name.toUpperCase()))
  })

  it('is, as it stands, the release example as a dry run against the simulator', () => {
    const set: Record<string, string | undefined> = Object.fromEntries(
      lines
        .filter(([line]) => !line.startsWith('# '))
        .map(([, name, value]): [string, string | undefined] => [name ?? '', value])
    )
    expect(set).toMatchObject({
      'DRY-RUN': 'true',
      'BASE-URL': `http://127.0.0.1:${DEFAULT_PORT}`,
      LABELS: 'documentation, release'
    })
    expect(set['API-KEY']).toMatch(/^mint_/)
  })

  it('shows a default, on a commented line, only as action.yml has it', () => {
    for (const [line, name, value] of lines) {
      if (!value || !line.startsWith('# ')) continue
      expect([name, value]).toEqual([name, meta.inputs.find((input) => input.name.toUpperCase() === name)?.default])
    }
  })
})

describe('the README', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')

  it('is short: at most 200 lines, the reference in docs/', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200)
  })

  it('lists every example in its table', () => {
    const listed = [...readme.matchAll(/^\| \[`([\w-]+\.yml)`\]\(examples\/\1\)/gm)].map((m) => m[1])
    expect(listed.sort()).toEqual(readdirSync(join(ROOT, 'examples')).sort())
  })
})

describe('npm scripts', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts

  it('starts the Agent API simulator in one command, flags passed through', () => {
    expect(scripts.simulator).toBe('npm run -s build:tools && node build/simulator/cli.js')
  })
})

describe('the Marketplace listing', () => {
  const action = readFileSync(join(ROOT, 'action.yml'), 'utf8')

  it('has a name that says what the action is for, naming Mintlify', () => {
    expect(/^name: (.+)$/m.exec(action)?.[1]).toBe('Mintlify Agent Docs PR')
  })

  it("has a description within the Marketplace's 125 characters", () => {
    const description = /^description: (.+)$/m.exec(action)?.[1] ?? ''
    expect(description).toMatch(/Mintlify/)
    expect(description.length).toBeLessThanOrEqual(125)
  })
})

describe('.gitignore', () => {
  /** The paths git would ignore, of those given. */
  const ignored = (...paths: string[]): string[] => {
    try {
      return execFileSync('git', ['check-ignore', '--no-index', ...paths], { cwd: ROOT, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
    } catch (error) {
      // Exit code 1: none of them is ignored.
      if ((error as { status?: number }).status === 1) return []
      throw error
    }
  }

  it('keeps every .env file with keys out, but not .env.example', () => {
    expect(ignored('.env', '.env.local', '.env.production', '.env.example')).toEqual([
      '.env',
      '.env.local',
      '.env.production'
    ])
  })
})

describe('the runtime', () => {
  it('is stated once: runs.using, @types/node and .node-version agree; engines admits it', () => {
    const action = readFileSync(join(ROOT, 'action.yml'), 'utf8')
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string }
      devDependencies: Record<string, string>
    }
    const major = /^\s+using: node(\d+)$/m.exec(action)?.[1]
    expect(major).toBe('24')
    // engines is where development works (npm test passes on Node 20): the runtime among them.
    const least = Number(/^>=(\d+)$/.exec(pkg.engines.node)?.[1])
    expect(least).toBeLessThanOrEqual(Number(major))
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${major ?? ''}\\.`))
    expect(readFileSync(join(ROOT, '.node-version'), 'utf8').trim()).toBe(major)
  })
})

describe('the mutation suite', () => {
  // Left out of `npm run mutation`, on purpose: processes, fakes and tooling, and the slow by nature.
  const LEFT_OUT = [
    'step/action.e2e', // runs dist/ as a process, which Stryker cannot see into
    'step/action-inputs.e2e',
    'step/action-rerun.e2e',
    'step/group.e2e',
    'step/chunks.e2e',
    'step/owner.e2e',
    'step/skip.e2e',
    'step/progress.e2e',
    'soak', // processes, signals and re-runs
    'rerun/cache-hang', // waits out the cache library's own retry sleeps, about 10 s
    'base/time-limit', // runs the clock's source in a child Node, which instrumented code cannot
    'agent-api/schedule-goals', // many seeded runs of the wait loop; wait.test.ts pins the loop itself
    'report/summary-render', // the summary rendered as GitHub would, through scripts/
    'simulator/agent-api', // the fakes' own tests
    'simulator/github',
    'simulator/github-owner',
    'simulator/cache',
    'simulator/automations',
    'simulator/check-runs',
    'simulator/openapi-contract',
    'github/proxy', // sets the proxy variables before @actions/github first loads: needs a module graph of its own
    'actionlint', // the repository's tooling
    'action-descriptions', // action.yml's text, no src/
    'report/github-render',
    'repo-tooling',
    'examples',
    'architecture', // reads the import graph, not the code's behaviour
    'start-up',
    'scripts/changelog', // the release workflow's scripts
    'scripts/mutation-baseline', // the mutation scripts themselves
    'scripts/mutation-change',
    'scripts/mutation-diff',
    'scripts/mutation-run',
    'scripts/mutation-sample',
    'scripts/mutation-test-blocks',
    'scripts/mutation-touched',
    'scripts/summary-text' // the demo's text rendering of a summary
  ]

  it('imports every other test file, so a new suite of src/ is not left out by mistake', () => {
    const imported = ['units', 'scenarios'].flatMap((half) => {
      const suite = readFileSync(join(ROOT, `__tests__/mutation-${half}.suite.ts`), 'utf8')
      return [...suite.matchAll(/^\s*(?:await )?import[ (]'\.\/(.+)\.test\.js'\)?$/gm)].map((m) => m[1])
    })
    const all = readdirSync(join(ROOT, '__tests__'), { recursive: true, encoding: 'utf8' })
      .map((file) => file.split(sep).join('/'))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => file.slice(0, -'.test.ts'.length))
    expect(imported.length).toBe(new Set(imported).size)
    expect([...imported, ...LEFT_OUT].sort()).toEqual(all.sort())
  })
})

describe("npm test's shards", () => {
  const files = testFiles()
  const dealt = shards()

  it('runs every sharded test file in exactly one shard, and one shard file for each', () => {
    expect(dealt.flat().sort()).toEqual(shardedFiles())
    const shardFiles = readdirSync(join(ROOT, '__tests__/shards')).sort()
    expect(shardFiles).toEqual(Array.from({ length: SHARDS }, (_, i) => `${String(i + 1)}.shard.ts`).sort())
    expect(dealt.every((shard) => shard.length > 0)).toBe(true)
  })

  it('leaves a file with hooks at its top level, and the built action as a process, to run on its own', () => {
    const alone = files.filter((test) => !test.sharded).map((test) => test.file)
    expect(alone).toContain('step/owner') // useOwnerScenario() at its top level
    expect(alone).toContain('step/action.e2e')
    expect(alone).toContain('github/proxy')
    expect(shardedFiles()).toContain('step/conversation') // its hooks are inside its describe
  })

  it('runs the shards first, in order, then the other files the longest first (fixtures/shard-sequencer.cjs)', () => {
    type Test = { path: string }
    const Sequencer = createRequire(import.meta.url)('./fixtures/shard-sequencer.cjs') as new (options: object) => {
      sort(tests: Test[]): Test[]
    }
    const byWeight = files
      .filter((test) => !test.sharded && Object.hasOwn(WEIGHTS, test.file))
      .sort((a, b) => (WEIGHTS[a.file] ?? 0) - (WEIGHTS[b.file] ?? 0))
    const [lightest, heaviest] = [byWeight[0]?.file, byWeight.at(-1)?.file]
    expect(WEIGHTS[heaviest ?? '']).toBeGreaterThan(WEIGHTS[lightest ?? ''] ?? Infinity)
    const test = (file: string): Test => ({ path: join(ROOT, '__tests__', ...file.split('/')) })
    const given = [`${lightest}.test.ts`, 'shards/2.shard.ts', `${heaviest}.test.ts`, 'shards/1.shard.ts'].map(test)
    expect(new Sequencer({}).sort(given).map((t) => t.path)).toEqual(
      ['shards/1.shard.ts', 'shards/2.shard.ts', `${heaviest}.test.ts`, `${lightest}.test.ts`].map((f) => test(f).path)
    )
  })

  it('weighs test files only (npm run test:weights writes them again after a rename)', () => {
    const known = new Set(files.map((test) => test.file))
    expect(Object.keys(WEIGHTS).filter((file) => !known.has(file))).toEqual([])
    expect(Object.values(WEIGHTS).every((seconds) => Number.isFinite(seconds) && seconds >= 0)).toBe(true)
  })
})

describe('scripts/no-leaked-workers.sh', () => {
  // Jest's own words when a worker outlives the run (jest-runner 30, on stderr).
  const FORCED =
    'A worker process has failed to exit gracefully and has been force exited. This is likely caused by tests leaking due to improper teardown.'
  const run = (script: string): { status: number; stdout: string; stderr: string } => {
    try {
      const stdout = execFileSync('bash', ['scripts/no-leaked-workers.sh', process.execPath, '-e', script], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe']
      })
      return { status: 0, stdout, stderr: '' }
    } catch (error) {
      const e = error as { status: number; stdout: string; stderr: string }
      return { status: e.status, stdout: e.stdout, stderr: e.stderr }
    }
  }

  it('passes a run that ends by itself, its output shown', () => {
    expect(run("console.log('Tests: 3 passed')")).toEqual({ status: 0, stdout: 'Tests: 3 passed\n', stderr: '' })
  })

  it('fails a passing run in which Jest force exited a worker, on stdout or stderr', () => {
    for (const stream of ['log', 'error']) {
      const result = run(`console.${stream}(${JSON.stringify(FORCED)})`)
      expect(result.status).toBe(1)
      expect(result.stdout).toContain('force exited') // shown, whichever stream it came on
      expect(result.stderr).toMatch(/^no-leaked-workers: a Jest worker did not exit by itself/)
    }
  })

  it("passes the command's own failure on, exit code and all", () => {
    expect(run('process.exit(3)').status).toBe(3)
  })
})
