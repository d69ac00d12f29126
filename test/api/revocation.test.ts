// A key revoked on one instance is refused by every other instance sharing the
// key store within one second (each answers an accepted key from memory for at
// most KEY_RECHECK_MS after asking the store), and at once by the instance that
// revoked it.
import { describe, expect, test } from "bun:test"
import { join } from "node:path"
import { Effect } from "effect"
import { KEY_RECHECK_MS } from "../../src/access/index.ts"
import { startApiServer, syntheticPrograms } from "../../src/api/index.ts"
import { answer, expectError, post, quoteBody, startTestApi, type Answer } from "./support.ts"

describe("a revoked key, two instances on one key store", () => {
  test("revoked on one, the other refuses it within one second; the one that revoked it, at once", async () => {
    expect(KEY_RECHECK_MS).toBeLessThan(1_000)
    const a = await startTestApi()
    const b = await startApiServer({ programs: syntheticPrograms(), env: { PORT: "0", DATABASE_URL: join(a.dir, "keys.sqlite"), LOG_LEVEL: "error" } })
    try {
      const { key, id } = await a.newKey({ rpm: 100_000, concurrency: 4 })
      const onB = async (): Promise<Answer> =>
        answer(await fetch(`${b.baseUrl}/quote`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(quoteBody()) }))
      // both have accepted the key, so both hold it in memory
      expect((await onB()).status).toBe(200)
      expect((await post(a, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)

      await Effect.runPromise(a.keys.revoke(id))
      const revokedAt = performance.now()
      expectError(await post(a, "/api/v1/quote", quoteBody(), { "x-api-key": key }), 401, "UNAUTHORIZED", "API key revoked")
      let last = await onB()
      while (last.status === 200 && performance.now() - revokedAt < 3_000) {
        await Bun.sleep(10)
        last = await onB()
      }
      const refusedAfterMs = performance.now() - revokedAt
      expectError(last, 401, "UNAUTHORIZED", "API key revoked")
      expect(refusedAfterMs).toBeLessThan(1_000)
    } finally {
      await b.stop()
      await a.close()
    }
  })
})
