// AccessLive: the key store and the limits AppConfig names, as one layer. In
// process without REDIS_URL; shared through the machine's real Redis with it,
// the slots still held given back and the key store closed when it is released.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Option, Scope } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { AccessLive, ApiKeys, BadKeyLimits, InFlight, RateLimits, SharedLimitStore } from "../../src/access/index.ts"
import { AppConfig } from "../../src/config/index.ts"
import { freshPrefix, REDIS_URL } from "../support/services.ts"

let redis: Awaited<ReturnType<typeof freshPrefix>>
let dir: string
beforeAll(async () => {
  redis = await freshPrefix()
  dir = mkdtempSync(join(tmpdir(), "access-live-"))
})
afterAll(async () => {
  await redis.cleanup()
  rmSync(dir, { recursive: true, force: true })
})

/** AccessLive over the given variables, built until `close`. */
const build = async (env: Record<string, string>) => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(AccessLive.pipe(Layer.provide(AppConfig.layerFrom(env))), scope))
  return {
    context,
    run: <A, E>(effect: Effect.Effect<A, E, ApiKeys | RateLimits | BadKeyLimits | InFlight | SharedLimitStore>) => Effect.runPromise(Effect.provide(effect, context)),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}

describe("AccessLive", () => {
  test("without REDIS_URL: the limits in process, no shared store", async () => {
    const access = await build({ DATABASE_URL: ":memory:" })
    try {
      expect(Option.isNone(Context.get(access.context, SharedLimitStore))).toBe(true)
      expect(Context.get(access.context, ApiKeys).kind).toBe("memory")
      const decisions = await access.run(Effect.flatMap(RateLimits, (rates) => Effect.all([rates.take("k", 2), rates.take("k", 2), rates.take("k", 2)])))
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, false])
      expect(await access.run(Effect.flatMap(BadKeyLimits, (limits) => limits.size))).toBe(0)
      // nothing of it reached Redis
      expect(await redis.client.send("EXISTS", [`${redis.prefix}rate:k`])).toBe(0)
    } finally {
      await access.close()
    }
  })

  test("with REDIS_URL: the limits shared through Redis; released, the slots held go back and the key store closes", async () => {
    const access = await build({ DATABASE_URL: join(dir, "keys.sqlite"), REDIS_URL, REDIS_PREFIX: redis.prefix })
    const store = Context.get(access.context, SharedLimitStore)
    expect(Option.map(store, (s) => s.config.prefix)).toEqual(Option.some(redis.prefix))
    const keys = Context.get(access.context, ApiKeys)
    expect(keys.kind).toBe("sqlite")

    const decision = await access.run(Effect.flatMap(RateLimits, (rates) => rates.take("shared", 5)))
    // a fresh bucket of 5 a minute less one token: full again in 1 / (5 / 60) = 12 s
    expect(decision).toEqual({ allowed: true, limit: 5, remaining: 4, retryAfterSeconds: 0, resetSeconds: 12 })
    expect(await redis.client.send("HEXISTS", [`${redis.prefix}rate:shared`, "tokens"])).toBe(1)
    await access.run(Effect.flatMap(BadKeyLimits, (limits) => limits.take("10.0.0.1", 5)))
    expect(await redis.client.send("EXISTS", [`${redis.prefix}badkey:10.0.0.1`])).toBe(1)

    // a request holding a slot when the layer is released
    const held = Effect.runSync(Deferred.make<void>())
    const request = Effect.runFork(
      Effect.provide(Effect.flatMap(InFlight, (inFlight) => inFlight.withSlot("shared", 2, Effect.zipRight(Deferred.succeed(held, undefined), Effect.never))), access.context),
    )
    await Effect.runPromise(Deferred.await(held))
    expect(Number(await redis.client.send("ZCARD", [`${redis.prefix}inflight:shared`]))).toBe(1)

    await access.close()
    expect(Number(await redis.client.send("ZCARD", [`${redis.prefix}inflight:shared`]))).toBe(0)
    expect((await Effect.runPromise(Effect.either(keys.list)))._tag).toBe("Left")
    await Effect.runPromise(Fiber.interrupt(request))
  })

  test("a key store that cannot be opened fails the layer, naming it", async () => {
    const error = await Effect.runPromise(Effect.flip(Layer.build(AccessLive.pipe(Layer.provide(AppConfig.layerFrom({ DATABASE_URL: dir })))).pipe(Effect.scoped)))
    expect(error.message).toContain(`cannot open the key store ${dir}`)
  })
})
