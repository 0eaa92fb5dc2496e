import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { INPUT_DEFAULTS, InputError, MAX_PROMPT_CHARS, parseSettings, type InputSource } from '../src/settings.js'

function source(inputs: Record<string, string>, files: Record<string, string> = {}): InputSource {
  return {
    get: (name) => (inputs[name] ?? '').trim(),
    readFile: (path) => {
      const content = files[path]
      if (content === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' })
      return content
    }
  }
}

const base = { 'api-key': 'mint_key', 'project-id': 'proj' }

function inputError(inputs: Record<string, string>, files?: Record<string, string>): InputError {
  try {
    parseSettings(source(inputs, files))
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected an InputError')
}

describe('parseSettings', () => {
  it('applies the defaults for a new job', () => {
    const settings = parseSettings(source({ ...base, prompt: 'Document v1.2' }))
    expect(settings).toMatchObject({
      mode: 'create',
      prompt: 'Document v1.2',
      promptInput: 'prompt',
      wait: true,
      timeoutMs: 30 * 60_000,
      pollIntervalMs: 2000,
      maxPollIntervalMs: 10_000,
      labels: []
    })
    expect([...settings.failOn]).toEqual(['failed', 'archived', 'timed-out'])
    expect(settings.baseUrl.href).toBe('https://api.mintlify.com/')
  })

  it('chooses the mode from prompt and job-id', () => {
    expect(parseSettings(source({ ...base, 'job-id': 'j1', prompt: 'more' })).mode).toBe('message')
    expect(parseSettings(source({ ...base, 'job-id': 'j1' })).mode).toBe('wait-only')
  })

  it('reads the prompt from prompt-file', () => {
    const settings = parseSettings(source({ ...base, 'prompt-file': 'p.md' }, { 'p.md': 'line 1\nline 2\n' }))
    expect(settings.prompt).toBe('line 1\nline 2\n')
    expect(settings.promptInput).toBe('prompt-file')
  })

  it('parses lists, fail-on and the base URL', () => {
    const settings = parseSettings(
      source({
        ...base,
        prompt: 'x',
        labels: 'docs, release\n\n docs ,',
        'fail-on': 'FAILED\nno-pr timed-out',
        'base-url': 'http://127.0.0.1:8080/proxy/'
      })
    )
    expect(settings.labels).toEqual(['docs', 'release'])
    expect([...settings.failOn]).toEqual(['failed', 'no-pr', 'timed-out'])
    expect(settings.baseUrl.pathname).toBe('/proxy/')
    expect(parseSettings(source({ ...base, prompt: 'x', 'fail-on': 'none' })).failOn.size).toBe(0)
  })

  it.each<[string, Record<string, string>, RegExp]>([
    ['api-key', { 'project-id': 'p', prompt: 'x' }, /required/],
    ['project-id', { 'api-key': 'k', prompt: 'x' }, /required/],
    ['prompt', { ...base }, /job-id/],
    ['prompt-file', { ...base, prompt: 'x', 'prompt-file': 'p.md' }, /not both/],
    ['prompt-file', { ...base, 'prompt-file': 'missing.md' }, /cannot read "missing.md" \(ENOENT\)/],
    ['prompt', { ...base, prompt: 'x'.repeat(MAX_PROMPT_CHARS + 1) }, /limit is 100000/],
    [
      'timeout',
      { ...base, prompt: 'x', timeout: '10 minutes' },
      /expected seconds \(600\) or a duration such as 500ms/
    ],
    ['timeout', { ...base, prompt: 'x', timeout: '0' }, /not a duration/],
    ['poll-interval', { ...base, prompt: 'x', 'poll-interval': '100ms' }, /at least 500ms/],
    ['max-poll-interval', { ...base, prompt: 'x', 'poll-interval': '5s', 'max-poll-interval': '2s' }, /not be shorter/],
    ['wait', { ...base, prompt: 'x', wait: 'yes' }, /expected true or false/],
    [
      'fail-on',
      { ...base, prompt: 'x', 'fail-on': 'failed, errored' },
      /unknown outcome "errored": expected any of failed, archived, timed-out, no-pr/
    ],
    ['fail-on', { ...base, prompt: 'x', 'fail-on': 'none failed' }, /unknown outcome "none"/],
    ['base-url', { ...base, prompt: 'x', 'base-url': 'http://api.example.com' }, /unencrypted/],
    ['base-url', { ...base, prompt: 'x', 'base-url': 'not a url' }, /not a URL/],
    ['base-url', { ...base, prompt: 'x', 'base-url': 'ftp://example.com' }, /unsupported scheme/],
    ['base-url', { ...base, prompt: 'x', 'base-url': 'https://u:p@example.com' }, /credentials/]
  ])('names %s when it is wrong', (input, inputs, message) => {
    const error = inputError(inputs, { 'p.md': 'x' })
    expect(error.input).toBe(input)
    expect(error.message).toMatch(new RegExp(`^Input '${input}': `))
    expect(error.message).toMatch(message)
  })

  it('refuses an empty prompt file', () => {
    expect(inputError({ ...base, 'prompt-file': 'e.md' }, { 'e.md': ' \n' }).message).toMatch(/empty/)
  })

  it('never puts the key in an error message', () => {
    const error = inputError({ 'api-key': 'mint_topsecret', 'project-id': 'p', prompt: 'x', timeout: 'soon' })
    expect(error.message).not.toContain('mint_topsecret')
  })
})

describe('action.yml', () => {
  const action = parse(readFileSync(new URL('../action.yml', import.meta.url), 'utf8')) as {
    inputs: Record<string, { default?: string; required?: boolean }>
  }

  it('declares the same defaults the code applies', () => {
    for (const [name, value] of Object.entries(INPUT_DEFAULTS)) {
      expect([name, action.inputs[name]?.default]).toEqual([name, value])
    }
    const declared = Object.entries(action.inputs)
      .filter(([name, input]) => input.default !== undefined && name !== 'github-token')
      .map(([name]) => name)
      .sort()
    expect(declared).toEqual(Object.keys(INPUT_DEFAULTS).sort())
  })
})
