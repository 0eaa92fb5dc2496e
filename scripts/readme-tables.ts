// Keeps the inputs and outputs tables of the docs (docs/inputs-and-outputs.md, linked from the
// README) identical to action.yml. The tables live between marker comments and are generated, never
// edited by hand:
//   <!-- inputs:start --> … <!-- inputs:end -->    <!-- outputs:start --> … <!-- outputs:end -->
//   node build/scripts/readme-tables.js --check   exit 1 when a table differs from action.yml
//   node build/scripts/readme-tables.js --write   rewrite the tables in place
// Options --readme FILE (the page with the tables) and --action FILE point at other files. Exit 2 on a missing file or marker.
// The tables are formatted with the repository's Prettier settings so `prettier --check` agrees.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { format, resolveConfig } from 'prettier'
import { parseActionMetadata, type ActionMetadata } from './action-metadata.js'

/** The page that holds the tables. */
export const TABLES_PAGE = 'docs/inputs-and-outputs.md'

export type Section = 'inputs' | 'outputs'
const SECTIONS: readonly Section[] = ['inputs', 'outputs']

/** A table cell: one line, pipes escaped (GFM splits cells on `|` even inside code spans). */
function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replaceAll('|', '\\|')
}

/** Inline code that survives backticks in the value. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`'
  return `${fence}${text.includes('`') ? ` ${text} ` : text}${fence}`
}

/** The unformatted Markdown table of one section. */
export function renderTable(meta: ActionMetadata, section: Section): string {
  if (section === 'inputs') {
    return [
      '| Name | Required | Default | Description |',
      '| --- | --- | --- | --- |',
      ...meta.inputs.map(
        (i) =>
          `| ${cell(code(i.name))} | ${i.required ? 'yes' : 'no'} | ${i.default === undefined || i.default === '' ? '' : cell(code(i.default))} | ${cell(i.description)} |`
      )
    ].join('\n')
  }
  return [
    '| Name | Description |',
    '| --- | --- |',
    ...meta.outputs.map((o) => `| ${cell(code(o.name))} | ${cell(o.description)} |`)
  ].join('\n')
}

/** The table as Prettier would leave it inside the page. */
async function formattedTable(meta: ActionMetadata, section: Section, readmePath: string): Promise<string> {
  const options = (await resolveConfig(readmePath)) ?? {}
  return (await format(renderTable(meta, section), { ...options, parser: 'markdown' })).trimEnd()
}

const START = (s: Section): string => `<!-- ${s}:start -->`
const END = (s: Section): string => `<!-- ${s}:end -->`

/** Splits the page around a section's markers; throws when they are missing, repeated or out of order. */
function locate(readme: string, section: Section): { before: string; inside: string; after: string } {
  const start = readme.indexOf(START(section))
  const end = readme.indexOf(END(section))
  if (start === -1 || end === -1) throw new Error(`The page has no ${START(section)} … ${END(section)} markers`)
  if (readme.indexOf(START(section), start + 1) !== -1 || readme.indexOf(END(section), end + 1) !== -1) {
    throw new Error(`The page has the ${section} markers more than once`)
  }
  if (end < start) throw new Error(`The page has ${END(section)} before ${START(section)}`)
  const from = start + START(section).length
  return { before: readme.slice(0, from), inside: readme.slice(from, end), after: readme.slice(end) }
}

/** The page with both tables regenerated; the sections that changed are listed. */
export async function updateReadme(
  readme: string,
  meta: ActionMetadata,
  readmePath: string
): Promise<{ text: string; changed: Section[] }> {
  let text = readme
  const changed: Section[] = []
  for (const section of SECTIONS) {
    const { before, inside, after } = locate(text, section)
    const wanted = `\n\n${await formattedTable(meta, section, readmePath)}\n\n`
    if (inside !== wanted) changed.push(section)
    text = before + wanted + after
  }
  return { text, changed }
}

function readText(path: string): string {
  if (!existsSync(path)) throw new Error(`readme-tables: ${path} not found`)
  return readFileSync(path, 'utf8')
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      write: { type: 'boolean', default: false },
      readme: { type: 'string', default: TABLES_PAGE },
      action: { type: 'string', default: 'action.yml' }
    }
  })
  if (values.check === values.write) throw new Error('readme-tables: give exactly one of --check or --write')
  const meta = parseActionMetadata(readText(values.action))
  const readme = readText(values.readme)
  const { text, changed } = await updateReadme(readme, meta, values.readme)
  if (values.write) {
    if (changed.length > 0) writeFileSync(values.readme, text)
    process.stdout.write(
      changed.length > 0
        ? `readme-tables: rewrote ${changed.join(' and ')} in ${values.readme}\n`
        : 'readme-tables: up to date\n'
    )
  } else if (changed.length > 0) {
    process.stderr.write(
      `readme-tables: the ${changed.join(' and ')} table(s) in ${values.readme} differ from ${values.action}; ` +
        'run `npm run readme:write` and commit the result\n'
    )
    process.exitCode = 1
  } else {
    process.stdout.write(`readme-tables: ${values.readme} tables match ${values.action}\n`)
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 2
  })
}
