// What a run loads before its first request: src/index.ts and every module it reaches through
// static imports. What only some runs need is loaded by `import()` when they need it (and ncc
// puts it in a chunk of its own): the markdown parser when a text may hide something, Octokit when
// a GitHub request is made, @actions/cache when a re-run record is read or saved. The built
// chunks a run loads are checked in step/chunks.e2e.test.ts.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const SRC = join(process.cwd(), 'src')

/**
 * The modules `file` loads when it is loaded: every `import … from` and `export … from` but those
 * TypeScript erases (`import type`, `export type`); `import()` is left out, as it loads later.
 */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/^(?:import|export)(?!\s+type\b)\s+(?:[\w*${},\s]*?\sfrom\s*)?'([^']+)'/gm)].map(
    (m) => m[1] ?? ''
  )
}

/** The packages (and their subpaths) loaded with `entry`, and the files of src/ it reaches. */
function loadedWith(entry: string): { packages: string[]; files: string[] } {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string): void => {
    if (files.has(file)) return
    files.add(file)
    for (const spec of staticImports(file)) {
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
      else if (!spec.startsWith('node:')) packages.add(spec)
    }
  }
  visit(join(SRC, entry))
  return { packages: [...packages].sort(), files: [...files].map((f) => relative(SRC, f)).sort() }
}

describe('what a run loads before its first request', () => {
  const { packages, files } = loadedWith('index.ts')
  const runner = loadedWith('step/runner.ts')

  it('reaches the step through the one `import()` of src/index.ts', () => {
    expect(files).toEqual(['index.ts', 'step/signals.ts'])
    expect(runner.files).toContain('step/main.ts')
    expect(runner.files).toContain('agent-api/client.ts')
  })

  it('loads of its packages only the runner interface, undici and the proxy rules of the runner', () => {
    expect([...new Set([...packages, ...runner.packages])].sort()).toEqual([
      '@actions/core',
      '@actions/http-client/lib/proxy',
      'undici'
    ])
  })

  it('leaves the closing phases (report, docs checks, owner, preview) to the `import()` at the end of the flow', () => {
    expect(runner.files).not.toContain('step/closing.ts')
    expect(runner.files).not.toContain('report/finish.ts')
    expect(runner.files).not.toContain('step/owner/phase.ts')
    expect(runner.files).not.toContain('step/docs-checks/phase.ts')
    expect(readFileSync(join(SRC, 'step/action.ts'), 'utf8')).toContain("import('./closing.js')")
  })

  it('leaves reading the context (the GitHub reads of a trigger) to the `import()` of a run that reads it', () => {
    for (const file of ['context', 'release-set', 'since-documented', 'withheld-context'])
      expect(runner.files).not.toContain(`github/context/${file}.ts`)
    expect(runner.files).not.toContain('step/prompt-context.ts')
    expect(readFileSync(join(SRC, 'step/prompt.ts'), 'utf8')).toContain("import('./prompt-context.js')")
  })

  it.each([
    ['the markdown parser', 'micromark', 'base/hidden.ts'],
    // octokit.ts gathers @actions/github, the throttling plugin and the body parse into one chunk.
    ['Octokit', './octokit.js', 'github/client.ts'],
    ['the cache library', '@actions/cache', 'rerun/cache.ts']
  ])('loads %s with `import()`, from the one file that needs it', (_what, name, file) => {
    const text = readFileSync(join(SRC, file), 'utf8')
    expect(text).toContain(`import('${name}')`)
  })

  it('reaches Octokit only through that import', () => {
    expect(runner.files).not.toContain('github/octokit.ts')
    expect(runner.files).not.toContain('github/parse-json.ts')
  })
})
