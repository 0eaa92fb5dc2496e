function isErrorLike(value: unknown): value is { message: string } {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string'
}

/** A message for anything thrown, `Error` or not. */
export function errorMessage(error: unknown): string {
  if (isErrorLike(error)) return error.message
  if (typeof error === 'string') return error
  try {
    // JSON.stringify gives undefined for undefined and functions, whatever its type says.
    const json = JSON.stringify(error) as unknown
    return typeof json === 'string' ? json : String(error)
  } catch {
    return String(error)
  }
}
