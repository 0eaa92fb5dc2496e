import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { EOL, tmpdir } from 'node:os'
import { join } from 'node:path'
import { workflowCommands } from '../../src/step/workflow-commands.js'
import { parseOutputs } from '../../scripts/run-action.js'

/** The commands over `env`, and what they wrote to stdout. */
function runner(env: Record<string, string | undefined> = {}) {
  let stdout = ''
  const io = workflowCommands({ env, write: (text) => (stdout += text) })
  return { io, stdout: () => stdout }
}

const tempFile = (name: string, text = ''): string => {
  const path = join(mkdtempSync(join(tmpdir(), 'runner-')), name)
  writeFileSync(path, text)
  return path
}

describe('workflowCommands', () => {
  it('reads an input from INPUT_<NAME>, spaces as _, trimmed, and empty when not set', () => {
    const { io } = runner({ 'INPUT_PROMPT-FILE': ' docs/p.md \n', INPUT_MY_INPUT: 'x', INPUT_EMPTY: '' })
    expect(io.input('prompt-file')).toBe('docs/p.md')
    expect(io.input('my input')).toBe('x')
    expect(io.input('empty')).toBe('')
    expect(io.input('missing')).toBe('')
  })

  it('writes each log level as its command, the message on one line, and info as it is', () => {
    const { io, stdout } = runner()
    io.log.debug('d')
    io.log.notice('n')
    io.log.warning('100%\r\n::error::not a command')
    io.log.error('e')
    io.log.info('plain %0A\nlines')
    expect(stdout()).toBe(
      [
        '::debug::d',
        '::notice::n',
        '::warning::100%25%0D%0A::error::not a command',
        '::error::e',
        'plain %0A\nlines',
        ''
      ].join(EOL)
    )
  })

  it('masks a secret with add-mask, one line', () => {
    const { io, stdout } = runner()
    io.setSecret('se%cr\net')
    expect(stdout()).toBe(`::add-mask::se%25cr%0Aet${EOL}`)
  })

  it('appends each output to GITHUB_OUTPUT in a block the runner reads back whole, each with its own delimiter', () => {
    const file = tempFile('output', 'earlier=1\n')
    const { io, stdout } = runner({ GITHUB_OUTPUT: file })
    io.setOutput('prompt', 'line 1\nname<<EOF\nline 3')
    io.setOutput('status', 'completed')
    const text = readFileSync(file, 'utf8')
    expect(parseOutputs(text)).toEqual({ prompt: 'line 1\nname<<EOF\nline 3', status: 'completed' })
    const delimiters = [...text.matchAll(/<<(ghadelimiter_[0-9a-f-]{36})$/gm)].map((m) => m[1])
    expect(new Set(delimiters).size).toBe(2)
    expect(text.startsWith('earlier=1\n')).toBe(true)
    expect(stdout()).toBe('')
  })

  it('refuses an output when the file GITHUB_OUTPUT names is missing', () => {
    const missing = join(tmpdir(), 'no-such-dir', 'output')
    const { io } = runner({ GITHUB_OUTPUT: missing })
    expect(() => io.setOutput('status', 'x')).toThrow(`GITHUB_OUTPUT names ${missing}, which does not exist`)
  })

  it('without GITHUB_OUTPUT (outside a runner), shows the output as the set-output command', () => {
    const { io, stdout } = runner({ GITHUB_OUTPUT: '' })
    io.setOutput('a:b,c', 'v\nw')
    expect(stdout()).toBe(`${EOL}::set-output name=a%3Ab%2Cc::v%0Aw${EOL}`)
  })

  it('appends the summary to GITHUB_STEP_SUMMARY as it is', async () => {
    const file = tempFile('summary', '<h2>before</h2>\n')
    const { io } = runner({ GITHUB_STEP_SUMMARY: file })
    await io.writeSummary('<p>one</p>\n')
    await io.writeSummary('two')
    expect(readFileSync(file, 'utf8')).toBe('<h2>before</h2>\n<p>one</p>\ntwo')
  })

  it('fails the summary when GITHUB_STEP_SUMMARY is not set, or names no file it can write', async () => {
    await expect(runner({ GITHUB_STEP_SUMMARY: '' }).io.writeSummary('x')).rejects.toThrow(
      'GITHUB_STEP_SUMMARY is not set: this runner keeps no job summary'
    )
    const missing = join(tmpdir(), 'no-such-summary')
    await expect(runner({ GITHUB_STEP_SUMMARY: missing }).io.writeSummary('x')).rejects.toThrow(
      `cannot write the summary file ${missing}`
    )
  })
})
