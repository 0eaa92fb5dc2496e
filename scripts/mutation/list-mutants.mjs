// Stryker's instrumenter on the files given on stdin ({ name, content, mutate }[], Stryker's ranges),
// the mutants it places written to stdout as JSON. A process of its own (scripts/mutation/listing.ts):
// the instrumenter loads Babel plugins that are ES modules, which Jest's module sandbox cannot.
/* global console, process */
import { Instrumenter } from '@stryker-mutator/instrumenter'

const quiet = () => undefined
const say = (message, ...args) => console.error(message, ...args)
// Stryker's logger, as the instrumenter uses it: only warnings and errors are shown, on stderr.
const logger = {
  trace: quiet,
  debug: quiet,
  info: quiet,
  warn: say,
  error: say,
  fatal: say,
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true
}

let input = ''
for await (const chunk of process.stdin) input += chunk
const { mutants } = await new Instrumenter(logger).instrument(JSON.parse(input), {
  plugins: null,
  excludedMutations: [],
  ignorers: []
})
process.stdout.write(JSON.stringify(mutants))
