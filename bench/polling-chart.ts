// The chart the README shows (docs/benchmarks.svg): the polling strategies' lag and GETs per job.
import type { ChartSpec, Series } from './chart.js'
import { cellOf, DURATIONS_MS, GET_SHARE, LAG_CAP_MS, lagLimitMs, type Cell, type Strategy } from './schedule.js'
import { durationLabel } from './table.js'

const COLORS: Record<string, string> = {
  default: '#1a7f37',
  'fixed-5s': '#0969da',
  'fixed-10s': '#bf8700',
  'fixed-30s': '#8250df'
}

export function chartSpec(cells: readonly Cell[], strategies: readonly Strategy[], runs: number): ChartSpec {
  const line = (s: Strategy, value: (c: Cell) => number): Series => ({
    label: s.label,
    color: COLORS[s.id] ?? '#57606a',
    emphasis: s.id === 'default',
    points: DURATIONS_MS.map((d) => ({ x: d, y: value(cellOf(cells, s.id, d)) }))
  })
  return {
    title: 'Polling strategies: detection lag and requests per job',
    xLabel: 'job duration (log scale)',
    xTicks: DURATIONS_MS.map((d) => ({ value: d, label: durationLabel(d) })),
    panels: [
      {
        title: 'Detection lag, p95 (s)',
        yLabel: 'lag p95 (s)',
        yScale: 'linear',
        yTicks: [0, 5, 10, 15, 20, 25, 30],
        series: [
          ...strategies.map((s) => line(s, (c) => c.lag.p95 / 1000)),
          {
            label: 'goal',
            color: '#cf222e',
            dashed: true,
            points: DURATIONS_MS.map((d) => ({ x: d, y: Math.min(lagLimitMs(d), LAG_CAP_MS) / 1000 }))
          }
        ]
      },
      {
        title: 'GET requests per job (log scale)',
        yLabel: 'GETs per job',
        yScale: 'log',
        yTicks: [1, 3, 10, 30, 100, 300, 1000],
        series: [
          ...strategies.map((s) => line(s, (c) => c.gets.mean)),
          {
            label: 'goal',
            color: '#cf222e',
            dashed: true,
            points: DURATIONS_MS.filter((d) => d >= 5 * 60_000).map((d) => ({
              x: d,
              y: GET_SHARE * cellOf(cells, 'fixed-5s', d).gets.mean
            }))
          }
        ]
      }
    ],
    note: `${runs} jittered runs per point, virtual clock. Goal (dashed): lag p95 ≤ min(max(2 s, 25 % of the job), 10 s); from 5 min, GETs ≤ 55 % of fixed 5 s.`
  }
}
