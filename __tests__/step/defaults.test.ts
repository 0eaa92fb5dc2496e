import { describe, expect, it } from '@jest/globals'
import { readAction } from '../../scripts/action-metadata.js'
import { EXPRESSION_DEFAULTS, INPUT_DEFAULTS } from '../../src/step/defaults.js'

describe('the bundled copy of the defaults', () => {
  const inputs = readAction().inputs

  it("is action.yml's: every literal default, and nothing else", () => {
    const literal = inputs.filter((input) => input.default !== undefined && !input.default.includes('${{'))
    expect(INPUT_DEFAULTS).toEqual(Object.fromEntries(literal.map((input) => [input.name, input.default])))
  })

  it("names action.yml's expression defaults, which only the runner can evaluate", () => {
    const expressions = inputs.filter((input) => input.default?.includes('${{'))
    expect(EXPRESSION_DEFAULTS).toEqual(Object.fromEntries(expressions.map((input) => [input.name, input.default])))
  })

  it('has no default for a required input', () => {
    const required = inputs.filter((input) => input.required).map((input) => input.name)
    expect(required).toEqual(['api-key', 'project-id'])
    for (const name of required) expect(INPUT_DEFAULTS).not.toHaveProperty(name)
  })
})
