// The key store on the machine's real PostgreSQL, in a schema of its own: the
// same behaviour as on SQLite (HMAC only, constant-time checks, revocation seen
// on the next check), migrations that instances starting together agree on, a
// secret that must match, and a database that is down or stuck answering within
// DATABASE_TIMEOUT_MS rather than hanging a request.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Option, Redacted, type Scope } from "effect"
import { createHmac } from "node:crypto"
import { KEY_RECHECK_MS, makeApiKeys, MIGRATIONS_TABLE, type ApiKeysShape } from "../../src/access/index.ts"
import type { KeyStoreConfig } from "../../src/config/index.ts"
import { expectError, post, quoteBody, startTestApi } from "../api/support.ts"
import { closedPort, freshSchema, TEST_KEY_HASH_SECRET } from "../support/services.ts"

let schema: Awaited<ReturnType<typeof freshSchema>>
beforeAll(async () => {
  schema = await freshSchema()
})
afterAll(async () => {
  await schema.drop()
})

const config = (over: { url?: string; secret?: string; timeoutMs?: number } = {}): KeyStoreConfig => ({
  database: { kind: "postgres", url: Redacted.make(over.url ?? schema.databaseUrl) },
  keyHashSecret: Option.some(Redacted.make(over.secret ?? TEST_KEY_HASH_SECRET)),
  timeoutMs: over.timeoutMs ?? 2_000,
})
const withStore = <A, E>(cfg: KeyStoreConfig, f: (keys: ApiKeysShape) => Effect.Effect<A, E, Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(makeApiKeys(cfg), f)))

describe("keys in Postgres", () => {
  test("two instances open a fresh schema at once: one migration, one store", async () => {
    await Effect.runPromise(Effect.scoped(
      Effect.gen(function* () {
        const [a, b, c] = yield* Effect.all([makeApiKeys(config()), makeApiKeys(config()), makeApiKeys(config())], { concurrency: "unbounded" })
        expect([a.kind, b.kind, c.kind]).toEqual(["postgres", "postgres", "postgres"])
        const { key, record } = yield* a.create({ name: "  shared  ", rpm: 600, concurrency: 4 })
        expect(record).toMatchObject({ name: "shared", rpm: 600, concurrency: 4, revokedAt: null })
        expect(yield* b.verify(key)).toEqual(record)
        expect(yield* c.verify(key)).toEqual(record)
      })))
    const migrations = await schema.admin.unsafe(`SELECT migration_id, name FROM ${schema.name}.${MIGRATIONS_TABLE}`)
    expect([...migrations]).toEqual([{ migration_id: 1, name: "api_keys" }])
  })

  test("the table holds only HMAC-SHA256(secret, key); defaults are the spec's", async () => {
    const { key, id } = await withStore(config(), (keys) => Effect.map(keys.create({ name: "n" }), (r) => ({ key: r.key, id: r.record.id })))
    const [row] = await schema.admin.unsafe(`SELECT * FROM ${schema.name}.api_keys WHERE id = $1`, [id])
    expect(Buffer.from(row.hash).toString("hex")).toBe(createHmac("sha256", TEST_KEY_HASH_SECRET).update(key).digest("hex"))
    expect(row).toMatchObject({ name: "n", rpm: 60, concurrency: 2, revoked_at: null })
    expect(JSON.stringify(row, (_, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(key.slice(21))
  })

  test("wrong, malformed, padded and revoked keys are refused; revocation is seen by another instance's next check", async () => {
    await withStore(config(), (a) =>
      Effect.gen(function* () {
        const b = yield* makeApiKeys(config())
        const { key, record } = yield* a.create({ name: "to revoke" })
        const wrongSecret = `${key.slice(0, 21)}${"A".repeat(43)}`
        for (const bad of [wrongSecret, ` ${key}`, `${key}\n`, "arc_0000000000000000_" + "B".repeat(43), "nonsense"]) {
          const r = yield* Effect.either(b.verify(bad))
          expect(Either.isLeft(r) && r.left._tag === "KeyRejected" && r.left.reason).toBe("wrong")
        }
        expect((yield* b.verify(key)).id).toBe(record.id)
        const revoked = yield* a.revoke(record.id)
        expect(revoked.revokedAt).toBeInstanceOf(Date)
        const r = yield* Effect.either(b.verify(key))
        expect(Either.isLeft(r) && r.left._tag === "KeyRejected" && r.left.reason).toBe("revoked")
        // revoking again changes nothing; an unknown id is an error
        expect((yield* b.revoke(record.id)).revokedAt).toEqual(revoked.revokedAt)
        const missing = yield* Effect.either(b.revoke("ffffffffffffffff"))
        expect(Either.isLeft(missing) && missing.left._tag).toBe("KeyNotFound")
        // listed oldest first, never with the key
        const listed = yield* b.list
        expect(listed.at(-1)).toEqual(revoked)
        expect(JSON.stringify(listed)).not.toContain(key)
      }))
  })

  test("another KEY_HASH_SECRET is refused at open, by name", async () => {
    const result = await Effect.runPromise(Effect.either(Effect.scoped(makeApiKeys(config({ secret: "another-secret-".repeat(3) })))))
    expect(Either.isLeft(result) && result.left.message).toBe("KEY_HASH_SECRET is not the secret the keys in this Postgres key store were stored with")
  })

  test("bad input names the problem", async () => {
    await withStore(config(), (keys) =>
      Effect.gen(function* () {
        const r = yield* Effect.either(keys.create({ name: "x", rpm: 0 }))
        expect(Either.isLeft(r) && r.left.message).toBe("rpm must be an integer from 1 to 1000000000, got 0")
      }))
  })
})

describe("Postgres down or stuck: an error within DATABASE_TIMEOUT_MS, never a hang", () => {
  test("nothing listening: the store does not open, and says why", async () => {
    const started = performance.now()
    const result = await Effect.runPromise(
      Effect.either(Effect.scoped(makeApiKeys(config({ url: `postgres://postgres@127.0.0.1:${closedPort()}/test`, timeoutMs: 500 })))),
    )
    expect(performance.now() - started).toBeLessThan(3_000)
    expect(Either.isLeft(result) && result.left._tag).toBe("KeyStoreError")
    expect(Either.isLeft(result) && result.left.message).toMatch(/^cannot open the key store: /)
  })

  test("a table locked by another session: the request is answered 503 UNAVAILABLE after DATABASE_TIMEOUT_MS", async () => {
    const api = await startTestApi({ env: { DATABASE_URL: schema.databaseUrl, KEY_HASH_SECRET: TEST_KEY_HASH_SECRET, DATABASE_TIMEOUT_MS: "300" } })
    try {
      const { key } = await api.newKey()
      expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
      // past the time the edge answers an accepted key from memory: the next check asks the store
      await Bun.sleep(KEY_RECHECK_MS + 50)
      let release!: () => void
      const released = new Promise<void>((resolve) => (release = resolve))
      let locked!: () => void
      const isLocked = new Promise<void>((resolve) => (locked = resolve))
      const holder = schema.admin.begin(async (tx) => {
        await tx.unsafe(`LOCK TABLE ${schema.name}.api_keys IN ACCESS EXCLUSIVE MODE`)
        locked()
        await released
      })
      await isLocked
      const started = performance.now()
      const answer = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
      const took = performance.now() - started
      release()
      await holder
      expectError(answer, 503, "UNAVAILABLE")
      expect(took).toBeGreaterThanOrEqual(290)
      expect(took).toBeLessThan(1_500)
      // and the store recovers with the database
      expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
    } finally {
      await api.close()
    }
  })
})
