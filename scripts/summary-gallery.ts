/**
 * `npm run summary:gallery [-- --out DIR] [-- --readme]`: the job summary of every outcome
 * (scripts/summary-outcomes.ts) as GitHub would show it, to look at. For each outcome it writes
 * `<name>.md` (the summary file as the step writes it), `<name>.html` (rendered and sanitized like
 * GitHub, on a page styled like the Actions summary) and, when Chromium is installed, `<name>.png`
 * 1000 px wide; `index.html` links them all and lists any markup GitHub would remove. `--readme`
 * also refreshes the README's screenshots in docs/.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { escapeHtml } from '../src/base/text.js'
import { ROOT } from './action-metadata.js'
import { githubPage, renderLikeGitHub, type Removed } from './github-render.js'
import { chromiumPath, screenshot } from './screenshot.js'
import { summaryOutcomes, type SummaryOutcome } from './summary-outcomes.js'

/** The README's screenshots: docs/ file name → outcome shown, and the <details> shown opened (by its title's start). */
const README_SHOTS: Record<string, { outcome: string; opened?: string }> = {
  // The context is what a reader opens first: the screenshot shows it as they see it then.
  'summary-success.png': { outcome: 'completed-pr', opened: 'Context added from GitHub' },
  'summary-failure.png': { outcome: 'failed' }
}
const WIDTH = 1000

interface Entry extends SummaryOutcome {
  removed: Removed[]
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: join(ROOT, 'build', 'summary-gallery') },
      readme: { type: 'boolean', default: false }
    }
  })
  const out = resolve(values.out)
  const browser = chromiumPath()
  if (!browser) {
    if (values.readme) throw new Error('summary-gallery: --readme needs Chromium (install chromium or set CHROMIUM)')
    process.stdout.write('summary-gallery: Chromium not found (install chromium or set CHROMIUM): HTML only\n')
  }
  mkdirSync(out, { recursive: true })
  const entries: Entry[] = []
  const rendered = new Map<string, string>()
  for (const outcome of await summaryOutcomes()) {
    const { html, removed } = renderLikeGitHub(outcome.markdown)
    rendered.set(outcome.name, html)
    writeFileSync(join(out, `${outcome.name}.md`), outcome.markdown)
    const page = join(out, `${outcome.name}.html`)
    writeFileSync(page, githubPage(outcome.title, html))
    if (browser) await screenshot(page, join(out, `${outcome.name}.png`), { width: WIDTH })
    entries.push({ ...outcome, removed })
  }
  writeFileSync(join(out, 'index.html'), indexPage(entries, browser !== undefined))
  if (values.readme) {
    for (const [file, { outcome: name, opened }] of Object.entries(README_SHOTS)) {
      const target = join(ROOT, 'docs', file)
      if (opened === undefined) copyFileSync(join(out, `${name}.png`), target)
      else {
        const html = (rendered.get(name) ?? '').replace(
          `<details><summary>${opened}`,
          `<details open><summary>${opened}`
        )
        const page = join(out, `${name}-opened.html`)
        writeFileSync(page, githubPage(name, html))
        await screenshot(page, target, { width: WIDTH })
      }
      process.stdout.write(`summary-gallery: wrote ${relative(ROOT, target)}\n`)
    }
  }
  const altered = entries.filter((entry) => entry.removed.length > 0).map((entry) => entry.name)
  if (altered.length > 0)
    process.stderr.write(`summary-gallery: GitHub would remove markup from ${altered.join(', ')}\n`)
  process.stdout.write(
    `summary-gallery: ${entries.length} outcomes in ${pathToFileURL(join(out, 'index.html')).href}\n`
  )
}

/** One section per outcome: its links, what GitHub's filters would remove, and its screenshot. */
function indexPage(entries: Entry[], screenshots: boolean): string {
  const sections = entries.map(({ name, title, removed }) => {
    const files = [`<a href="${name}.html">rendered</a>`, `<a href="${name}.md">summary file</a>`]
    if (screenshots) files.push(`<a href="${name}.png">screenshot</a>`)
    const filtered =
      removed.length === 0
        ? '<p>GitHub removes nothing.</p>'
        : `<p>GitHub removes:</p><ul>${removed.map((r) => `<li><code>${escapeHtml(describe(r))}</code></li>`).join('')}</ul>`
    const image = screenshots
      ? `<p><a href="${name}.html"><img src="${name}.png" alt="${escapeHtml(title)}"></a></p>`
      : ''
    return `<h2 id="${name}">${escapeHtml(title)}</h2>\n<p>${files.join(' · ')}</p>\n${filtered}\n${image}`
  })
  const contents = entries.map(({ name, title }) => `<li><a href="#${name}">${escapeHtml(title)}</a></li>`).join('')
  const note = screenshots ? '' : '<p>No screenshots: Chromium was not found.</p>\n'
  return githubPage(
    'Job summary gallery',
    `<h1>Job summary gallery</h1>\n${note}<ul>${contents}</ul>\n${sections.join('\n')}`
  )
}

/** `sanitizer: <a href="javascript:…">` and the like. */
function describe(removed: Removed): string {
  const attribute = removed.attribute === undefined ? '' : ` ${removed.attribute}="${removed.value ?? ''}"`
  const after = removed.after === undefined ? '' : ` (becomes "${removed.after}")`
  return `${removed.by}: <${removed.element}${attribute}>${after}`
}

await main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
})
