import { describe, expect, it } from '@jest/globals'
import { redactingLog, type Log } from '../../src/base/log.js'

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
