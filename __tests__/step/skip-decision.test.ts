// The skip phase's decision on its own, fast: each rule against a trigger or the context's lists,
// what it records and logs, and what it never skips. The scenarios in skip.test.ts run it in the step.
import { describe, expect, it } from '@jest/globals'
import type { ChangedFiles } from '../../src/github/context/changed.js'
import type { ContextResult } from '../../src/github/context/context.js'
import type { Trigger } from '../../src/github/event.js'
import { RunStateWriter } from '../../src/step/run-state.js'
import type { CreateOrMessage } from '../../src/step/settings.js'
import { explicitRequest, SKIP_MARKERS, skipPhase } from '../../src/step/skip/phase.js'
import { settings } from '../fixtures/run-state.js'

const pull = (over: Partial<Extract<Trigger, { kind: 'pull-request' }>> = {}): Trigger => ({
  kind: 'pull-request',
  repo: 'acme/app',
  number: 5,
  title: 'Add a flag',
  url: undefined,
  body: '',
  base: 'main',
  head: 'flag',
  changedFiles: 1,
  labels: [],
  ...over
})
const push = (headMessage: string | undefined): Trigger => ({
  kind: 'push',
  repo: 'acme/app',
  branch: 'main',
  commits: [],
  compareUrl: undefined,
  headMessage,
  range: undefined
})
const files = (of: string, paths: string[], incomplete?: string): ChangedFiles => ({ of, paths, incomplete })
const context = (...changed: ChangedFiles[]): ContextResult => ({
  text: 'ctx',
  description: 'd',
  warning: undefined,
  requests: 1,
  changed
})

function phase(
  step: 'event' | 'files',
  inputs: Record<string, string>,
  options: {
    trigger?: Trigger
    eventName?: string
    context?: ContextResult
    command?: boolean
    skippedBefore?: boolean
  } = {}
) {
  const lines: string[] = []
  const log = {
    info: (m: string) => lines.push(m),
    debug: () => undefined,
    notice: () => undefined,
    warning: () => undefined,
    error: () => undefined
  }
  const run = new RunStateWriter({ log, clock: { now: () => 0 } as never, setOutput: () => undefined }, undefined)
  run.prompted({ prompt: 'the prompt', context: options.context })
  if (options.skippedBefore) run.skipDecided({ skipped: true, reason: 'a label' }, false)
  const given = settings(inputs) as CreateOrMessage
  const withCommand = options.command
    ? { ...given, command: { kind: 'create' as const, author: 'm', text: 't', id: 1 } }
    : given
  const deps = { log, trigger: () => options.trigger ?? pull(), eventName: options.eventName ?? 'pull_request' }
  const end = skipPhase(step, withCommand, deps, run)
  return { end, state: run.state, lines }
}

