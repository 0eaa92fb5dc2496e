// Inputs that are unevaluated `${{ … }}` expressions, as GitHub's local runner passes action.yml's defaults.
import { describe, expect, it } from '@jest/globals'
import { evaluatedInputs } from '../../src/step/unevaluated.js'

describe('evaluatedInputs', () => {
  const given: Record<string, string> = {
    'github-token': '${{ github.token }}',
    'rerun-key': '${{ toJSON(matrix) }}',
    prompt: 'Use ${{ this }} literally',
    labels: '${{ a }}\n${{ b }}',
    'api-key': 'mint_key'
  }
  const source = () => evaluatedInputs((name) => given[name] ?? '')

  it('reads a value that is only an expression as empty, and any other value as given', () => {
    const inputs = source()
    expect(inputs.get('github-token')).toBe('')
    expect(inputs.get('labels')).toBe('')
    expect(inputs.get('prompt')).toBe('Use ${{ this }} literally')
    expect(inputs.get('api-key')).toBe('mint_key')
    expect(inputs.get('timeout')).toBe('')
  })

  it('says nothing when no input was an expression', () => {
    const inputs = source()
    inputs.get('api-key')
    inputs.get('prompt')
    expect(inputs.notice()).toBeUndefined()
  })

  it('names one input in one notice, however often it is read', () => {
    const inputs = source()
    inputs.get('github-token')
    inputs.get('github-token')
    expect(inputs.notice()).toBe(
      "Input 'github-token' is an unevaluated expression (${{ … }}), read as empty: only GitHub's runner evaluates expressions, and GitHub's local runner passes action.yml's defaults as written."
    )
  })

  it('names several in the order they were read', () => {
    const inputs = source()
    for (const name of ['rerun-key', 'api-key', 'github-token', 'labels']) inputs.get(name)
    expect(inputs.notice()).toBe(
      "Inputs 'rerun-key', 'github-token' and 'labels' are unevaluated expressions (${{ … }}), read as empty: only GitHub's runner evaluates expressions, and GitHub's local runner passes action.yml's defaults as written."
    )
  })
})
