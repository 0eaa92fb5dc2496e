/**
 * Bad input whose value is long (the prompt's text given to `prompt-file`, a space-separated list
 * given to a list input): the error still says why and the accepted form, where people read it.
 * The summary shows the first 2,000 characters of what happened, and the runner keeps the first
 * 4,096 characters of an annotation, for its log line too (actions/runner, ExecutionContext.cs,
 * `_maxIssueMessageLength = 4096`, applied in `AddIssue` before the line is written): an error that
 * quotes the whole value before its form loses the form in both.
 */
import { describe, expect, it } from '@jest/globals'
import { useStep } from '../fixtures/step.js'

const KEY = 'mint_long_input_values_key_0123456789'
/** What the runner keeps of an annotation, and so of its log line. */
const ANNOTATION_CHARS = 4096

describe('bad input with a long value: the error keeps its reason and accepted form in view', () => {
  const step = useStep({ key: KEY, project: 'proj-long-inputs', scenario: { runMs: 300 } })
  // A prompt of a few hundred lines, given to prompt-file instead of prompt (the two are easily swapped).
  const promptText = Array.from({ length: 300 }, (_, i) => `- Document change ${i} of the export command.`).join('\n')
  const logins = Array.from({ length: 600 }, (_, i) => `user${i}`).join(' ')

  it.each<[string, Record<string, string>, string]>([
    ['prompt-file', { 'prompt-file': promptText }, 'expected the path of a regular UTF-8 file inside the workspace'],
    [
      'allowed-non-write-users',
      { prompt: 'Document v2', 'allowed-non-write-users': logins },
      'expected logins (mona, dependabot[bot]) separated by commas or new lines, or *.'
    ],
    ['timeout', { prompt: 'Document v2', timeout: `30 ${'minutes '.repeat(600)}` }, 'is not a duration: expected'],
    [
      'base-url',
      { prompt: 'Document v2', 'base-url': `api.mintlify.com/${'v2/'.repeat(1500)}` },
      'expected an https:// URL'
    ]
  ])('%s', async (input, inputs, form) => {
    const run = await step.run(inputs)
    expect(run.code).toBe(1)
    expect(step.sim().requests).toEqual([])
    const [error] = run.at('error')
    expect(error?.startsWith(`Input '${input}': `)).toBe(true)
    // The annotation and its log line, as the runner keeps them.
    expect(error?.slice(0, ANNOTATION_CHARS)).toContain(form)
    const happened = /<strong>What happened:<\/strong> (.*)<\/p>/.exec(run.summary)?.[1] ?? ''
    expect(happened).toContain(form.replace(/"/g, '&quot;'))
  })
})
