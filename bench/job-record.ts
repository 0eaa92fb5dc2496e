// The report of a job record as large as the client reads (1 MiB), built to cost the most: one long
// field after an ellipsis, the key echoed before a cut. Everything the step does with the record
// once it has it: outputs, the summary, redaction of both, the last log line. Wall time, median.
import { performance } from 'node:perf_hooks'
import { parseJob } from '../src/agent-api/job.js'
import { redact } from '../src/base/text.js'
import { finish } from '../src/report/finish.js'
import { initialState } from '../src/report/state.js'
import { median } from './stats.js'

const KEY = 'mint_bench_secret_key_0000'
export const RECORD_SIZES = [256 * 1024, 512 * 1024, 1024 * 1024]

export interface RecordTimes {
  size: number
  ms: number[]
}

function record(size: number): Record<string, unknown> {
  const head = `Echoed ${KEY.slice(0, 12)}… then: `
  return {
    id: 'job_big',
    status: 'failed',
    source: { repository: 'https://github.com/acme/docs', ref: 'main' },
    error: head + 'x'.repeat(size - head.length - 200),
    createdAt: '2026-11-21T10:00:00Z'
  }
}

async function reportOnce(raw: Record<string, unknown>): Promise<number> {
  const state = { ...initialState(0, 'job_big'), job: parseJob(raw), outcome: 'failed' as const, endedAt: 60_000 }
  const quiet = { debug() {}, info() {}, notice() {}, warning() {}, error() {} }
  const startedAt = performance.now()
  await finish(state, undefined, {
    log: { ...quiet, info: (message: string) => void redact(message, [KEY]) },
    serverUrl: 'https://github.com',
    setOutput: (_name, value) => void redact(value, [KEY]),
    writeSummary: (markdown) => Promise.resolve(void redact(markdown, [KEY]))
  })
  return performance.now() - startedAt
}

export async function measureJobRecord(options: { runs: number }): Promise<RecordTimes[]> {
  const results: RecordTimes[] = []
  for (const size of RECORD_SIZES) {
    const raw = record(size)
    await reportOnce(raw) // warm-up
    const ms: number[] = []
    for (let i = 0; i < options.runs; i++) ms.push(await reportOnce(raw))
    results.push({ size, ms })
  }
  return results
}

export function jobRecordSummary(times: RecordTimes[]): string {
  const first = times[0]
  return [
    `The report of a job record with one long field after an ellipsis (${first?.ms.length ?? 0} runs each, median / max):`,
    ...times.map(
      (t) =>
        `- ${t.size / 1024} KiB: ${median(t.ms).toFixed(1)} / ${Math.max(...t.ms).toFixed(1)} ms` +
        (first ? `, ${(median(t.ms) / median(first.ms)).toFixed(1)}× the ${first.size / 1024} KiB time` : '')
    )
  ].join('\n')
}
