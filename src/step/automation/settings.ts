/**
 * The `automation` input: the ID of a Mintlify automation to trigger instead of a job to create. Its
 * prompt and context repositories are stored in Mintlify and the trigger takes no body, so the
 * inputs that make or name a request are errors with it, before any request.
 */

/** Until the trigger reads the changed files, a path rule has nothing to judge. */
const NO_FILES =
  "the trigger reads no changed files, so a path rule has nothing to judge: filter on the workflow's own on.<event>.paths, or use skip-labels and [skip docs] markers, which apply"

/** Inputs that cannot go with `automation`, and why. */
const NOT_WITH_AUTOMATION: readonly (readonly [string, string])[] = [
  ['prompt', "the automation's prompt is stored in Mintlify, and its trigger takes no body"],
  ['prompt-file', "the automation's prompt is stored in Mintlify, and its trigger takes no body"],
  ['job-id', 'a trigger queues a run of its own; to wait for or follow up on a job, leave automation out'],
  ['group', "an automation groups its runs' pull requests by its own settings in Mintlify"],
  ['release-tags', 'the trigger takes no context: the run picks up what changed since its last completed run'],
  ['paths', NO_FILES],
  ['paths-ignore', NO_FILES]
]

const AUTOMATION_FORM =
  "the automation's ID from its settings panel on the dashboard's Automations page (one word, at most 200 characters)"

/** The automation to trigger, or undefined when the input is empty; `fail` throws the input error. */
export function parseAutomation(
  get: (name: string) => string,
  fail: (input: string, message: string) => never
): string | undefined {
  const automation = get('automation')
  if (!automation) return undefined
  if (/\s/.test(automation) || automation.length > 200) {
    fail('automation', `"${automation.slice(0, 200)}" is not an automation ID: expected ${AUTOMATION_FORM}.`)
  }
  for (const [input, why] of NOT_WITH_AUTOMATION) {
    if (get(input)) fail(input, `not with 'automation': ${why}.`)
  }
  return automation
}
