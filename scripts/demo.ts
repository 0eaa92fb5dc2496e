/**
 * `npm run demo`: starts the Agent API simulator on loopback, runs the built action against it
 * as the runner would, and prints the log, the outputs and the job summary.
 */
import { AgentApiSimulator } from '../simulator/agent-api.js'
import { runAction } from './run-action.js'

const sim = await AgentApiSimulator.start({ scenario: { runMs: 6000, finalStatus: 'completed', pr: true } })
console.log(`Agent API simulator listening at ${sim.url} (the job will take 6 s and open a pull request)\n`)
console.log('--- action log ---')
try {
  const run = await runAction(
    {
      'api-key': 'mint_demo_key_not_a_secret',
      'project-id': 'demo-project',
      'base-url': sim.url,
      prompt: 'Document the changes in release v1.4.0: the new `export` command and the --dry-run flag.'
    },
    { echo: true }
  )
  console.log('\n--- outputs (GITHUB_OUTPUT) ---')
  for (const [name, value] of Object.entries(run.outputs)) console.log(`${name}: ${value}`)
  console.log('\n--- job summary (GITHUB_STEP_SUMMARY, HTML) ---')
  console.log(run.summary.trim())
  console.log(`\n--- requests the simulator received ---`)
  for (const request of sim.requests)
    console.log(`${request.method} ${request.rawPath} -> ${request.answeredStatus ?? '-'}`)
  console.log(`\nThe action exited with code ${run.code}.`)
  process.exitCode = run.code ?? 1
} finally {
  await sim.close()
}
