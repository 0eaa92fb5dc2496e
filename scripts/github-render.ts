// Renders a job summary the way GitHub shows it: GFM with raw HTML allowed (micromark), GFM's
// tagfilter, then GitHub's HTML sanitizer (hast-util-sanitize's default schema follows it). `removed`
// says what the tagfilter and the sanitizer took out or rewrote, so a summary can be checked for
// markup GitHub would not show as written. githubPage() wraps the result in a standalone page styled
// like the Actions summary, for screenshots (scripts/screenshot.ts).
import type { Comment, Element, Nodes, Properties, Root } from 'hast'
import { fromHtml } from 'hast-util-from-html'
import { sanitize } from 'hast-util-sanitize'
import { toHtml } from 'hast-util-to-html'
import { micromark } from 'micromark'
import { gfm, gfmHtml } from 'micromark-extension-gfm'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/** One element, comment or attribute that GitHub would not show as written. */
export interface Removed {
  /** `tagfilter`: GFM escaped the tag, so it shows as text; `sanitizer`: GitHub's sanitizer dropped or changed it. */
  by: 'tagfilter' | 'sanitizer'
  /** Tag name of the element, or `#comment` for an HTML comment. */
  element: string
  /** The attribute dropped or changed; absent when the whole element (or comment) went. */
  attribute?: string
  /** The attribute's value as written (absent when the sanitizer added the attribute). */
  value?: string
  /** Its value after sanitizing, when rewritten rather than dropped (`id="x"` becomes `user-content-x`). */
  after?: string
}

type HtmlExtension = ReturnType<typeof gfmHtml>

/** Renders `markdown` as GitHub would, and lists what GitHub's filters removed (empty: nothing). */
export function renderLikeGitHub(markdown: string): { html: string; removed: Removed[] } {
  const tree = fromHtml(gfmToHtml(markdown, gfmHtml()), { fragment: true })
  const clean = sanitize(tree)
  return { html: toHtml(clean), removed: [...tagfiltered(markdown, tree), ...sanitized(tree, clean)] }
}

function gfmToHtml(markdown: string, htmlExtension: HtmlExtension): string {
  // GitHub passes raw HTML through; gfmHtml() applies the tagfilter to it only in this mode.
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [htmlExtension] })
}

/** Elements the tagfilter escaped: those the HTML holds fewer of with the filter than without it. */
function tagfiltered(markdown: string, filtered: Root): Removed[] {
  // Within gfmHtml() only the tagfilter handles raw HTML data: without those two handlers micromark
  // writes the raw HTML unchanged. Counting by tag name is enough, as the filter only removes elements.
  const { htmlFlowData: _flow, htmlTextData: _text, ...exit } = gfmHtml().exit ?? {}
  const unfiltered = fromHtml(gfmToHtml(markdown, { ...gfmHtml(), exit }), { fragment: true })
  const left = new Map<string, number>()
  for (const node of walk(filtered))
    if (node.type === 'element') left.set(node.tagName, (left.get(node.tagName) ?? 0) + 1)
  const removed: Removed[] = []
  for (const node of walk(unfiltered)) {
    if (node.type !== 'element') continue
    const count = left.get(node.tagName) ?? 0
    if (count > 0) left.set(node.tagName, count - 1)
    else removed.push({ by: 'tagfilter', element: node.tagName })
  }
  return removed
}

/**
 * Compares the trees before and after sanitizing. The sanitizer only drops, unwraps or rewrites
 * nodes and keeps their source positions, so the kept nodes are, in document order, a subsequence of
 * the original ones, each found by tag name and position (implied elements such as `tbody` have none).
 */
function sanitized(before: Root, after: Nodes): Removed[] {
  const kept = [...walk(after)]
  let next = 0
  const removed: Removed[] = []
  for (const node of walk(before)) {
    const match = kept[next]
    if (match && sameNode(node, match)) {
      next++
      if (node.type === 'element' && match.type === 'element') removed.push(...attributeChanges(node, match))
    } else {
      removed.push({ by: 'sanitizer', element: node.type === 'element' ? node.tagName : '#comment' })
    }
  }
  return removed
}

function* walk(node: Nodes): Generator<Element | Comment> {
  if (node.type === 'element' || node.type === 'comment') yield node
  if ('children' in node) for (const child of node.children) yield* walk(child)
}

function sameNode(a: Element | Comment, b: Element | Comment): boolean {
  const tag = (node: Element | Comment) => (node.type === 'element' ? node.tagName : '#comment')
  return tag(a) === tag(b) && a.position?.start.offset === b.position?.start.offset
}

function attributeChanges(before: Element, after: Element): Removed[] {
  const keys = new Set([...Object.keys(before.properties), ...Object.keys(after.properties)])
  return [...keys].flatMap((key) => {
    const value = attributeValue(before.properties[key])
    const now = attributeValue(after.properties[key])
    if (value === now) return []
    return [{ by: 'sanitizer' as const, element: before.tagName, attribute: attributeName(key), value, after: now }]
  })
}

/** A property as the attribute's text; undefined when the attribute is absent. */
function attributeValue(value: Properties[string]): string | undefined {
  if (value == null || value === false) return undefined
  if (value === true) return ''
  return Array.isArray(value) ? value.join(' ') : String(value)
}

/** The attribute name of a hast property (`className` → `class`, `onError` → `onerror`), as serialized. */
function attributeName(property: string): string {
  const tag = toHtml({ type: 'element', tagName: 'i', properties: { [property]: true }, children: [] })
  return /^<i ([^\s=>]+)/.exec(tag)?.[1] ?? property
}

/**
 * A standalone page showing `bodyHtml` like an Actions job summary: GitHub's light markdown
 * stylesheet (inlined, so the file needs nothing else) in a white box at most 1000 px wide.
 */
export function githubPage(title: string, bodyHtml: string): string {
  const css = readFileSync(
    createRequire(import.meta.url).resolve('github-markdown-css/github-markdown-light.css'),
    'utf8'
  )
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${css}
html, body { margin: 0; background: #ffffff; color-scheme: light; }
body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, sans-serif; }
.markdown-body { box-sizing: border-box; max-width: 1000px; padding: 16px 24px; }
</style>
</head>
<body>
<article class="markdown-body">
${bodyHtml}
</article>
</body>
</html>
`
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}
