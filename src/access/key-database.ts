// The database the keys live in, as DATABASE_URL names it: a SQLite file (its
// secret, unless KEY_HASH_SECRET is set, in a private file beside it), memory
// (keys live and die with the process), or Postgres (KEY_HASH_SECRET required,
// every instance and `bun run keys` sharing it). Opened, migrated and checked
// against the secret, each with the words a user has always seen for it.
import { Effect, Option, Redacted, type Scope } from "effect"
import { existsSync } from "node:fs"
import type { KeyStoreConfig } from "../config/index.ts"
import { openPostgres, openSqliteFile, openSqliteMemory } from "../database/index.ts"
import { ephemeralSecret, lastingSecret, secretFileFor } from "./hash-secret.ts"
import { KeyStoreError, storeError, type KeyRows } from "./key-rows.ts"
import { keyTable } from "./key-table.ts"

const DEFAULT_TIMEOUT_MS = 2_000

/** The rows in the database the configuration names: a SQLite file, memory, or Postgres. */
export const openKeyRows = (config: KeyStoreConfig): Effect.Effect<KeyRows, KeyStoreError, Scope.Scope> => {
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const { database } = config
  if (database.kind === "postgres") {
    const opening = "cannot open the key store"
    return Effect.gen(function* () {
      const secret = yield* Option.match(config.keyHashSecret, {
        onSome: (s) => Effect.succeed(Redacted.value(s)),
        onNone: () => Effect.fail(new KeyStoreError({ message: "KEY_HASH_SECRET is required with a postgres:// key store" })),
      })
      const db = yield* Effect.mapError(openPostgres(database.url, timeoutMs), storeError(opening))
      return yield* keyTable(db, {
        kind: "postgres",
        secret: Effect.succeed(secret),
        timeoutMs,
        opening,
        migrating: "cannot migrate the key store",
        wrongSecret: () => "KEY_HASH_SECRET is not the secret the keys in this Postgres key store were stored with",
      })
    })
  }
  const path = database.kind === "sqlite" ? database.path : ":memory:"
  const opening = `cannot open the key store${database.kind === "sqlite" ? ` ${path}` : ""}`
  // asked after the secret was read, which creates the file when missing
  const wrongSecret = () =>
    database.kind === "sqlite" && Option.isNone(config.keyHashSecret) && existsSync(secretFileFor(path))
      ? `the key hash secret in ${secretFileFor(path)} is not the one the keys in ${path} were stored with`
      : `KEY_HASH_SECRET is not the secret the keys in ${path} were stored with`
  return Effect.gen(function* () {
    const db = yield* Effect.mapError(database.kind === "sqlite" ? openSqliteFile(path) : openSqliteMemory, storeError(opening))
    return yield* keyTable(db, {
      kind: database.kind,
      secret: Effect.try({ try: () => Redacted.value(lastingSecret(config) ?? Redacted.make(ephemeralSecret())), catch: storeError(opening) }),
      timeoutMs,
      opening,
      migrating: opening,
      wrongSecret: () => `${opening}: ${wrongSecret()}`,
    })
  })
}
