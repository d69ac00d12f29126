// API key format: `arc_<id>_<secret>`. The id (16 hex digits) names the stored row
// and may be shown; the secret (32 random bytes, base64url) is never stored.
import { createHmac, randomBytes } from "node:crypto"

const KEY_PATTERN = /^arc_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/

export interface NewKey {
  readonly id: string
  /** the whole key, shown once */
  readonly key: string
}

export const generateKey = (): NewKey => {
  const id = randomBytes(8).toString("hex")
  const secret = randomBytes(32).toString("base64url")
  return { id, key: `arc_${id}_${secret}` }
}

/** The id of a well-formed key, or undefined. Any whitespace or other byte makes a key malformed. */
export const keyId = (presented: string): string | undefined => KEY_PATTERN.exec(presented)?.[1]

/** The stored form of a key: HMAC-SHA256 under the store's secret. */
export const hashKey = (secret: string, key: string): Buffer => createHmac("sha256", secret).update(key, "utf8").digest()
