/** Text, with code set apart (job ids, inputs), so the summary can format it without parsing. */
export type Part = string | { code: string }
