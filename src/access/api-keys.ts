// ApiKeys: the key store, over the SQL database DATABASE_URL names (SQLite
// embedded, or Postgres shared by many instances; see key-database.ts). Keys
// are stored only as an HMAC-SHA256 under a secret kept apart from the
// database, and compared in constant time. `verify` reads the database, so a key created or revoked by
// another process (`bun run keys`, another instance) counts on its next check; `verifyRecent`, the
// edge's check, answers a key the store accepted less than KEY_RECHECK_MS ago from memory, so a
// revocation anywhere applies on every instance within that time.
import { Context, Data, Effect, Layer, type Scope } from "effect"
import { createHmac, timingSafeEqual } from "node:crypto"
import type { KeyStoreConfig } from "../config/index.ts"
import { openKeyRows } from "./key-database.ts"
import { generateKey, hashKey, keyId } from "./key-format.ts"
import { KeyStoreError, type KeyRow, type KeyRows } from "./key-rows.ts"

export { KeyStoreError, type KeyRow, type KeyRows }

/** Requests per minute for a key created without --rpm (the spec's default). */
export const DEFAULT_RPM = 60
/** Requests in flight for a key created without --concurrency (the spec's limit). */
export const DEFAULT_CONCURRENCY = 2
/**
 * How long an accepted key is answered from memory by `verifyRecent`, counted from the moment the
 * store was asked: a revocation applies on every instance within this time (the spec's bound is one second).
 */
export const KEY_RECHECK_MS = 500
/** presented keys remembered at once by `verifyRecent` (the oldest are dropped past it) */
const RECENT_KEYS = 10_000

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
  /** where the keys live */
  readonly kind: "sqlite" | "memory" | "postgres"
  /** Issues a key; the returned `key` is the only time it exists in clear. */
  readonly create: (input: NewKeyInput) => Effect.Effect<{ readonly key: string; readonly record: KeyRecord }, KeyInputError | KeyStoreError>
  readonly list: Effect.Effect<ReadonlyArray<KeyRecord>, KeyStoreError>
  /** Revokes a key; revoking a revoked key changes nothing and answers the record. */
  readonly revoke: (id: string) => Effect.Effect<KeyRecord, KeyNotFound | KeyStoreError>
  /** The record of a valid, unrevoked key, as the store says now. */
  readonly verify: (presented: string) => Effect.Effect<KeyRecord, KeyRejected | KeyStoreError>
  /**
   * `verify`, answered from memory for a key the store accepted less than KEY_RECHECK_MS ago
   * (a refusal is never remembered; a revocation on this instance forgets at once): the
   * edge's check on every request.
   */
  readonly verifyRecent: (presented: string) => Effect.Effect<KeyRecord, KeyRejected | KeyStoreError>
  /** Succeeds when the store answers (health checks). */
  readonly ping: Effect.Effect<void, KeyStoreError>
  /**
   * A key for signing something else the API hands out (a quote id, say), derived from the
   * store's secret and the purpose: the same on every instance sharing the store, and never
   * the key hashes' own.
   */
  readonly derivedKey: (purpose: string) => Uint8Array
}

const toRecord = (row: KeyRow): KeyRecord => ({
  id: row.id,
  name: row.name,
  rpm: row.rpm,
  concurrency: row.concurrency,
  createdAt: new Date(row.createdAt),
  revokedAt: row.revokedAt === null ? null : new Date(row.revokedAt),
})

const checkInput = (input: NewKeyInput): Effect.Effect<{ name: string; rpm: number; concurrency: number }, KeyInputError> => {
  const name = input.name.trim()
  if (name === "" || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)) {
    return Effect.fail(new KeyInputError({ message: "name must be 1 to 200 printable characters" }))
  }
  const rpm = input.rpm ?? DEFAULT_RPM
  const concurrency = input.concurrency ?? DEFAULT_CONCURRENCY
  const problem = (v: number, what: string, max: number) =>
    Number.isInteger(v) && v >= 1 && v <= max ? undefined : `${what} must be an integer from 1 to ${max}, got ${v}`
  const message = problem(rpm, "rpm", 1_000_000_000) ?? problem(concurrency, "concurrency", 100_000)
  if (message !== undefined) return Effect.fail(new KeyInputError({ message }))
  return Effect.succeed({ name, rpm, concurrency })
}