describe('the event step: labels and markers', () => {
  it('a skip label, compared without case, ends the run and records why', () => {
    const { end, state, lines } = phase('event', {}, { trigger: pull({ labels: ['bug', 'NO-DOCS'] }) })
    expect(end).toEqual({ kind: 'skipped' })
    expect(state.skip).toEqual({ skipped: true, reason: 'skip-labels: pull request #5 has the label NO-DOCS' })
    // Nothing was sent: the prompt built so far is not kept.
    expect([state.prompt, state.context, lines]).toEqual([undefined, undefined, []])
  })

  it('labels of your own; none, and labels not listed, skip nothing', () => {
    expect(phase('event', { 'skip-labels': 'wip' }, { trigger: pull({ labels: ['WIP'] }) }).end).toEqual({
      kind: 'skipped'
    })
    expect(
      phase('event', { 'skip-labels': 'none' }, { trigger: pull({ labels: ['skip-docs'] }) }).state.skip
    ).toBeUndefined()
    expect(phase('event', {}, { trigger: pull({ labels: ['skip-docs-later'] }) }).end).toBeUndefined()
  })

  it.each(SKIP_MARKERS)('the marker %s in a title, any case; in a branch push’s head commit', (marker) => {
    const title = phase('event', {}, { trigger: pull({ title: `chore: x ${marker.toUpperCase()}` }) })
    expect(title.state.skip?.reason).toBe(`${marker} in the title of pull request #5`)
    const commit = phase('event', {}, { trigger: push(`fix: y\n\n${marker}`), eventName: 'push' })
    expect(commit.state.skip?.reason).toBe(`${marker} in the message of the head commit of the push to main`)
  })

  it('no marker, a near miss, or a tag: nothing', () => {
    for (const trigger of [
      pull({ title: 'skip docs' }),
      pull({ title: '[skip  docs]' }),
      push(undefined),
      push('[skip ci]'),
      { kind: 'tag', repo: 'acme/app', tag: 'v1 [skip docs]', release: undefined } as Trigger
    ]) {
      expect(phase('event', {}, { trigger }).state.skip).toBeUndefined()
    }
  })

  it('explicit requests: never skipped, nothing recorded', () => {
    const labelled = pull({ labels: ['skip-docs'], title: '[skip docs]' })
    expect(phase('event', {}, { trigger: labelled, command: true }).state.skip).toBeUndefined()
    expect(phase('event', {}, { trigger: labelled, eventName: 'workflow_dispatch' }).state.skip).toBeUndefined()
    expect(phase('event', { 'job-id': 'job_1', prompt: 'more' }, { trigger: labelled }).state.skip).toBeUndefined()
    expect(explicitRequest(settings({ 'trigger-phrase': '/ask' }) as CreateOrMessage, 'push')).toBeUndefined()
    expect(
      explicitRequest(
        {
          ...(settings({ 'trigger-phrase': '/ask' }) as CreateOrMessage),
          command: { kind: 'create', author: 'a', text: 't', id: 1 }
        },
        'push'
      )
    ).toBe('a /ask command')
  })
})

describe('the files step: a path rule on the context’s lists', () => {
  const ignore = { 'paths-ignore': '.github/**\n**/*.test.ts' }

  it('no rule: nothing recorded', () => {
    expect(phase('files', {}, { context: context(files('r', ['a'])) }).state.skip).toBeUndefined()
  })

  it('paths-ignore: skipped when every file matches; kept, with the first files left, when not', () => {
    const all = phase('files', ignore, { context: context(files('v1...v2', ['.github/ci.yml', 'a.test.ts'])) })
    expect(all.end).toEqual({ kind: 'skipped' })
    expect(all.state.skip).toEqual({
      skipped: true,
      reason: 'paths-ignore matches every changed file of v1...v2: .github/ci.yml, a.test.ts',
      files: [files('v1...v2', ['.github/ci.yml', 'a.test.ts'])]
    })
    const paths = ['src/a.ts', 'a.test.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts']
    const kept = phase('files', ignore, { context: context(files('v1...v2', paths)) })
    expect(kept.end).toBeUndefined()
    const why = 'paths-ignore leaves 4 of the 5 changed files of v1...v2: src/a.ts, src/b.ts, src/c.ts and 1 more'
    expect([kept.state.skip?.skipped, kept.state.skip?.reason, kept.lines]).toEqual([
      false,
      why,
      [`Skip rules: not skipped: ${why}.`]
    ])
    expect(kept.state.prompt).toBe('the prompt')
  })

  it('names three files in full, and counts those past three', () => {
    const three = phase('files', ignore, { context: context(files('r', ['.github/a', '.github/b', '.github/c'])) })
    expect(three.state.skip?.reason).toBe(
      'paths-ignore matches every changed file of r: .github/a, .github/b, .github/c'
    )
  })

  it('paths: skipped when none matches, kept when one does', () => {
    const rule = { paths: 'src/**' }
    expect(phase('files', rule, { context: context(files('r', ['docs/a.md'])) }).state.skip?.reason).toBe(
      'paths matches none of the changed files of r: docs/a.md'
    )
    expect(phase('files', rule, { context: context(files('r', ['docs/a.md', 'src/x.ts'])) }).state.skip).toEqual({
      skipped: false,
      reason: 'paths matches 1 of the 2 changed files of r: src/x.ts',
      files: [files('r', ['docs/a.md', 'src/x.ts'])]
    })
  })

  it('a change of no file is skipped under either rule', () => {
    for (const rule of [ignore, { paths: 'src/**' }]) {
      const { end, state } = phase('files', rule, { context: context(files('pkg in a...b', [])) })
      expect(end).toEqual({ kind: 'skipped' })
      expect(state.skip?.reason).toMatch(/^paths(-ignore)?: pkg in a\.\.\.b changes no file$/)
    }
  })

  it('a list that may be incomplete never skips, whatever it holds', () => {
    const { end, state } = phase('files', ignore, { context: context(files('r', ['a.test.ts'], 'it listed 300')) })
    expect([end, state.skip?.reason]).toEqual([undefined, 'the changed files of r may be incomplete (it listed 300)'])
  })

  it('a release set: skipped only when every package is', () => {
    const bump = files('cli in a...b', ['.github/x'])
    const none = files('shim in a...b', [])
    const real = files('core in a...b', ['src/x.ts'])
    expect(phase('files', ignore, { context: context(bump, none) }).state.skip?.reason).toBe(
      'every package of the release set would be skipped: paths-ignore matches every changed file of cli in a...b: .github/x; paths-ignore: shim in a...b changes no file'
    )
    expect(phase('files', ignore, { context: context(bump, real, none) }).state.skip?.reason).toBe(
      'paths-ignore leaves 1 of the 1 changed file of core in a...b: src/x.ts'
    )
  })

  it('no lists, no token, an explicit request: not skipped, and why', () => {
    expect(phase('files', ignore, {}).state.skip).toEqual({
      skipped: false,
      reason: 'paths-ignore has no changed files to judge: the context read none'
    })
    expect(phase('files', ignore, { context: { ...context(), changed: undefined } }).state.skip?.skipped).toBe(false)
    const tokenless = phase('files', { ...ignore, 'github-token': '' }, { context: context(files('r', ['.github/x'])) })
    expect(tokenless.state.skip?.reason).toBe('paths-ignore has no changed files to judge: github-token is empty')
    const dispatched = phase('files', ignore, {
      context: context(files('r', ['.github/x'])),
      eventName: 'workflow_dispatch'
    })
    expect([dispatched.end, dispatched.state.skip?.reason]).toEqual([
      undefined,
      'a workflow_dispatch run is an explicit request, never skipped'
    ])
  })
})

