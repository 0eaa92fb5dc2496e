import { describe, expect, it } from '@jest/globals'
import { debugOnly, redactingLog, type Log } from '../../src/base/log.js'

describe('redactingLog', () => {
  const recorder = (): { log: Log; lines: string[] } => {
    const lines: string[] = []
    const write = (level: string) => (message: string) => lines.push(`${level} ${message}`)
    return {
      lines,
      log: {
        info: write('info'),
        debug: write('debug'),
        notice: write('notice'),
        warning: write('warning'),
        error: write('error')
      }
    }
  }

  it('at every level, replaces the secrets and puts a space in every legacy command', () => {
    const { log, lines } = recorder()
    const safe = redactingLog(log, ['sekret_key_1'])
    safe.info('a ##[add-mask]x sekret_key_1')
    safe.debug('##[warning]sekret_k…')
    safe.notice('#\u200B#[error]n')
    safe.warning('w ##[stop-commands]t')
    safe.error('e ##[debug]sekret_key_1')
    expect(lines).toEqual([
      'info a ## [add-mask]x ***',
      'debug ## [warning]***…',
      'notice #\u200B# [error]n',
      'warning w ## [stop-commands]t',
      'error e ## [debug]***'
    ])
  })
})

describe('debugOnly', () => {
  it('writes every level at debug', () => {
    const lines: string[] = []
    const write = (level: string) => (message: string) => lines.push(`${level} ${message}`)
    const quiet = debugOnly({
      info: write('info'),
      debug: write('debug'),
      notice: write('notice'),
      warning: write('warning'),
      error: write('error')
    })
    quiet.info('i')
    quiet.debug('d')
    quiet.notice('n')
    quiet.warning('w')
    quiet.error('e')
    expect(lines).toEqual(['debug i', 'debug d', 'debug n', 'debug w', 'debug e'])
  })
})
