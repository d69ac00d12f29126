// The key that authenticates the market's stored snapshot: derived from a
// secret of the service (the key store's) by HMAC-SHA256 over a fixed label, so
// the secret itself never signs a snapshot and a snapshot's key opens nothing
// else. A stored snapshot carries the HMAC-SHA256 of its chain id, the time it
// was saved and its document under this key; one that does not verify is not
// loaded. Pure.
import { createHmac, timingSafeEqual } from "node:crypto"

/** The label the snapshot key is derived under: changing it invalidates every stored snapshot. */
const SNAPSHOT_KEY_LABEL = "arc-dex-aggregator/market-snapshot/v1"

/** The snapshot key derived from `secret`: HMAC-SHA256(secret, label). */
export const snapshotKey = (secret: string): Uint8Array => new Uint8Array(createHmac("sha256", secret).update(SNAPSHOT_KEY_LABEL).digest())

/** The tag of one stored snapshot (hex): every byte of it, and the row it sits in, are covered. */
export const snapshotMac = (key: Uint8Array, chainId: number, savedAt: number, document: string): string =>
  createHmac("sha256", key).update(`${chainId}\n${savedAt}\n`).update(document).digest("hex")

const MAC = /^[0-9a-f]{64}$/

/** True when `mac` is the tag of this snapshot under `key`; compared in constant time. */
export const verifySnapshotMac = (key: Uint8Array, chainId: number, savedAt: number, document: string, mac: unknown): boolean => {
  if (typeof mac !== "string" || !MAC.test(mac)) return false
  return timingSafeEqual(Buffer.from(snapshotMac(key, chainId, savedAt, document), "hex"), Buffer.from(mac, "hex"))
}
