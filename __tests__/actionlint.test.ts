// scripts/actionlint.ts: actionlint over the workflows and examples, and over copies of the examples
// that use this action as `uses: ./`, so their `with:` keys are checked against action.yml.
import { afterEach, describe, expect, it } from '@jest/globals'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatFinding, lintRepository, rewriteUses } from '../scripts/actionlint.js'

const ROOT = process.cwd()

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

const yamlCount = (dir: string): number => readdirSync(join(ROOT, dir)).filter((n) => /\.ya?ml$/.test(n)).length

/** A throwaway repository with the real action.yml, a stand-in dist/index.js and the given files. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'actionlint-test-'))
  roots.push(root)
  for (const dir of ['.git', 'dist', '.github/workflows', 'examples']) mkdirSync(join(root, dir), { recursive: true })
  copyFileSync(join(ROOT, 'action.yml'), join(root, 'action.yml'))
  writeFileSync(join(root, 'dist/index.js'), '')
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text)
  return root
}

/** A workflow whose only step uses this action as `uses`, passing the given `with:` lines (from line 9). */
const workflow = (uses: string, ...withLines: string[]): string =>
  [
    'on: push',
    'permissions: {}',
    'jobs:',
    '  docs:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    `      - uses: ${uses}`,
    '        with:',
    ...withLines.map((line) => `          ${line}`),
    ''
  ].join('\n')

describe('actionlint', () => {
  it('finds nothing wrong with the repository workflows and examples', async () => {
    const workflows = yamlCount('.github/workflows')
    const examples = yamlCount('examples')
    await expect(lintRepository(ROOT)).resolves.toEqual({ files: workflows + 2 * examples, findings: [] })
  })

  it('reports an expression error with its file and line, once for an example linted twice', async () => {
    const text = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.nope }}\n'
    const { findings } = await lintRepository(fixture({ '.github/workflows/bad.yml': text, 'examples/bad.yml': text }))
    const expected = (file: string) =>
      expect.objectContaining({
        file,
        line: 6,
        rule: 'expression',
        message: expect.stringContaining('property "nope" is not defined')
      })
    expect(findings).toEqual([expected('.github/workflows/bad.yml'), expected('examples/bad.yml')])
  })

  it('checks a misspelt with: key of an example against action.yml, reported against the example', async () => {
    const text = workflow('docs-agent/docs-agent-action@v1', 'api-key: k', 'projectid: p')
    const { files, findings } = await lintRepository(fixture({ 'examples/misspelt.yml': text }))
    expect(files).toBe(2)
    expect(findings.map(formatFinding)).toEqual([
      expect.stringMatching(
        /^examples\/misspelt\.yml:7:15: missing input "project-id" which is required .* \[action\]$/
      ),
      expect.stringMatching(/^examples\/misspelt\.yml:10:11: input "projectid" is not defined in action .* \[action\]$/)
    ])
  })

  it('reports a missing required input of an example', async () => {
    const text = workflow("'docs-agent/docs-agent-action@v1'", 'project-id: p')
    const { findings } = await lintRepository(fixture({ 'examples/no-key.yml': text }))
    expect(findings).toEqual([
      expect.objectContaining({
        file: 'examples/no-key.yml',
        line: 7,
        message: expect.stringContaining('missing input "api-key"')
      })
    ])
  })

  it('checks `uses: ./` in the repository workflows against action.yml in place', async () => {
    const { findings } = await lintRepository(
      fixture({ '.github/workflows/local.yml': workflow('./', 'api-key: k', 'project-id: p', 'wiat: false') })
    )
    expect(findings).toEqual([
      expect.objectContaining({
        file: '.github/workflows/local.yml',
        line: 11,
        message: expect.stringContaining('"wiat"')
      })
    ])
  })

  it('rewrites only this action, with or without quotes, keeping line numbers', () => {
    const text = [
      '- uses: docs-agent/docs-agent-action@v1',
      '  uses: "someone/docs-agent-action@0123abc" # pinned',
      '- uses: actions/checkout@v5',
      '- uses: docs-agent/other-action@v1'
    ].join('\n')
    expect(rewriteUses(text).split('\n')).toEqual([
      '- uses: ./',
      '  uses: "./" # pinned',
      '- uses: actions/checkout@v5',
      '- uses: docs-agent/other-action@v1'
    ])
  })
})
