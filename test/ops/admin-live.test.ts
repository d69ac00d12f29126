// AdminLive: the admin listener as a layer, present only when ADMIN_PORT is set,
// over the access side's key store and limits; released, it stops listening; a
// port it cannot have is an error naming ADMIN_PORT.
import { describe, expect, test } from "bun:test"
import { Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { AccessLive } from "../../src/access/index.ts"
import { AppConfig } from "../../src/config/index.ts"
import { AdminListener, AdminLive } from "../../src/ops/index.ts"

const build = async (env: Record<string, string>) => {
  const scope = Effect.runSync(Scope.make())
  const config = AppConfig.layerFrom({ DATABASE_URL: ":memory:", ...env })
  const exit = await Effect.runPromiseExit(Layer.buildWithScope(AdminLive.pipe(Layer.provide(AccessLive), Layer.provide(config)), scope))
  return { exit, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const listener = (exit: Exit.Exit<Context.Context<AdminListener>, unknown>) => Context.get(Exit.getOrElse(exit, () => { throw new Error("not built") }), AdminListener)

describe("AdminLive", () => {
  test("without ADMIN_PORT: no listener", async () => {
    const admin = await build({})
    expect(Option.isNone(listener(admin.exit))).toBe(true)
    await admin.close()
  })

  test("with ADMIN_PORT: /health and /metrics until released", async () => {
    const admin = await build({ ADMIN_PORT: "0" })
    const { url, port } = Option.getOrThrow(listener(admin.exit))
    expect(url).toBe(`http://127.0.0.1:${port}`)
    const health = await fetch(`${url}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: "ok", checks: { keyStore: { ok: true, kind: "memory" }, limits: { ok: true, store: "memory" } } })
    expect((await fetch(`${url}/metrics`)).status).toBe(200)
    await admin.close()
    expect(await fetch(`${url}/health`).then(() => "answered", () => "refused")).toBe("refused")
  })

  test("a port it cannot have is named", async () => {
    const held = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } })
    try {
      const layer = AdminLive.pipe(Layer.provide(AccessLive), Layer.provide(AppConfig.layerFrom({ DATABASE_URL: ":memory:", ADMIN_PORT: String(held.port) })))
      const error = await Effect.runPromise(Effect.flip(Effect.scoped(Layer.build(layer))))
      expect(error._tag).toBe("AdminServeError")
      expect(error.message).toStartWith(`cannot listen on 127.0.0.1:${held.port} (ADMIN_PORT)`)
    } finally {
      held.stop(true)
    }
  })
})
