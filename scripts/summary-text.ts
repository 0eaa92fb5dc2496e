// The job summary as a person reads it on GitHub, in plain text for a terminal (`npm run demo`):
// rendered as GitHub renders it (github-render.ts), then headings, paragraphs, the table as aligned
// rows, links with their address, and each <details> with its content indented below its title.
import type { Element, ElementContent, Root, RootContent } from 'hast'
import { fromHtml } from 'hast-util-from-html'
import { renderLikeGitHub } from './github-render.js'

const INDENT = '    '

/** `markdown`, a summary as the step writes it, as readable text. */
export function summaryAsText(markdown: string): string {
  const tree = fromHtml(renderLikeGitHub(markdown).html, { fragment: true })
  return blocks(tree).join('\n\n').trimEnd() + '\n'
}

function blocks(parent: Root | Element): string[] {
  const out: string[] = []
  for (const node of parent.children) {
    const block = toBlock(node)
    if (block !== undefined && block.trim() !== '') out.push(block)
  }
  return out
}

function toBlock(node: RootContent | ElementContent): string | undefined {
  if (node.type === 'text') return node.value.trim() || undefined
  if (node.type !== 'element') return undefined
  switch (node.tagName) {
    case 'h1':
    case 'h2':
    case 'h3':
      return `${'#'.repeat(Number(node.tagName.slice(1)))} ${inline(node)}`
    case 'table':
      return table(node)
    case 'details':
      return details(node)
    case 'pre':
      return indent(inline(node).replace(/^\n/, ''))
    case 'p':
      return inline(node)
    default:
      return node.children.some(isBlock) ? blocks(node).join('\n\n') : inline(node)
  }
}

function table(node: Element): string {
  const rows = elements(node, 'tr').map((row) => row.children.filter(isElement).map((cell) => inline(cell)))
  const width = Math.max(0, ...rows.map((cells) => cells[0]?.length ?? 0))
  return rows.map(([head = '', ...rest]) => `${`${head}:`.padEnd(width + 2)}${rest.join('  ')}`).join('\n')
}

function details(node: Element): string {
  const title = node.children.find((child) => isElement(child) && child.tagName === 'summary')
  const body = { ...node, children: node.children.filter((child) => child !== title) }
  const content = blocks(body).join('\n\n')
  return `▸ ${title ? inline(title as Element) : 'Details'}\n${content.startsWith(INDENT) ? content : indent(content)}`
}

/** The text of `node`, links followed by their address when it is not the text itself. */
function inline(node: Element): string {
  let text = ''
  for (const child of node.children) {
    if (child.type === 'text') text += child.value
    else if (isElement(child)) {
      const inner = inline(child)
      const href = child.tagName === 'a' ? child.properties.href : undefined
      text += typeof href === 'string' && href !== inner ? `${inner} <${href}>` : inner
      if (child.tagName === 'br') text += '\n'
    }
  }
  return text
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? INDENT + line : line))
    .join('\n')
}

function elements(node: Element, tagName: string): Element[] {
  return node.children
    .filter(isElement)
    .flatMap((child) => (child.tagName === tagName ? [child] : elements(child, tagName)))
}

function isElement(node: RootContent | ElementContent): node is Element {
  return node.type === 'element'
}

function isBlock(node: ElementContent): boolean {
  return isElement(node) && ['p', 'table', 'details', 'pre', 'h2', 'h3', 'div'].includes(node.tagName)
}
