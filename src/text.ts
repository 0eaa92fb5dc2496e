/** Untrusted text (prompts, anything the server says) passes through here before it is shown. */

/**
 * One line of at most `max` characters: control characters (newlines included) become spaces,
 * so the text can neither start a workflow command (`::…`) on a line of its own nor forge log
 * lines.
 */
export function inline(text: string, max = 300): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

/** Text as inert HTML: no tag, entity or markdown it holds is interpreted. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`\\|*_[\]()#!~]/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** Replaces every occurrence of each secret with `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  let result = text
  for (const secret of secrets) if (secret) result = result.split(secret).join('***')
  return result
}