/** The store's behaviour over any backend: input checks, hashing, constant-time verification. */
export const keyStoreOver = (rows: KeyRows): ApiKeysShape => {
  const { secret } = rows
  // compared against when no row matches, so a wrong id costs the same as a wrong secret
  const decoy = hashKey(secret, "no such key")

  const create: ApiKeysShape["create"] = (input) =>
    Effect.flatMap(checkInput(input), ({ name, rpm, concurrency }) => {
      const { id, key } = generateKey()
      const row: KeyRow = { id, name, hash: hashKey(secret, key), rpm, concurrency, createdAt: Date.now(), revokedAt: null }
      return Effect.as(rows.insert(row), { key, record: toRecord(row) })
    })

  const list: ApiKeysShape["list"] = Effect.map(rows.all, (all) => all.map(toRecord))

  const revoke: ApiKeysShape["revoke"] = (id) =>
    Effect.flatMap(rows.revoke(id, Date.now()), (row) => (row === undefined ? Effect.fail(new KeyNotFound({ id })) : Effect.succeed(toRecord(row))))

  const wrong = new KeyRejected({ reason: "wrong" })
  const revoked = new KeyRejected({ reason: "revoked" })
  const verify: ApiKeysShape["verify"] = (presented) =>
    Effect.suspend((): Effect.Effect<KeyRecord, KeyRejected | KeyStoreError> => {
      const id = keyId(presented)
      if (id === undefined) return Effect.fail(wrong)
      return Effect.flatMap(rows.byId(id), (row) => {
        const expected = row === undefined || row.hash.byteLength !== 32 ? decoy : row.hash
        const matches = timingSafeEqual(hashKey(secret, presented), expected) && row !== undefined
        if (!matches) return Effect.fail(wrong)
        if (row!.revokedAt !== null) return Effect.fail(revoked)
        return Effect.succeed(toRecord(row!))
      })
    })

  // Accepted keys by the presented string, each until KEY_RECHECK_MS after its read began (a
  // slow read shortens its life); a refusal is never kept. A Map in insertion order rather than
  // an Effect Cache: a hit here is one Map read, where Cache.get measured 1 to 5 µs, a large
  // share of the edge's whole cost; reads are not merged (a key's misses come once a
  // KEY_RECHECK_MS, and its in-flight limit bounds how many can overlap).
  const recent = new Map<string, { readonly record: KeyRecord; readonly until: number }>()
  const remember = (presented: string, record: KeyRecord, until: number) => {
    recent.delete(presented)
    if (recent.size >= RECENT_KEYS) recent.delete(recent.keys().next().value!)
    recent.set(presented, { record, until })
  }
  const verifyRecent: ApiKeysShape["verifyRecent"] = (presented) =>
    Effect.clockWith((clock) => {
      const askedAt = clock.unsafeCurrentTimeMillis()
      const hit = recent.get(presented)
      if (hit !== undefined && askedAt < hit.until) return Effect.succeed(hit.record)
      return Effect.tapBoth(verify(presented), {
        onFailure: () => Effect.sync(() => recent.delete(presented)),
        onSuccess: (record) => Effect.sync(() => remember(presented, record, askedAt + KEY_RECHECK_MS)),
      })
    })
  const revokeHere: ApiKeysShape["revoke"] = (id) => Effect.ensuring(revoke(id), Effect.sync(() => recent.clear()))

  const derivedKey = (purpose: string): Uint8Array => new Uint8Array(createHmac("sha256", secret).update(`derived key: ${purpose}`, "utf8").digest())

  return { kind: rows.kind, create, list, revoke: revokeHere, verify, verifyRecent, ping: rows.ping, derivedKey }
}

/** Opens (creating or migrating when needed) the store the configuration names; closes it when the scope closes. */
export const makeApiKeys = (config: KeyStoreConfig): Effect.Effect<ApiKeysShape, KeyStoreError, Scope.Scope> => Effect.map(openKeyRows(config), keyStoreOver)

export class ApiKeys extends Context.Tag("access/ApiKeys")<ApiKeys, ApiKeysShape>() {
  static readonly layer = (config: KeyStoreConfig): Layer.Layer<ApiKeys, KeyStoreError> => Layer.scoped(ApiKeys, makeApiKeys(config))
}
