/**
 * GitHub's runner evaluates every `${{ … }}` before the step starts, action.yml's defaults included;
 * GitHub's local runner (@github/local-action) passes those defaults as written, so `github-token`
 * arrives as the text `${{ github.token }}`. An input that is nothing but such an expression is read
 * as empty (its default where action.yml has a plain one), and one notice names them.
 */
const EXPRESSION = /^\$\{\{[\s\S]*\}\}$/

export interface EvaluatedInputs {
  /** The input, or '' when it is an unevaluated expression. */
  get(name: string): string
  /** The notice naming the inputs read so far that were unevaluated expressions; undefined when none was. */
  notice(): string | undefined
}

export function evaluatedInputs(input: (name: string) => string): EvaluatedInputs {
  const unevaluated = new Set<string>()
  return {
    get(name) {
      const value = input(name)
      if (!EXPRESSION.test(value)) return value
      unevaluated.add(name)
      return ''
    },
    notice() {
      const names = [...unevaluated].map((name) => `'${name}'`)
      if (names.length === 0) return undefined
      const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}` : names.join('')
      return (
        `${names.length > 1 ? 'Inputs' : 'Input'} ${list} ${names.length > 1 ? 'are unevaluated expressions' : 'is an unevaluated expression'} (\${{ … }}), read as empty: ` +
        "only GitHub's runner evaluates expressions, and GitHub's local runner passes action.yml's defaults as written."
      )
    }
  }
}
