/**
 * A package's directory from its tag and the tag's tree: made-up repositories in the shapes real
 * monorepos have (npm workspaces, a Cargo workspace, Go sub-modules, release-please, a Python
 * sub-package named after its repository).
 */
import { describe, expect, it } from '@jest/globals'
import {
  candidateNames,
  findPackageDirectory,
  fit,
  likelyManifests,
  manifestName,
  MANIFEST_READS,
  nameOfComponent,
  pathOfComponent,
  releasePleaseDirectory
} from '../../../src/github/context/package-directory.js'
import { parseTag } from '../../../src/github/context/version.js'

/** A tag's tree as files and their text; `truncated` and failing paths as asked. */
function repository(
  files: Record<string, string>,
  over: { truncated?: boolean; failTree?: boolean; fail?: string[] } = {}
) {
  const read: string[] = []
  let trees = 0
  return {
    read,
    trees: () => trees,
    reads: {
      tree: () => {
        trees++
        return Promise.resolve(
          over.failTree ? undefined : { paths: Object.keys(files), truncated: over.truncated ?? false }
        )
      },
      text: (path: string) => {
        read.push(path)
        return Promise.resolve(over.fail?.includes(path) ? undefined : files[path])
      }
    }
  }
}

async function find(tag: string, repoName: string, files: Record<string, string>, over = {}) {
  const repo = repository(files, over)
  const component = parseTag(tag)?.component ?? ''
  const found = await findPackageDirectory(component, repoName, repo.reads)
  return { found, read: repo.read, trees: repo.trees() }
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

/** npm workspaces: scoped packages under packages/, an installed copy and a fixture that must not count. */
const NPM = {
  'package.json': json({ name: 'acme-monorepo', private: true, workspaces: ['packages/*'] }),
  'packages/cli/package.json': json({ name: '@acme/cli', version: '1.1.0' }),
  'packages/cli/src/index.ts': 'export {}',
  'packages/cli/test/fixtures/package.json': json({ name: '@acme/cli' }),
  'packages/cli-utils/package.json': json({ name: '@acme/cli-utils' }),
  'packages/core/package.json': json({ name: '@acme/core' }),
  'packages/babel-preset/package.json': json({ name: '@acme/preset' }),
  'node_modules/@acme/cli/package.json': json({ name: '@acme/cli' })
}

/** A Cargo workspace with its crates at the root, and a root manifest that is only the workspace. */
const CARGO = {
  'Cargo.toml':
    '[workspace]\nmembers = ["wharf", "wharf-macros", "wharf-util"]\n\n[workspace.package]\nedition = "2021"\n',
  'wharf/Cargo.toml': '[[bin]]\nname = "wharf-cli"\n\n[package]\nname = "wharf"\nversion = "1.2.0"\n',
  'wharf-macros/Cargo.toml': '# proc macros\n[package]\nname = \'wharf_macros\'\n\n[dependencies]\nname = "not-this"\n',
  'wharf-util/Cargo.toml': '[package]\nname = "wharf-util"\n'
}

describe('the component of a tag', () => {
  it('a path component is its own directory', () => {
    expect(pathOfComponent('tools/v')).toBe('tools')
    expect(pathOfComponent('internal/gopls/v')).toBe('internal/gopls')
    expect(pathOfComponent('path/')).toBe('path')
    expect(pathOfComponent('@acme/cli@')).toBeUndefined()
    expect(pathOfComponent('acme-util-')).toBeUndefined()
    expect(pathOfComponent('v')).toBeUndefined()
  })

  it('a name component is the package name', () => {
    expect(nameOfComponent('@acme/cli@')).toBe('@acme/cli')
    expect(nameOfComponent('pkg@v')).toBe('pkg')
    expect(nameOfComponent('core-v')).toBe('core')
    expect(nameOfComponent('acme-util-')).toBe('acme-util')
    expect(nameOfComponent('acme_')).toBe('acme')
  })

  it('a name not starting with the repository also goes by the repository and the name', () => {
    expect(candidateNames('core', 'quokka')).toEqual(['core', 'quokka-core'])
    expect(candidateNames('quokka-core', 'quokka')).toEqual(['quokka-core'])
    expect(candidateNames('Quokka_Core', 'quokka')).toEqual(['Quokka_Core'])
  })
})

describe('which directories can hold the package', () => {
  it('ranks the last segment, then a longer name ending with it, then a shorter end of the name', () => {
    expect(fit('packages/cli', ['@acme/cli'])).toBe(0)
    expect(fit('packages/acme-cli', ['@acme/cli'])).toBe(0)
    expect(fit('packages/babel-plugin-x', ['@acme/plugin-x'])).toBe(1)
    expect(fit('packages/babel-plugin-x', ['@babel/plugin-x'])).toBe(0)
    expect(fit('x', ['y'])).toBeUndefined()
    expect(fit('crates/macros', ['wharf-macros'])).toBe(2)
    expect(fit('packages/cli-utils', ['@acme/cli'])).toBeUndefined()
    expect(fit('', ['cli'])).toBeUndefined()
    expect(fit('Wharf_Util', ['wharf-util'])).toBe(0)
    expect(fit('x/core', ['nope', 'core'])).toBe(0)
  })

  it('lists manifests only, installed copies and fixtures left out, best fit and shallowest first', () => {
    expect(likelyManifests(Object.keys(NPM), ['@acme/cli'], 'monorepo')).toEqual(['packages/cli/package.json'])
    expect(likelyManifests(Object.keys(CARGO), ['wharf'], 'wharf')).toEqual(['Cargo.toml', 'wharf/Cargo.toml'])
    expect(
      likelyManifests(['b/x/go.mod', 'a/x/pyproject.toml', 'x/Cargo.toml', 'lib/pre-x/setup.py'], ['x'], 'r')
    ).toEqual(['x/Cargo.toml', 'a/x/pyproject.toml', 'b/x/go.mod'])
  })
})

describe('the name a manifest gives', () => {
  it('package.json name; not a string or not JSON: none', () => {
    expect(manifestName('a/package.json', '{"name":"@acme/cli"}')).toBe('@acme/cli')
    expect(manifestName('package.json', '{"name":3}')).toBeUndefined()
    expect(manifestName('package.json', 'null')).toBeUndefined()
    expect(manifestName('package.json', '{')).toBeUndefined()
  })

  it('Cargo.toml [package] name, whatever tables come before or after', () => {
    expect(manifestName('wharf/Cargo.toml', CARGO['wharf/Cargo.toml'])).toBe('wharf')
    expect(manifestName('wharf-macros/Cargo.toml', CARGO['wharf-macros/Cargo.toml'])).toBe('wharf_macros')
    expect(manifestName('Cargo.toml', CARGO['Cargo.toml'])).toBeUndefined()
    expect(manifestName('Cargo.toml', '[ package ] # the crate\r\n  name="spaced"\r\n')).toBe('spaced')
  })

  it('pyproject.toml [project] name, else [tool.poetry] name', () => {
    const both = '[tool.poetry]\nname = "poetry-name"\n[project]\nname = "project-name"\n'
    expect(manifestName('pyproject.toml', both)).toBe('project-name')
    expect(manifestName('pyproject.toml', '[tool.poetry]\nname = "poetry-name"\n')).toBe('poetry-name')
    expect(manifestName('pyproject.toml', '[tool.ruff]\nname = "x"\n')).toBeUndefined()
  })

  it('go.mod module path', () => {
    expect(manifestName('tools/go.mod', '// tools\nmodule example.com/acme/tools/v2\n\ngo 1.22\n')).toBe(
      'example.com/acme/tools/v2'
    )
    expect(manifestName('go.mod', 'go 1.22\n')).toBeUndefined()
  })
})

describe('release-please config', () => {
  const config = json({
    packages: {
      'packages/storage': { component: 'storage' },
      'packages/pubsub': { 'package-name': '@acme/pubsub' },
      'packages/odd': 'not an object',
      '.': { component: 'root' }
    }
  })
  it('maps a component or a package name to its path', () => {
    expect(releasePleaseDirectory(config, ['storage'])).toBe('packages/storage')
    expect(releasePleaseDirectory(config, ['@ACME/pubsub'])).toBe('packages/pubsub')
    expect(releasePleaseDirectory(config, ['missing'])).toBeUndefined()
    expect(releasePleaseDirectory('{', ['storage'])).toBeUndefined()
    expect(releasePleaseDirectory('{"packages": 1}', ['storage'])).toBeUndefined()
    expect(releasePleaseDirectory('null', ['storage'])).toBeUndefined()
  })
})

describe('finding the directory', () => {
  it('a single-package tag reads nothing', async () => {
    for (const tag of ['v1.2.3', '1.2.3']) {
      expect(await find(tag, 'app', NPM)).toEqual({ found: { kind: 'single' }, read: [], trees: 0 })
    }
  })

  it('a path tag (Go sub-modules) reads nothing', async () => {
    expect(await find('tools/v0.23.0', 'acme', {})).toEqual({
      found: { kind: 'found', directory: 'tools', how: 'the tag names it' },
      read: [],
      trees: 0
    })
    expect((await find('cmd/relay/v1.0.0', 'acme', {})).found).toMatchObject({ directory: 'cmd/relay' })
  })

  it('npm workspaces: the scoped package under packages/, one manifest read', async () => {
    expect(await find('@acme/cli@1.1.0', 'monorepo', NPM)).toEqual({
      found: { kind: 'found', directory: 'packages/cli', how: 'packages/cli/package.json names it' },
      read: ['packages/cli/package.json'],
      trees: 1
    })
    expect((await find('@acme/preset@2.0.0', 'monorepo', NPM)).found).toMatchObject({
      directory: 'packages/babel-preset'
    })
  })

  it('a Cargo workspace of crates at the root: the workspace manifest is read and passed over', async () => {
    expect(await find('wharf-1.2.0', 'wharf', CARGO)).toEqual({
      found: { kind: 'found', directory: 'wharf', how: 'wharf/Cargo.toml names it' },
      read: ['Cargo.toml', 'wharf/Cargo.toml'],
      trees: 1
    })
    expect((await find('wharf-macros-v0.3.1', 'wharf', CARGO)).found).toMatchObject({ directory: 'wharf-macros' })
  })

  it('release-please: the config maps the component to its path', async () => {
    const files = {
      'release-please-config.json': json({ packages: { 'packages/storage': { component: 'storage' } } }),
      'packages/storage/package.json': json({ name: '@acme/storage-client' })
    }
    expect(await find('storage-v1.4.0', 'acme', files)).toEqual({
      found: { kind: 'found', directory: 'packages/storage', how: 'release-please-config.json names it' },
      read: ['release-please-config.json', 'packages/storage/package.json'],
      trees: 1
    })
  })

  it('a sub-package named after the repository and the component', async () => {
    const files = {
      'pyproject.toml': '[project]\nname = "quokka"\n',
      'quokka/core.py': '',
      'quokka-core/pyproject.toml': '[project]\nname = "quokka-core"\n'
    }
    expect((await find('core-v2.48.0', 'quokka', files)).found).toEqual({
      kind: 'found',
      directory: 'quokka-core',
      how: 'quokka-core/pyproject.toml names it'
    })
  })

  it('a scoped npm package tagged by its name without the scope (release-please)', async () => {
    const files = { 'plugins/node/instr-http/package.json': json({ name: '@acme/instr-http' }) }
    expect((await find('instr-http-v0.5.0', 'acme', files)).found).toMatchObject({
      directory: 'plugins/node/instr-http'
    })
    const other = { 'plugins/node/instr-http/package.json': json({ name: '@acme/instr-https' }) }
    expect((await find('instr-http-v0.5.0', 'acme', other)).found).toMatchObject({ kind: 'none' })
  })

  it('a Go module by its path where the tag gives a name', async () => {
    const files = { 'relay/go.mod': 'module example.com/acme/relay/v3\n', 'go.mod': 'module example.com/acme\n' }
    expect((await find('relay-v3.1.0', 'acme', files)).found).toMatchObject({ directory: 'relay' })
  })

  it('reads at most MANIFEST_READS manifests, the likeliest', async () => {
    const files = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`group-${i}/plugin/package.json`, json({ name: `other-${i}` })])
    )
    const { found, read } = await find('plugin@1.0.0', 'acme', files)
    expect(read).toHaveLength(MANIFEST_READS)
    expect(found).toEqual({
      kind: 'none',
      why: `none of the ${MANIFEST_READS} likeliest manifests of directories named like plugin names it`
    })
  })

  it('no directory named like it: none, and why', async () => {
    expect(await find('@acme/absent@1.0.0', 'monorepo', NPM)).toEqual({
      found: { kind: 'none', why: "no directory of the tag's tree is named like @acme/absent" },
      read: [],
      trees: 1
    })
    const wrong = { 'x/package.json': json({ name: 'y' }) }
    expect((await find('x@1.0.0', 'acme', wrong)).found).toEqual({
      kind: 'none',
      why: 'none of the manifests of directories named like x names it'
    })
  })

  it('the package at the root is the whole repository: none, and why', async () => {
    const files = { 'package.json': json({ name: 'acme-util' }) }
    expect((await find('acme-util-0.7.19', 'acme-util', files)).found).toEqual({
      kind: 'none',
      why: "acme-util is the package at the repository's root"
    })
  })

  it('a truncated tree or a failed read: unread', async () => {
    expect((await find('@acme/cli@1.1.0', 'monorepo', NPM, { truncated: true })).found).toEqual({
      kind: 'unread',
      truncated: true
    })
    expect(await find('@acme/cli@1.1.0', 'monorepo', NPM, { failTree: true })).toEqual({
      found: { kind: 'unread', truncated: false },
      read: [],
      trees: 1
    })
    const failed = await find('@acme/cli@1.1.0', 'monorepo', NPM, { fail: ['packages/cli/package.json'] })
    expect(failed.found).toEqual({ kind: 'unread', truncated: false })
  })
})
