import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals'
import { AgentApiSimulator, type JobScenario } from '../../simulator/agent-api.js'
import { VirtualClock } from '../../simulator/virtual-clock.js'

/**
 * One simulator per test file, on real time, for the suites that run the built action as a
 * process; before each test the request log is emptied, standing faults are cleared and the
 * scenario is reset to `scenario`.
 */
export function useSimulator(
  apiKey: string,
  scenario: Partial<JobScenario>,
  onStart: (sim: AgentApiSimulator) => void
): void {
  let sim: AgentApiSimulator | undefined
  beforeAll(async () => {
    sim = await AgentApiSimulator.start({ apiKey })
    onStart(sim)
  })
  afterAll(async () => {
    await sim?.close()
  })
  beforeEach(() => {
    if (!sim) return
    sim.requests.length = 0
    for (const operation of ['create', 'message', 'get'] as const) sim.failAlways(operation, null)
    sim.setScenario({
      runMs: 1000,
      finalStatus: 'completed',
      pr: true,
      prLink: undefined,
      record: undefined,
      ...scenario
    })
  })
}

export interface Virtual {
  sim: AgentApiSimulator
  clock: VirtualClock
}

/**
 * A fresh simulator and virtual clock for each test of an in-process suite: jobs age, delays and
 * hangs in virtual time, shared with the step under test.
 */
export function useVirtualSimulator(apiKey: string, scenario: Partial<JobScenario> = {}): () => Virtual {
  let current: Virtual | undefined
  beforeEach(async () => {
    const clock = new VirtualClock({ seed: 42 })
    current = { clock, sim: await AgentApiSimulator.start({ apiKey, clock, scenario: { runMs: 30_000, ...scenario } }) }
  })
  afterEach(async () => {
    await current?.sim.close()
    current = undefined
  })
  return () => {
    if (!current) throw new Error('useVirtualSimulator: no test is running')
    return current
  }
}
