// action.yml's descriptions are what a user reads in the Marketplace and in an editor's hover: each
// at most about 300 characters (issue 43), with the detail in docs/.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

const MAX = 300
const action = parse(readFileSync('action.yml', 'utf8')) as Record<
  'inputs' | 'outputs',
  Record<string, { description: string }>
>

describe("action.yml's descriptions", () => {
  it.each(['inputs', 'outputs'] as const)('of its %s are each at most 300 characters', (side) => {
    const long = Object.entries(action[side])
      .filter(([, { description }]) => description.length > MAX)
      .map(([name, { description }]) => `${name}: ${String(description.length)}`)
    expect(long).toEqual([])
    expect(Object.keys(action[side]).length).toBeGreaterThan(10)
  })
})
