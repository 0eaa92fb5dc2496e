// The benchmark's chart, hand-written SVG: lag p95 and GETs per job against the job's duration
// (log scale), one line per strategy, the goals dashed.

export interface Series {
  label: string
  color: string
  /** Thicker line (the action's default). */
  emphasis?: boolean
  dashed?: boolean
  points: { x: number; y: number }[]
}

export interface Panel {
  title: string
  yLabel: string
  yScale: 'linear' | 'log'
  yTicks: number[]
  series: Series[]
}

export interface ChartSpec {
  title: string
  xLabel: string
  /** x positions of the ticks, with their labels. */
  xTicks: { value: number; label: string }[]
  panels: Panel[]
  note?: string
}

const WIDTH = 980
const PANEL_HEIGHT = 300
const MARGIN = { left: 70, right: 40, top: 84, bottom: 60 }
const GAP = 70

const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const fmt = (n: number): string => (Math.round(n * 10) / 10).toString()

export function renderChart(spec: ChartSpec): string {
  const panelWidth = (WIDTH - MARGIN.left - MARGIN.right - GAP * (spec.panels.length - 1)) / spec.panels.length
  const height = MARGIN.top + PANEL_HEIGHT + MARGIN.bottom + 28
  const xs = spec.xTicks.map((t) => t.value)
  const xMin = Math.log(Math.min(...xs))
  const xMax = Math.log(Math.max(...xs))
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${esc(spec.title)}</text>`
  ]

  spec.panels.forEach((panel, index) => {
    const left = MARGIN.left + index * (panelWidth + GAP)
    const top = MARGIN.top
    const bottom = top + PANEL_HEIGHT
    const x = (v: number): number => left + ((Math.log(v) - xMin) / (xMax - xMin)) * panelWidth
    const yMin = panel.yScale === 'log' ? Math.log(Math.min(...panel.yTicks)) : Math.min(...panel.yTicks)
    const yMax = panel.yScale === 'log' ? Math.log(Math.max(...panel.yTicks)) : Math.max(...panel.yTicks)
    const y = (v: number): number => {
      const value = panel.yScale === 'log' ? Math.log(v) : v
      return bottom - ((value - yMin) / (yMax - yMin)) * PANEL_HEIGHT
    }

    parts.push(`<g>`)
    parts.push(
      `<text x="${fmt(left + panelWidth / 2)}" y="${top - 10}" text-anchor="middle" font-size="13" font-weight="600">${esc(panel.title)}</text>`
    )
    for (const tick of panel.yTicks) {
      const ty = fmt(y(tick))
      parts.push(`<line x1="${fmt(left)}" x2="${fmt(left + panelWidth)}" y1="${ty}" y2="${ty}" stroke="#e5e5e5"/>`)
      parts.push(`<text x="${fmt(left - 6)}" y="${ty}" dy="4" text-anchor="end" fill="#444">${tick}</text>`)
    }
    for (const tick of spec.xTicks) {
      const tx = fmt(x(tick.value))
      parts.push(`<line x1="${tx}" x2="${tx}" y1="${top}" y2="${bottom}" stroke="#f0f0f0"/>`)
      parts.push(`<text x="${tx}" y="${bottom + 16}" text-anchor="middle" fill="#444">${esc(tick.label)}</text>`)
    }
    parts.push(
      `<rect x="${fmt(left)}" y="${top}" width="${fmt(panelWidth)}" height="${PANEL_HEIGHT}" fill="none" stroke="#999"/>`
    )
    parts.push(
      `<text x="${fmt(left + panelWidth / 2)}" y="${bottom + 36}" text-anchor="middle">${esc(spec.xLabel)}</text>`
    )
    const labelX = fmt(left - 48)
    const labelY = fmt(top + PANEL_HEIGHT / 2)
    parts.push(
      `<text x="${labelX}" y="${labelY}" text-anchor="middle" transform="rotate(-90 ${labelX} ${labelY})">${esc(panel.yLabel)}</text>`
    )

    for (const series of panel.series) {
      const points = series.points.map((p) => `${fmt(x(p.x))},${fmt(y(p.y))}`).join(' ')
      const width = series.emphasis ? 3 : 1.6
      const dash = series.dashed ? ' stroke-dasharray="6 4"' : ''
      parts.push(`<polyline points="${points}" fill="none" stroke="${series.color}" stroke-width="${width}"${dash}/>`)
      if (!series.dashed) {
        for (const p of series.points) {
          parts.push(
            `<circle cx="${fmt(x(p.x))}" cy="${fmt(y(p.y))}" r="${series.emphasis ? 3.5 : 2.5}" fill="${series.color}"/>`
          )
        }
      }
    }
    parts.push(`</g>`)
  })

  // One legend for both panels: every distinct series label, in order of appearance.
  const legend = new Map<string, Series>()
  for (const panel of spec.panels)
    for (const series of panel.series) if (!legend.has(series.label)) legend.set(series.label, series)
  let lx = MARGIN.left
  const ly = 46
  for (const series of legend.values()) {
    const dash = series.dashed ? ' stroke-dasharray="6 4"' : ''
    parts.push(
      `<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${series.color}" stroke-width="${series.emphasis ? 3 : 1.6}"${dash}/>`
    )
    parts.push(`<text x="${lx + 30}" y="${ly}" dy="4">${esc(series.label)}</text>`)
    lx += 40 + series.label.length * 6.6
  }
  if (spec.note) {
    parts.push(`<text x="${MARGIN.left}" y="${height - 10}" fill="#666" font-size="11">${esc(spec.note)}</text>`)
  }
  parts.push(`</svg>`)
  return `${parts.join('\n')}\n`
}
