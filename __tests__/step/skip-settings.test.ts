// The skip rules' inputs: skip-labels, paths and paths-ignore, read with action.yml's defaults, and
// every refusal before any request naming the input and the accepted form.
import { describe, expect, it } from '@jest/globals'
import { inputDefaults, readAction } from '../../scripts/action-metadata.js'
import { InputError } from '../../src/step/inputs.js'
import { parseSettings } from '../../src/step/settings.js'

const DEFAULTS = inputDefaults(readAction(), 'ghs_token')
const rules = (inputs: Record<string, string>) => {
  const values: Record<string, string> = { ...DEFAULTS, 'api-key': 'k', 'project-id': 'p', prompt: 'x', ...inputs }
  return parseSettings({ get: (name) => (values[name] ?? '').trim(), readFile: () => '' }).skip
}
const refusal = (inputs: Record<string, string>): [string, string] => {
  try {
    rules(inputs)
  } catch (error) {
    if (error instanceof InputError) return [error.input, error.message]
    throw error
  }
  throw new Error('expected an InputError')
}

describe('skip-labels', () => {
  it('is skip-docs and no-docs by default, given empty too', () => {
    expect(rules({}).labels).toEqual(['skip-docs', 'no-docs'])
    expect(rules({ 'skip-labels': '' }).labels).toEqual(['skip-docs', 'no-docs'])
  })

  it('reads a list as written; none (any case) turns it off', () => {
    expect(rules({ 'skip-labels': 'Docs: Skip\n chore ,chore' }).labels).toEqual(['Docs: Skip', 'chore'])
    expect(rules({ 'skip-labels': 'NONE' }).labels).toEqual([])
  })

  it('refuses none with labels', () => {
    expect(refusal({ 'skip-labels': 'none, skip-docs' })).toEqual([
      'skip-labels',
      "Input 'skip-labels': none cannot be combined with labels: expected label names (comma or newline separated), or none."
    ])
  })
})

describe('paths and paths-ignore', () => {
  it('none by default', () => {
    expect(rules({}).paths).toBeUndefined()
    expect(rules({ paths: '', 'paths-ignore': '\n \n' }).paths).toBeUndefined()
  })

  it('reads either, one pattern a line', () => {
    const ignore = rules({ 'paths-ignore': '.github/**\n**/*.test.ts\n' }).paths
    expect([ignore?.input, ignore?.patterns.map((p) => p.text)]).toEqual([
      'paths-ignore',
      ['.github/**', '**/*.test.ts']
    ])
    const paths = rules({ paths: 'src/**\n!src/**/*.test.ts' }).paths
    expect([paths?.input, paths?.patterns.map((p) => [p.text, p.negated])]).toEqual([
      'paths',
      [
        ['src/**', false],
        ['!src/**/*.test.ts', true]
      ]
    ])
  })

  it('refuses both at once, as GitHub does', () => {
    expect(refusal({ paths: 'src/**', 'paths-ignore': 'docs/**' })).toEqual([
      'paths-ignore',
      "Input 'paths-ignore': cannot be combined with 'paths' (GitHub refuses both on one event too): to leave files out of 'paths', add them to it with !."
    ])
  })

  it('refuses a rule with context: none, which reads no changed files', () => {
    expect(refusal({ 'paths-ignore': 'docs/**', context: 'None' })).toEqual([
      'paths-ignore',
      "Input 'paths-ignore': needs context: auto: the rule is judged on the changed files the context reads."
    ])
    expect(rules({ context: 'none' }).paths).toBeUndefined()
  })

  it('refuses a malformed pattern and a list of ! patterns only', () => {
    expect(refusal({ paths: 'src/[ab' })[1]).toMatch(
      /^Input 'paths': "src\/\[ab" has a \[ with no \] to close it; expected one of GitHub's filter patterns/
    )
    expect(refusal({ 'paths-ignore': 'a[b' })[0]).toBe('paths-ignore')
    expect(refusal({ paths: '!docs/**' })[1]).toMatch(/^Input 'paths': every pattern starts with !/)
  })
})
