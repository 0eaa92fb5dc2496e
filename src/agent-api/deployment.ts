/** A preview deployment as the Agent API answers about it: the deployment asked for, and its status. */

/** A `POST /v1/project/preview/{projectId}` answer: the deployment to follow, and where it will be. */
export interface PreviewRequested {
  statusId: string
  /** An https URL (anything else is not a usable answer). */
  previewUrl: string
}

/** A `GET /v1/project/update-status/{statusId}` answer: `queued`, `in_progress`, `success` or `failure`. */
export interface PreviewStatus {
  /** Kept as sent; anything but `success` and `failure` is read as still building. */
  status: string
  /** The service's words on the deployment (untrusted text). */
  summary?: string
}

export function parsePreviewRequested(json: unknown): PreviewRequested | undefined {
  if (!isRecord(json)) return undefined
  const { statusId, previewUrl } = json
  if (typeof statusId !== 'string' || statusId === '' || typeof previewUrl !== 'string') return undefined
  return isHttpsUrl(previewUrl) ? { statusId, previewUrl } : undefined
}

export function parsePreviewStatus(json: unknown): PreviewStatus | undefined {
  if (!isRecord(json) || typeof json.status !== 'string') return undefined
  return typeof json.summary === 'string' ? { status: json.status, summary: json.summary } : { status: json.status }
}

function isHttpsUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'https:'
  } catch {
    return false
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
