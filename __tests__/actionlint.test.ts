// scripts/actionlint.ts: actionlint over the workflows and examples, in place. (The examples' `with:`
// keys against action.yml: scripts/validate-yaml.ts, in repo-tooling.test.ts.)
import { afterEach, describe, expect, it } from '@jest/globals'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { lintRepository } from '../scripts/actionlint.js'

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
    await expect(lintRepository(ROOT)).resolves.toEqual({ files: workflows + examples, findings: [] })
  })

  it('reports an expression error with its file and line', async () => {
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
})
