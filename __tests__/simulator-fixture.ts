import { afterAll, beforeAll, beforeEach } from '@jest/globals'
import { AgentApiSimulator, type JobScenario } from '../simulator/server.js'

/**
 * One simulator per test file, started before its tests and closed after; before each test the
 * request log is emptied, standing faults are cleared and the scenario is reset to `scenario`.
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
