// A generic Markdown table renderer, readable as plain text too, and the cell formats the benches share.
import { median } from './stats.js'

/** A Markdown table with padded columns. */
export function table(head: string[], rows: string[][], align: ('l' | 'r')[] = []): string {
  const widths = head.map((h, i) => Math.max(h.length, 3, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => (align[i] === 'r' ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`
  const rule = `| ${widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`
  return [line(head), rule, ...rows.map(line)].join('\n')
}

/** A column: its heading, its cell for a row, and 'r' when right-aligned. */
export type Column<T> = [string, (row: T) => string, ('l' | 'r')?]

/** A table of one row per item. */
export function tableOf<T>(columns: Column<T>[], items: readonly T[]): string {
  return table(
    columns.map(([h]) => h),
    items.map((item) => columns.map(([, cell]) => cell(item))),
    columns.map(([, , align]) => align ?? 'l')
  )
}

/** A measure over runs: its label and values (divided by `scale`), as median, min, max and runs. */
export type Measure = [string, readonly number[], number?]
export function measures(heading: string, rows: Measure[], digits = 1, min = true): string {
  const scaled = (values: readonly number[], scale = 1): number[] => values.map((v) => v / scale)
  return tableOf<Measure>(
    [
      [heading, ([label]) => label],
      ['median', ([, v, s]) => median(scaled(v, s)).toFixed(digits), 'r'],
      ...(min ? [['min', ([, v, s]) => Math.min(...scaled(v, s)).toFixed(digits), 'r'] as Column<Measure>] : []),
      ['max', ([, v, s]) => Math.max(...scaled(v, s)).toFixed(digits), 'r'],
      ['runs', ([, v]) => String(v.length), 'r']
    ],
    rows
  )
}

export function durationLabel(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds} s`
  const rest = seconds % 60
  return rest === 0 ? `${seconds / 60} min` : `${Math.floor(seconds / 60)} min ${rest} s`
}

export const pct = (x: number): string => `${(100 * x).toFixed(1)} %`
export const verdict = (pass: boolean): string => (pass ? 'PASS' : 'MISS')
export const count = (n: number): string => n.toLocaleString('en-US')
