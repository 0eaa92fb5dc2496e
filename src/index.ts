import { watchSignals } from './step/signals.js'

// Handlers first, then the rest of the bundle (loaded as a separate chunk): a cancel that comes
// while it loads still ends in outputs and a summary.
const signals = watchSignals()
const { run } = await import('./step/runner.js')
await run(signals)