describe('a dry run', () => {
  it('shows the decision and the files, and goes on', () => {
    const lists = [
      files(
        'v1...v2',
        Array.from({ length: 52 }, (_, i) => `.github/f${i}`)
      ),
      files('pr #1', [], 'not read')
    ]
    const { end, state, lines } = phase(
      'files',
      { 'paths-ignore': '.github/**', 'dry-run': 'true' },
      { context: context(...lists) }
    )
    expect(end).toBeUndefined()
    expect(state.skip?.skipped).toBe(false)
    expect(state.prompt).toBe('the prompt')
    expect(lines[0]).toBe(
      'Dry run: the skip rules would not skip this run: the changed files of pr #1 may be incomplete (not read).'
    )
    expect(lines[1]).toBe('Dry run: the changed files of v1...v2 (52 paths; complete):')
    expect(lines.slice(2, 4)).toEqual(['│ .github/f0', '│ .github/f1'])
    expect(lines.slice(51)).toEqual([
      '│ .github/f49',
      '│ … and 2 more',
      'Dry run: the changed files of pr #1 (0 paths; may be incomplete: not read):'
    ])
  })

  it('lists fifty paths of a list without counting more', () => {
    const fifty = [
      files(
        'r',
        Array.from({ length: 50 }, (_, i) => `.github/f${i}`)
      )
    ]
    const { lines } = phase(
      'files',
      { 'paths-ignore': '.github/**', 'dry-run': 'true' },
      { context: context(...fifty) }
    )
    expect([lines.length, lines.at(-1)]).toEqual([52, '│ .github/f49'])
  })

  it('a label it would skip on stands: the files are not judged again', () => {
    const event = phase('event', { 'dry-run': 'true' }, { trigger: pull({ labels: ['skip-docs'] }) })
    expect([event.end, event.lines]).toEqual([
      undefined,
      ['Dry run: the skip rules would skip this run: skip-labels: pull request #5 has the label skip-docs.']
    ])
    const files = phase('files', { 'dry-run': 'true', paths: 'src/**' }, { skippedBefore: true, context: context() })
    expect([files.state.skip, files.lines]).toEqual([{ skipped: true, reason: 'a label' }, []])
  })
})
