import { createHash } from 'node:crypto'

/**
 * A short digest that tells whether two texts are the same without keeping either: 64 bits of
 * SHA-256, 16 hex digits. Nothing secret rests on it (a re-run record is authenticated apart).
 */
export function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}
