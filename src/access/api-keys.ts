// ApiKeys: the key store over SQLite (bun:sqlite). Keys are stored only as an
// HMAC-SHA256 under a secret kept apart from the database, and compared in
// constant time. Every check reads the database, so a key created or revoked by
// another process (`bun run keys`) counts on its next request.
import { Database, type Statement } from "bun:sqlite"
import { Context, Data, Effect, Layer, Option, Redacted, type Scope } from "effect"
import { timingSafeEqual } from "node:crypto"
import { existsSync, mkdirSync } from "node:fs"
import { dirname } from "node:path"
import type { KeyStoreConfig } from "../config.ts"
import { ephemeralSecret, readOrCreateSecretFile, secretFileFor } from "./hash-secret.ts"
import { generateKey, hashKey, keyId } from "./key-format.ts"

/** Requests per minute for a key created without --rpm (the spec's default). */
export const DEFAULT_RPM = 60
/** Requests in flight for a key created without --concurrency (the spec's limit). */
export const DEFAULT_CONCURRENCY = 2

export interface KeyRecord {
  readonly id: string
  readonly name: string
  /** requests per minute */
  readonly rpm: number
  /** requests in flight at once */
  readonly concurrency: number
  readonly createdAt: Date
  readonly revokedAt: Date | null
}

export interface NewKeyInput {
  readonly name: string
  readonly rpm?: number
  readonly concurrency?: number
}

/** The database cannot be opened or read, or its secret does not match. */
export class KeyStoreError extends Data.TaggedError("KeyStoreError")<{ readonly message: string }> {}
/** A create/revoke argument that cannot be stored. */
export class KeyInputError extends Data.TaggedError("KeyInputError")<{ readonly message: string }> {}
export class KeyNotFound extends Data.TaggedError("KeyNotFound")<{ readonly id: string }> {
  override get message() {
    return `no key with id ${this.id}`
  }
}
/** A presented key that does not open the door: unknown or malformed ("wrong"), or revoked. */
export class KeyRejected extends Data.TaggedError("KeyRejected")<{ readonly reason: "wrong" | "revoked" }> {}

export interface ApiKeysShape {
  /** Issues a key; the returned `key` is the only time it exists in clear. */
  readonly create: (input: NewKeyInput) => Effect.Effect<{ readonly key: string; readonly record: KeyRecord }, KeyInputError | KeyStoreError>
  readonly list: Effect.Effect<ReadonlyArray<KeyRecord>, KeyStoreError>
  /** Revokes a key; revoking a revoked key changes nothing and answers the record. */
  readonly revoke: (id: string) => Effect.Effect<KeyRecord, KeyNotFound | KeyStoreError>
  /** The record of a valid, unrevoked key. */
  readonly verify: (presented: string) => Effect.Effect<KeyRecord, KeyRejected | KeyStoreError>
}

interface Row {
  id: string
  name: string
  hash: Uint8Array
  rpm: number
  concurrency: number
  created_at: number
  revoked_at: number | null
}

const toRecord = (row: Row): KeyRecord => ({
  id: row.id,
  name: row.name,
  rpm: row.rpm,
  concurrency: row.concurrency,
  createdAt: new Date(row.created_at),
  revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
})

const SCHEMA = `
CREATE TABLE IF NOT EXISTS api_keys (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  hash        BLOB NOT NULL,
  rpm         INTEGER NOT NULL,
  concurrency INTEGER NOT NULL,
  created_at  INTEGER NOT NULL,
  revoked_at  INTEGER
);
CREATE TABLE IF NOT EXISTS key_store_meta (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
);`

const SECRET_CHECK = "secret_check"

const positiveInteger = (value: number | undefined, fallback: number, what: string, max: number) => {
  const v = value ?? fallback
  if (!Number.isInteger(v) || v < 1 || v > max) throw new KeyInputError({ message: `${what} must be an integer from 1 to ${max}, got ${v}` })
  return v
}

const storeError = (what: string) => (e: unknown) =>
  new KeyStoreError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })

