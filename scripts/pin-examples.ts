// Pins every `uses: docs-agent/docs-agent-action@<ref>` of the examples, the README and docs/ to one
// commit, keeping each line's trailing comment. Until the first release, what a user copies must
// name a commit that exists (an `@v1` that does not fails with "unable to find version").
//   npm run examples:pin              HEAD's commit
//   npm run examples:pin -- <sha>     a given commit (40 hex digits; checked to exist here)
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

/** The files whose `uses:` lines a user copies. */
export function pinnedFiles(root: string): string[] {
  const inDir = (dir: string, ext: string): string[] =>
    readdirSync(join(root, dir))
      .filter((file) => file.endsWith(ext))
      .map((file) => join(dir, file))
  return [...inDir('examples', '.yml'), 'README.md', ...inDir('docs', '.md')]
}

/** `uses: docs-agent/docs-agent-action@<ref>`, the ref captured, whatever follows kept. */
export const USES = /(uses: docs-agent\/docs-agent-action@)([^\s#]+)/g

/** `text` with every ref of the action replaced by `sha`. */
export function pin(text: string, sha: string): string {
  return text.replace(USES, (_, prefix: string) => `${prefix}${sha}`)
}

/** Every ref of the action named in `text`. */
export function refsIn(text: string): string[] {
  return [...text.matchAll(USES)].map((match) => match[2] ?? '')
}

function main(): void {
  const given = process.argv[2]
  if (given !== undefined && !/^[0-9a-f]{40}$/.test(given)) {
    console.error(`pin-examples: '${given}' is not a full commit SHA (40 hex digits).`)
    process.exit(2)
  }
  const sha = execFileSync('git', ['rev-parse', '--verify', `${given ?? 'HEAD'}^{commit}`], { encoding: 'utf8' }).trim()
  let changed = 0
  for (const file of pinnedFiles('.')) {
    const text = readFileSync(file, 'utf8')
    const pinned = pin(text, sha)
    if (pinned === text) continue
    writeFileSync(file, pinned)
    changed++
    console.log(`pinned ${file}`)
  }
  console.log(`${changed} file(s) now use docs-agent/docs-agent-action@${sha}`)
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main()
