// The folders of src/ are the sides of the system, and imports run one way between them: the step
// uses the report and the sides, the report reads the sides, the sides use only the base, and no
// side reads another's files. A wrong-way import fails here, whichever file it is in.
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const SRC = join(process.cwd(), 'src')

/** Each folder's rank: a file may import its own folder or a folder of lower rank. */
const RANK: Record<string, number> = {
  '.': 4, // index.ts: the entry
  step: 3,
  report: 2,
  'agent-api': 1,
  github: 1,
  rerun: 1,
  base: 0
}

interface Import {
  from: string
  to: string
}

function folderOf(file: string): string {
  const dir = dirname(file)
  return dir === '.' ? '.' : (dir.split('/')[0] ?? '.')
}

/** Why an import is not allowed, or undefined when it is. */
function wrongWay({ from, to }: Import): string | undefined {
  const a = folderOf(from)
  const b = folderOf(to)
  if (a === b) return undefined
  const rankA = RANK[a]
  const rankB = RANK[b]
  if (rankA === undefined || rankB === undefined) return `${a === '.' ? from : a} or ${b} is not a known folder`
  if (rankB > rankA) return `${a} (rank ${rankA}) imports ${b} (rank ${rankB}), which sits above it`
  if (rankB === rankA) return `${a} imports ${b}: one side never imports another`
  return undefined
}

function importsOf(file: string): Import[] {
  const text = readFileSync(join(SRC, file), 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => ({
    from: file,
    to: relative(SRC, resolve(dirname(join(SRC, file)), (m[1] ?? '').replace(/\.js$/, '.ts')))
      .split(sep)
      .join('/')
  }))
}

const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split(sep).join('/'))
  .filter((file) => file.endsWith('.ts'))

describe('the layers of src/', () => {
  it('puts every file in a known folder', () => {
    expect(files.filter((file) => RANK[folderOf(file)] === undefined)).toEqual([])
    expect(files.length).toBeGreaterThan(20)
  })

  it('has every import run one way', () => {
    const all = files.flatMap(importsOf)
    expect(all.length).toBeGreaterThan(50)
    const wrong = all.flatMap((edge) => {
      const why = wrongWay(edge)
      return why ? [`${edge.from} -> ${edge.to}: ${why}`] : []
    })
    expect(wrong).toEqual([])
  })

  it.each<[string, string, boolean]>([
    ['step/action.ts', 'report/report.ts', true],
    ['report/summary.ts', 'github/pr-link.ts', true],
    ['github/context/context.ts', 'base/text.ts', true],
    ['index.ts', 'step/signals.ts', true],
    ['report/summary.ts', 'step/settings.ts', false],
    ['github/context/context.ts', 'agent-api/errors.ts', false],
    ['rerun/record.ts', 'step/settings.ts', false],
    ['base/text.ts', 'github/event.ts', false]
  ])('%s importing %s is allowed: %s', (from, to, allowed) => {
    expect(wrongWay({ from, to }) === undefined).toBe(allowed)
  })
})
