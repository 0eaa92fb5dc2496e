import { describe, expect, it } from '@jest/globals'
import { inputDefaults, readAction } from '../../scripts/action-metadata.js'
import { parseSettings } from '../../src/step/settings.js'

// action.yml is the one source of the defaults: the runner fills them in, and so does this source.
const DEFAULTS = inputDefaults(readAction(), 'ghs_token')

const parse = (inputs: Record<string, string>, options = { commands: false }) =>
  parseSettings(
    {
      get: (name) => ({ ...DEFAULTS, 'api-key': 'mint_key', 'project-id': 'proj', ...inputs })[name]?.trim() ?? '',
      readFile: () => {
        throw new Error('not read')
      }
    },
    options
  )

describe('the automation input', () => {
  it('makes the step a trigger of that automation, also on a comment event', () => {
    expect(parse({ automation: 'auto_1' })).toMatchObject({ mode: 'automation', automationId: 'auto_1' })
    expect(parse({ automation: 'auto_1' }, { commands: true })).toMatchObject({ mode: 'automation' })
    expect(parse({ prompt: 'x' })).toMatchObject({ mode: 'create' })
  })

  it('takes one word of at most 200 characters', () => {
    expect(parse({ automation: 'a'.repeat(200) })).toMatchObject({ automationId: 'a'.repeat(200) })
    expect(() => parse({ automation: 'a'.repeat(201) })).toThrow(
      `Input 'automation': "${'a'.repeat(200)}" is not an automation ID: expected the automation's ID`
    )
    expect(() => parse({ automation: 'a\tb' })).toThrow('Input \'automation\': "a\tb" is not an automation ID')
  })

  it('names the first input that cannot go with it, before reading a prompt file', () => {
    expect(() => parse({ automation: 'a', 'prompt-file': 'p.md', 'job-id': 'j' })).toThrow(
      "Input 'prompt-file': not with 'automation'"
    )
    expect(() => parse({ automation: 'a', 'job-id': 'j', group: 'g' })).toThrow("Input 'job-id': not with 'automation'")
  })
})
