// A client that goes away interrupts its request: the program stops and the key's
// in-flight slot, and the server's, come back at once, long before the program's time
// budget would have freed them.
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { syntheticPrograms } from "../../src/api/index.ts"
import { post, quoteBody, startTestApi } from "./support.ts"

describe("a client that goes away", () => {
  test("its request is interrupted and its slot given back within a second, with a 30 s budget", async () => {
    let interrupted = 0
    const api = await startTestApi({
      env: { QUOTE_TIMEOUT_MS: "30000" },
      programs: syntheticPrograms({ quote: () => Effect.onInterrupt(Effect.never, () => Effect.sync(() => interrupted++)) }),
    })
    try {
      const { key } = await api.newKey({ concurrency: 1 })
      const controller = new AbortController()
      const gone = fetch(api.url("/api/v1/quote"), {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify(quoteBody()),
        signal: controller.signal,
      }).catch(() => "aborted")
      // at the program, holding the key's only slot
      await Bun.sleep(200)
      expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(429)
      controller.abort()
      expect(await gone).toBe("aborted")
      const abortedAt = performance.now()
      while (interrupted === 0 && performance.now() - abortedAt < 3_000) await Bun.sleep(10)
      expect(interrupted).toBe(1)
      expect(performance.now() - abortedAt).toBeLessThan(1_000)
      // the slot is back: the next request reaches the program (and waits there, until it leaves too)
      const again = new AbortController()
      const next = await Promise.race([
        fetch(api.url("/api/v1/quote"), {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify(quoteBody()),
          signal: again.signal,
        }).then((r) => r.status, () => "aborted"),
        Bun.sleep(300).then(() => "reached the program"),
      ])
      again.abort()
      expect(next).toBe("reached the program")
      while (interrupted < 2 && performance.now() - abortedAt < 5_000) await Bun.sleep(10)
      expect(interrupted).toBe(2)
    } finally {
      await api.close()
    }
  })

  test("the server's in-flight slot comes back too (MAX_IN_FLIGHT=1)", async () => {
    let interrupted = 0
    const api = await startTestApi({
      env: { QUOTE_TIMEOUT_MS: "30000", MAX_IN_FLIGHT: "1" },
      programs: syntheticPrograms({ quote: () => Effect.onInterrupt(Effect.never, () => Effect.sync(() => interrupted++)) }),
    })
    try {
      const { key } = await api.newKey({ concurrency: 5 })
      const leaving = (controller: AbortController) =>
        fetch(api.url("/api/v1/quote"), {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key },
          body: JSON.stringify(quoteBody()),
          signal: controller.signal,
        }).then((r) => r.status, () => "aborted")
      const first = new AbortController()
      const gone = leaving(first)
      // at the program, holding the server's only slot
      await Bun.sleep(200)
      expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(503)
      first.abort()
      expect(await gone).toBe("aborted")
      const abortedAt = performance.now()
      while (interrupted === 0 && performance.now() - abortedAt < 3_000) await Bun.sleep(10)
      expect(interrupted).toBe(1)
      // the slot is back: the next request reaches the program
      const again = new AbortController()
      const next = await Promise.race([leaving(again), Bun.sleep(300).then(() => "reached the program")])
      again.abort()
      expect(next).toBe("reached the program")
      while (interrupted < 2 && performance.now() - abortedAt < 5_000) await Bun.sleep(10)
      expect(interrupted).toBe(2)
    } finally {
      await api.close()
    }
  })
})
