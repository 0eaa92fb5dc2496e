// The folders of src/ are the sides of the system, and imports run one way between them: the step
// uses the report and the sides, the report reads the sides, the sides use only the base, and no
// side reads another's files. A wrong-way import fails here, whichever file it is in, and so does an
// import circle (type-only imports included): two files that need each other share a third.
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

/**
 * The import circles among `edges`, each as `a -> b -> a` from its first file in name order: a
 * depth-first walk that reports every edge back to a file still on its path.
 */
function circles(edges: Import[]): string[] {
  const next = new Map<string, string[]>()
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to])
  const found = new Set<string>()
  const done = new Set<string>()
  const walk = (file: string, path: string[]): void => {
    const at = path.indexOf(file)
    if (at >= 0) {
      const circle = path.slice(at)
      const first = circle.indexOf([...circle].sort()[0] ?? '')
      const turned = [...circle.slice(first), ...circle.slice(0, first)]
      found.add([...turned, turned[0]].join(' -> '))
      return
    }
    if (done.has(file)) return
    for (const to of next.get(file) ?? []) walk(to, [...path, file])
    done.add(file)
  }
  for (const file of [...next.keys()].sort()) walk(file, [])
  return [...found].sort()
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

  it('has no import circle', () => {
    expect(circles(files.flatMap(importsOf))).toEqual([])
  })

  it('finds a circle of two files, of three, and none in a diamond', () => {
    const edges = (...pairs: string[]): Import[] =>
      pairs.map((pair) => ({ from: pair.split('>')[0] ?? '', to: pair.split('>')[1] ?? '' }))
    expect(circles(edges('b>a', 'a>b'))).toEqual(['a -> b -> a'])
    expect(circles(edges('x>c', 'c>a', 'a>b', 'b>c'))).toEqual(['a -> b -> c -> a'])
    expect(circles(edges('a>b', 'a>c', 'b>d', 'c>d'))).toEqual([])
  })

  it.each<[string, string, boolean]>([
    ['step/action.ts', 'report/finish.ts', true],
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
