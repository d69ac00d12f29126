// The HMAC secret behind stored key hashes: KEY_HASH_SECRET when set; otherwise
// 32 random bytes generated on first use and kept in `<database>.hash-secret`
// (mode 0600), so the server and `bun run keys` agree without configuration.
// A file found there that is not this user's own private regular file is refused.
// The market's snapshot key is derived from the same secret.
import { Option, Redacted } from "effect"
import { randomBytes } from "node:crypto"
import { linkSync, unlinkSync, writeFileSync } from "node:fs"
import type { KeyStoreConfig } from "../config/index.ts"
import { makePrivateFolderFor, readPrivateFile } from "../database/index.ts"

export const secretFileFor = (databasePath: string): string => `${databasePath}.hash-secret`

const MIN_LENGTH = 32

/**
 * Reads the secret beside the database, creating it when absent. The file appears
 * whole or not at all (written aside, then hard-linked into place), so two processes
 * starting together agree on one secret.
 */
export const readOrCreateSecretFile = (path: string): string => {
  makePrivateFolderFor(path)
  const aside = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`
  writeFileSync(aside, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 })
  try {
    linkSync(aside, path)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
  } finally {
    unlinkSync(aside)
  }
  const secret = readPrivateFile(path, "the key hash secret file").trim()
  if (secret.length < MIN_LENGTH) throw new Error(`the key hash secret in ${path} is shorter than ${MIN_LENGTH} characters`)
  return secret
}

/** A secret for a store that lives only in memory. */
export const ephemeralSecret = (): string => randomBytes(32).toString("hex")

/**
 * The key store's secret when it outlives the process: KEY_HASH_SECRET, or the file beside a
 * SQLite store (created when absent); undefined for a store in memory without KEY_HASH_SECRET.
 */
export const lastingSecret = (config: KeyStoreConfig): Redacted.Redacted<string> | undefined =>
  Option.match(config.keyHashSecret, {
    onSome: (secret) => secret,
    onNone: () => (config.database.kind === "sqlite" ? Redacted.make(readOrCreateSecretFile(secretFileFor(config.database.path))) : undefined),
  })
