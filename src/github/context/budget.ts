/**
 * The budget: a context's parts fitted into the characters it may take, each section cut at line
 * boundaries with a line saying what was left out.
 */
import type { ChangedFile } from '../changed-file.js'
import type { Commit } from '../commit.js'
import type { ChangedFiles } from './changed.js'
import { renderChanges } from './changes.js'

/**
 * Characters the context may take: about 15,000 tokens. The lists (notes, commits, file names)
 * share the first LISTS_CHARS; the patches take what the lists leave. It is a ceiling, not a
 * share: a small library's release uses what its change needs, and a large monorepo's is cut
 * here, its most useful patches first; so one size serves both. The user's prompt comes first
 * and whole, and the whole prompt never passes the API's 100,000.
 */
export const CONTEXT_BUDGET_CHARS = 60_000
/**
 * The lists' share: a long release's notes and a few hundred commit subjects (about 5,000
 * tokens). They say what changed in the authors' words; the patches say it exactly, so they
 * take the larger rest.
 */
export const LISTS_CHARS = 20_000

/** The parts of a context before it is fitted into the budget. */
export interface Built {
  description: string
  /** A release's previous release, its number of changes and compare link: a release set's table row. */
  facts?: { previous: string | undefined; changes: number | undefined; compare: string | undefined }
  /** The opening paragraph and the facts: always kept. */
  head: string[]
  sections: Section[]
  /** The changed files with their patches, rendered after the sections in the room they leave. */
  changes?: { files: ChangedFile[]; unread: number; listedUnder: string; first?: string }
  /** What fell short without a failed read (a tree too large to list): one warning. */
  warning?: string
  /** A package's commits and the range's others, for a release set to name the others once. */
  range?: { own: string[]; others: Commit[]; unread: number }
  /** The changed files the skip rules judge, and whether they are all of them. */
  changed?: ChangedFiles
}

export interface Section {
  title: string
  lines: string[]
  /** Items there are beyond `lines`, counted but not read. */
  unread: number
  /** The line that stands for `left` items left out. */
  more(left: number): string
  /** Given what the other sections leave, not a fair share (the range's commits beyond a package's own). */
  rest?: boolean
}

export function quote(text: string): string[] {
  return text.split(/\r?\n/).map((line) => (line.trim() ? `> ${line.trimEnd()}` : '>'))
}

/** How a context is laid out: the context's own, or one package's within a release set. */
export interface Layout {
  /** The lines before the head. */
  opening: string[]
  /** The sections' heading level. */
  level: string
  /** The lists' least share. */
  lists: number
}

const CONTEXT_LAYOUT: Layout = { opening: ['---', '', '## Context from GitHub', ''], level: '###', lists: LISTS_CHARS }

/**
 * The context as markdown within `budget` characters: the head whole, then each section given a
 * fair share of the rest (a section that needs less leaves the remainder to the others), cut at
 * line boundaries with a line saying what was left out.
 */
export function render(built: Built, budget: number, layout: Layout = CONTEXT_LAYOUT): string {
  const head = [...layout.opening, ...built.head].join('\n')
  const whole = budget - head.length
  // The lists get their share at least, and whatever the patches do not need beyond that.
  const patches = built.changes ? changesSection(built.changes, whole, layout.level) : ''
  let room = whole - Math.min(patches.length && patches.length + 2, Math.max(0, whole - layout.lists))
  const shares = new Map<Section, number>()
  const bySize = [...built.sections].sort(
    (a, b) => Number(a.rest ?? false) - Number(b.rest ?? false) || size(a, layout.level) - size(b, layout.level)
  )
  bySize.forEach((section, index) => {
    const share = Math.min(size(section, layout.level), Math.floor(room / (bySize.length - index)))
    shares.set(section, share)
    room -= share
  })
  const parts = [head]
  for (const section of built.sections) {
    const fitted = fit(section, (shares.get(section) ?? 0) - frame(section, layout.level))
    if (fitted.length) parts.push(`${layout.level} ${section.title}\n\n${fitted.join('\n')}`)
  }
  if (built.changes) {
    const changes = changesSection(built.changes, budget - parts.join('\n\n').length - 2, layout.level)
    if (changes) parts.push(changes)
  }
  return parts.join('\n\n')
}

/** The patches under their heading within `room`; '' when there are none or nothing fits. */
function changesSection(changes: NonNullable<Built['changes']>, room: number, level: string): string {
  if (changes.files.length + changes.unread === 0) return ''
  const title = `${level} The change itself: patches, most useful files first`
  const text = renderChanges(changes.files, room - title.length - 2, changes)
  return text && `${title}\n\n${text}`
}

/** Characters of lines joined by newlines. */
function joined(lines: readonly string[]): number {
  return lines.reduce((sum, line) => sum + line.length, 0) + Math.max(0, lines.length - 1)
}

/** What a section takes around its lines: the blank line before it, its heading, the blank line after. */
function frame(section: Section, level: string): number {
  return `\n\n${level} ${section.title}\n\n`.length
}

/** What a section takes whole. */
function size(section: Section, level: string): number {
  const lines = section.unread > 0 ? [...section.lines, section.more(section.unread)] : section.lines
  return frame(section, level) + joined(lines)
}

/**
 * The section's lines within `room` characters, then a line saying how many were left out; none
 * at all when not even that line fits.
 */
function fit(section: Section, room: number): string[] {
  const { lines, unread } = section
  if (unread === 0 && joined(lines) <= room) return lines
  const kept: string[] = []
  for (const [index, line] of lines.entries()) {
    // Room is kept for the line that stands for everything after this one.
    if (joined([...kept, line, section.more(lines.length - index - 1 + unread)]) > room) {
      const more = section.more(lines.length - index + unread)
      return joined([...kept, more]) <= room ? [...kept, more] : []
    }
    kept.push(line)
  }
  return [...kept, section.more(unread)]
}