/** Opens (creating when needed) the store; closes it when the scope closes. */
export const makeApiKeys = (config: KeyStoreConfig): Effect.Effect<ApiKeysShape, KeyStoreError, Scope.Scope> =>
  Effect.gen(function* () {
    const { db, secret } = yield* Effect.acquireRelease(
      Effect.try({
        try: () => {
          let path = ":memory:"
          let secret: string
          if (config.database.kind === "sqlite") {
            path = config.database.path
            mkdirSync(dirname(path), { recursive: true })
          }
          const db = new Database(path, { create: true, strict: true })
          try {
            db.exec("PRAGMA busy_timeout = 5000")
            if (config.database.kind === "sqlite") db.exec("PRAGMA journal_mode = WAL")
            db.exec(SCHEMA)
            secret = Option.match(config.keyHashSecret, {
              onSome: Redacted.value,
              onNone: () => (config.database.kind === "sqlite" ? readOrCreateSecretFile(secretFileFor(path)) : ephemeralSecret()),
            })
            // a store created under one secret refuses another: every key would fail otherwise
            const check = hashKey(secret, "key store secret check").toString("hex")
            db.run("INSERT OR IGNORE INTO key_store_meta (name, value) VALUES (?, ?)", [SECRET_CHECK, check])
            const stored = db.query<{ value: string }, [string]>("SELECT value FROM key_store_meta WHERE name = ?").get(SECRET_CHECK)
            if (stored?.value !== check) {
              throw new Error(
                config.database.kind === "sqlite" && Option.isNone(config.keyHashSecret) && existsSync(secretFileFor(path))
                  ? `the key hash secret in ${secretFileFor(path)} is not the one the keys in ${path} were stored with`
                  : `KEY_HASH_SECRET is not the secret the keys in ${path} were stored with`,
              )
            }
          } catch (e) {
            db.close()
            throw e
          }
          return { db, secret }
        },
        catch: storeError(`cannot open the key store${config.database.kind === "sqlite" ? ` ${config.database.path}` : ""}`),
      }),
      ({ db }) => Effect.sync(() => db.close()),
    )

    const byId: Statement<Row, [string]> = db.query("SELECT id, name, hash, rpm, concurrency, created_at, revoked_at FROM api_keys WHERE id = ?")
    const all: Statement<Row, []> = db.query("SELECT id, name, hash, rpm, concurrency, created_at, revoked_at FROM api_keys ORDER BY rowid")
    const insert = db.query<unknown, [string, string, Uint8Array, number, number, number]>(
      "INSERT INTO api_keys (id, name, hash, rpm, concurrency, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, NULL)",
    )
    const revokeRow = db.query<unknown, [number, string]>("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
    // compared against when no row matches, so a wrong id costs the same as a wrong secret
    const decoy = hashKey(secret, "no such key")

    const create: ApiKeysShape["create"] = (input) =>
      Effect.try({
        try: () => {
          const name = input.name.trim()
          if (name === "" || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)) {
            throw new KeyInputError({ message: "name must be 1 to 200 printable characters" })
          }
          const rpm = positiveInteger(input.rpm, DEFAULT_RPM, "rpm", 1_000_000_000)
          const concurrency = positiveInteger(input.concurrency, DEFAULT_CONCURRENCY, "concurrency", 100_000)
          const { id, key } = generateKey()
          const createdAt = Date.now()
          insert.run(id, name, hashKey(secret, key), rpm, concurrency, createdAt)
          return { key, record: { id, name, rpm, concurrency, createdAt: new Date(createdAt), revokedAt: null } }
        },
        catch: (e) => (e instanceof KeyInputError ? e : storeError("cannot store the key")(e)),
      })

    const list: ApiKeysShape["list"] = Effect.try({
      try: () => all.all().map(toRecord),
      catch: storeError("cannot list keys"),
    })

    const revoke: ApiKeysShape["revoke"] = (id) =>
      Effect.try({
        try: () => {
          revokeRow.run(Date.now(), id)
          const row = byId.get(id)
          return row === null ? undefined : toRecord(row)
        },
        catch: storeError("cannot revoke the key"),
      }).pipe(Effect.flatMap((record) => (record === undefined ? Effect.fail(new KeyNotFound({ id })) : Effect.succeed(record))))

    const wrong = new KeyRejected({ reason: "wrong" })
    const revoked = new KeyRejected({ reason: "revoked" })
    const verify: ApiKeysShape["verify"] = (presented) =>
      Effect.suspend((): Effect.Effect<KeyRecord, KeyRejected | KeyStoreError> => {
        const id = keyId(presented)
        if (id === undefined) return Effect.fail(wrong)
        let row: Row | null
        try {
          row = byId.get(id)
        } catch (e) {
          return Effect.fail(storeError("cannot read the key store")(e))
        }
        const expected = row === null || row.hash.byteLength !== 32 ? decoy : row.hash
        const matches = timingSafeEqual(hashKey(secret, presented), expected) && row !== null
        if (!matches) return Effect.fail(wrong)
        if (row!.revoked_at !== null) return Effect.fail(revoked)
        return Effect.succeed(toRecord(row!))
      })

    return { create, list, revoke, verify }
  })

export class ApiKeys extends Context.Tag("access/ApiKeys")<ApiKeys, ApiKeysShape>() {
  static readonly layer = (config: KeyStoreConfig): Layer.Layer<ApiKeys, KeyStoreError> => Layer.scoped(ApiKeys, makeApiKeys(config))
}
