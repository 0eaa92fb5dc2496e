/**
 * A package's release in a monorepo: the package's own commits first, all of them, then the rest
 * of the range. In-process, against the simulator and the fake GitHub on loopback, on a virtual clock.
 */
import { beforeEach, describe, expect, it } from '@jest/globals'
import type { GitHubApiFake } from '../../../simulator/github/index.js'
import { CONTEXT_BUDGET_CHARS } from '../../../src/github/context/budget.js'
import { tagPush, useFakeGitHub } from '../../fixtures/github.js'
import { useStep } from '../../fixtures/step.js'

describe('a package of a monorepo', () => {
  const KEY = 'mint_package_context_key_000'
  /** npm workspaces: scoped packages under packages/. */
  const NPM = 'acme/workspace'
  /** A Cargo workspace of crates at the root, a range longer than compare lists. */
  const CARGO = 'acme/wharf'
  const PROMPT = 'Document this release.'
  const step = useStep({ key: KEY, project: 'proj', prompt: PROMPT, scenario: { runMs: 3000 } })
  let github: GitHubApiFake
  const fake = useFakeGitHub(step.clock, { fresh: 'requests', seed: seedRepositories }, (started) => (github = started))

  const change = (filename: string, line: string) => ({
    filename,
    status: 'modified' as const,
    additions: 1,
    deletions: 1,
    patch: `@@ -1 +1 @@\n-old\n+${line}`
  })
  const commit = (repo: string, message: string, filename: string): string =>
    github.addCommits(repo, [{ message, files: [change(filename, message)] }])[0] ?? ''

  function seedRepositories(): void {
    const [init] = github.addCommits(NPM, [
      {
        message: 'Set up the workspace',
        contents: {
          'package.json': '{"name":"acme-workspace","private":true,"workspaces":["packages/*"]}',
          'packages/cli/package.json': '{"name":"@acme/cli"}',
          'packages/core/package.json': '{"name":"@acme/core"}',
          'packages/shim/package.json': '{"name":"@acme/shim"}',
          'packages/shim/index.js': "module.exports = require('@acme/core')"
        }
      }
    ])
    for (const tag of ['@acme/cli@1.0.0', '@acme/core@1.0.0', '@acme/shim@1.0.0', 'lone@1.0.0'])
      github.addTag(NPM, { name: tag, at: init ?? '' })
    // 60 commits: 5 to the cli, one to the shim, the rest to core.
    for (let i = 0; i < 60; i++) {
      if (i % 12 === 3) commit(NPM, `cli: change ${i} (#${100 + i})`, `packages/cli/src/c${i}.ts`)
      else if (i === 30) commit(NPM, 'shim: re-export the new reader (#200)', 'packages/shim/index.js')
      else commit(NPM, `core: change ${i} (#${100 + i})`, `packages/core/src/k${i % 7}.ts`)
    }
    const head = commit(NPM, 'Version Packages', 'CHANGELOG.md')
    for (const tag of ['@acme/cli@1.1.0', '@acme/core@1.1.0', '@acme/shim@1.0.1', 'lone@1.0.1'])
      github.addTag(NPM, { name: tag, at: head })

    const [crates] = github.addCommits(CARGO, [
      {
        message: 'Crates',
        contents: {
          'Cargo.toml': '[workspace]\nmembers = ["wharf", "wharf-macros"]\n',
          'wharf/Cargo.toml': '[package]\nname = "wharf"\n',
          'wharf-macros/Cargo.toml': '[package]\nname = "wharf-macros"\n'
        }
      }
    ])
    github.addTag(CARGO, { name: 'wharf-macros-v0.1.0', at: crates ?? '' })
    // 330 commits, 110 of them to the macros crate, spread over the whole range.
    for (let i = 0; i < 330; i++) {
      if (i % 3 === 1) commit(CARGO, `macros: change ${i}`, `wharf-macros/src/m${i}.rs`)
      else commit(CARGO, `wharf: change ${i}`, `wharf/src/w${i % 9}.rs`)
    }
    github.addTag(CARGO, { name: 'wharf-macros-v0.2.0', at: commit(CARGO, 'Release', 'Cargo.lock') })
  }
  beforeEach(() => {
    github.treeLimit = 100_000
  })

  const run = (repo: string, tag: string, inputs: Record<string, string> = {}) =>
    step.run(inputs, { env: fake.env({ ...tagPush(tag), GITHUB_REPOSITORY: repo }) })
  const sent = () => step.sim().jobs('proj')[0]?.prompts[0] ?? ''
  const routes = () => github.requests.map((r) => r.route).sort()
  /** The lines of the prompt under `heading`, up to the next heading. */
  const under = (prompt: string, heading: string): string[] => {
    const start = prompt.indexOf(`\n${heading}\n\n`)
    if (start < 0) return []
    const rest = prompt.slice(start + heading.length + 3)
    return rest.slice(0, rest.search(/\n\n#|$/)).split('\n')
  }

  it("lists the package's own commits first, all of them, then the range's others under their own heading", async () => {
    const result = await run(NPM, '@acme/cli@1.1.0')
    expect(result.code).toBe(0)
    const prompt = sent()
    const cli = [3, 15, 27, 39, 51].map((i) => `- cli: change ${i} (#${100 + i})`)
    expect(prompt).toContain(
      '\n- Package directory: packages/cli (packages/cli/package.json names it); 5 of the 60 commits since @acme/cli@1.0.0 touch it\n'
    )
    expect(under(prompt, '### Changes to packages/cli since @acme/cli@1.0.0 (5)')).toEqual(cli)
    // The release commit is left out of the range's count and of its lists, as a whole range's is.
    const others = under(
      prompt,
      '### Other changes in the range, not touching packages/cli (55; 1 release commit left out)'
    )
    expect(others).toHaveLength(55)
    expect(others).not.toContain('- Version Packages')
    expect(others).toContain('- shim: re-export the new reader (#200)')
    expect(others.some((line) => line.startsWith('- cli:'))).toBe(false)
    expect(prompt.indexOf('### Changes to packages/cli')).toBeLessThan(prompt.indexOf('### Other changes'))
    // The package's files come first among the patches, whatever their size.
    const patches = prompt.slice(prompt.indexOf('### The change itself'))
    expect(patches.indexOf('#### packages/cli/')).toBeLessThan(patches.indexOf('#### packages/core/'))
    expect(result.at('info')).toContainEqual(
      expect.stringMatching(
        /^Context: Tag @acme\/cli@1\.1\.0: 5 of 60 changes since @acme\/cli@1\.0\.0 touch packages\/cli \(/
      )
    )
    // One tree, one manifest, the previous release's newest commit of the directory and one page.
    expect(routes()).toEqual(['commits', 'commits', 'compare', 'contents', 'matching-refs', 'release-by-tag', 'tree'])
    expect(result.at('warning')).toEqual([])
  })

  it('a thin wrapper: its one commit, then the rest of the range', async () => {
    await run(NPM, '@acme/shim@1.0.1')
    const prompt = sent()
    expect(prompt).toContain('; 1 of the 60 commits since @acme/shim@1.0.0 touches it\n')
    expect(under(prompt, '### Changes to packages/shim since @acme/shim@1.0.0 (1)')).toEqual([
      '- shim: re-export the new reader (#200)'
    ])
    expect(
      under(prompt, '### Other changes in the range, not touching packages/shim (59; 1 release commit left out)')
    ).toHaveLength(59)
  })

  it("a range past compare's 250 commits: every one of the package's is listed, the others counted", async () => {
    const result = await run(CARGO, 'wharf-macros-v0.2.0')
    const prompt = sent()
    expect(prompt).toContain(
      '- Package directory: wharf-macros (wharf-macros/Cargo.toml names it); 110 of the 331 commits'
    )
    const own = under(prompt, '### Changes to wharf-macros since wharf-macros-v0.1.0 (110)')
    expect(own).toEqual(Array.from({ length: 110 }, (_, k) => `- macros: change ${3 * k + 1}`))
    const others = under(prompt, '### Other changes in the range, not touching wharf-macros (221)')
    expect(others.at(-1)).toMatch(/^- … and \d+ more changes$/)
    expect(prompt.length - PROMPT.length - 2).toBeLessThanOrEqual(CONTEXT_BUDGET_CHARS)
    // The previous release's page, then two of the tag's: 110 commits.
    expect(routes().filter((route) => route === 'commits')).toHaveLength(3)
    expect(result.at('warning')).toEqual([])
  })

  it('no directory found: the whole range, and the summary says why', async () => {
    const result = await run(NPM, 'lone@1.0.1')
    expect(sent()).toContain('\n### Changes since lone@1.0.0 (60; 1 release commit left out)\n')
    expect(sent()).not.toContain('Package directory')
    const why = "package directory not found: no directory of the tag's tree is named like lone"
    expect(result.at('info')).toContainEqual(expect.stringContaining(`60 changes since lone@1.0.0 (${why})`))
    expect(result.summary).toContain(why)
    expect(result.at('warning')).toEqual([])
  })

  it('a tree cut short: the whole range and one warning', async () => {
    github.treeLimit = 3
    const result = await run(NPM, '@acme/cli@1.1.0')
    expect(sent()).toContain('\n### Changes since @acme/cli@1.0.0 (60; 1 release commit left out)\n')
    expect(result.at('warning')).toEqual([
      "Context: GitHub cut the tree of @acme/cli@1.1.0 short (too many files to list), so the package's directory was not looked for; the context lists every commit of the range."
    ])
    expect(routes()).not.toContain('contents')
  })

  it('a failed read: the whole range and one warning naming it', async () => {
    github.fail('commits', { kind: 'status', status: 403, message: 'Resource not accessible by integration' })
    const result = await run(NPM, '@acme/cli@1.1.0')
    expect(sent()).toContain('\n### Changes since @acme/cli@1.0.0 (60; 1 release commit left out)\n')
    const warnings = result.at('warning')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      /^Context: could not read the commits touching packages\/cli \(page 1\) \(GitHub answered 403/
    )
  })

  it('a single-package tag reads nothing more', async () => {
    const repo = 'acme/single'
    github.addTag(repo, { name: 'v1.0.0', at: commit(repo, 'One', 'src/a.ts') })
    github.addTag(repo, { name: 'v1.1.0', at: commit(repo, 'Two', 'src/b.ts') })
    github.requests.length = 0
    await run(repo, 'v1.1.0')
    expect(routes()).toEqual(['compare', 'matching-refs', 'release-by-tag'])
    expect(sent()).toContain('\n### Changes since v1.0.0 (1)\n')
  })

  it("a release set: each package's own commits in its section, the others named once", async () => {
    const result = await run(NPM, '', { 'release-tags': '@acme/cli@1.1.0 @acme/shim@1.0.1' })
    expect(result.code).toBe(0)
    const prompt = sent()
    expect(under(prompt, '#### Changes to packages/cli since @acme/cli@1.0.0 (5)')).toHaveLength(5)
    expect(under(prompt, '#### Changes to packages/shim since @acme/shim@1.0.0 (1)')).toHaveLength(1)
    expect(prompt).not.toContain('Other changes in the range')
    const once = under(prompt, "### Other changes in these releases' ranges, touching none of the packages above (55)")
    expect(once).toHaveLength(55)
    expect(once.every((line) => line.startsWith('- core:') || line === '- Version Packages')).toBe(true)
    expect(prompt.split('- core: change 0 (#100)')).toHaveLength(2)
    // The table counts each package's own changes.
    expect(prompt).toContain('| `@acme/cli@1.1.0` | `@acme/cli@1.0.0` | 5 |')
  })
})
