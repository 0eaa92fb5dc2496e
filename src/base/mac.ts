/**
 * Keys derived from the API key, and the HMAC they sign with: what the action keeps where others
 * can write (a cache key, a comment) is sealed, and a copy made without the API key does not verify.
 */
import { createHmac, hkdfSync } from 'node:crypto'

/** A key for one purpose, derived (HKDF) from the API key, so neither it nor a hint of it is stored. */
export function derivedKey(apiKey: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', apiKey, '', purpose, 32))
}

/** HMAC-SHA256 of `text`, hex. */
export const mac = (key: Buffer, text: string): string => createHmac('sha256', key).update(text).digest('hex')
