// AdminLive: the admin listener as a layer, present only when ADMIN_PORT is set,
// over the access side's key store and limits; released, it stops listening; a
// port it cannot have is an error naming ADMIN_PORT; off loopback it needs
// ADMIN_TOKEN, and with a token every request must bear it.
import { describe, expect, test } from "bun:test"
import { Cause, Context, Effect, Exit, Layer, Option, Scope } from "effect"
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

  test("ADMIN_HOST off loopback without ADMIN_TOKEN: the start is refused, naming ADMIN_TOKEN", async () => {
    const admin = await build({ ADMIN_PORT: "0", ADMIN_HOST: "0.0.0.0" })
    expect(Exit.isFailure(admin.exit)).toBe(true)
    const error = Exit.isFailure(admin.exit) ? Cause.squash(admin.exit.cause) : undefined
    expect((error as Error).message.split("\n")).toEqual([
      "invalid configuration:",
      'ADMIN_TOKEN: required when ADMIN_HOST is not loopback (got "0.0.0.0"): admin requests must then carry Authorization: Bearer <ADMIN_TOKEN>',
    ])
    await admin.close()
  })

  const TOKEN = "admin-7f3c9e1d2b4a6c8e0f1a3b5c7d9e1f2a"
  const statuses = async (url: string, headers: Record<string, string>) =>
    Promise.all(["/health", "/metrics", "/docs", "/openapi.json", "/elsewhere"].map((path) => fetch(`${url}${path}`, { headers }).then(async (r) => {
      await r.arrayBuffer()
      return r.status
    })))

  test("on 0.0.0.0 with ADMIN_TOKEN: every path answers 401 without the token or with a wrong one, and serves the right one", async () => {
    const admin = await build({ ADMIN_PORT: "0", ADMIN_HOST: "0.0.0.0", ADMIN_TOKEN: TOKEN })
    const { port } = Option.getOrThrow(listener(admin.exit))
    // a listener on every address; the test's requests stay on loopback
    const url = `http://127.0.0.1:${port}`
    try {
      const refused = [401, 401, 401, 401, 401]
      expect(await statuses(url, {})).toEqual(refused)
      expect(await statuses(url, { authorization: `Bearer ${TOKEN.slice(0, -1)}x` })).toEqual(refused)
      expect(await statuses(url, { authorization: `Bearer ${TOKEN}x` })).toEqual(refused)
      expect(await statuses(url, { authorization: `Basic ${btoa(`admin:${TOKEN}`)}` })).toEqual(refused)
      expect(await statuses(url, { authorization: TOKEN })).toEqual(refused)
      const denied = await fetch(`${url}/health`)
      expect(denied.headers.get("www-authenticate")).toBe('Bearer realm="admin"')
      expect(await denied.json()).toEqual({ error: "unauthorized: send Authorization: Bearer <ADMIN_TOKEN>" })
      expect(await statuses(url, { authorization: `Bearer ${TOKEN}` })).toEqual([200, 200, 200, 200, 404])
      expect(await statuses(url, { authorization: `bearer ${TOKEN}` })).toEqual([200, 200, 200, 200, 404])
    } finally {
      await admin.close()
    }
  })

  test("on loopback a token that is set is enforced too", async () => {
    const admin = await build({ ADMIN_PORT: "0", ADMIN_TOKEN: TOKEN })
    const { url } = Option.getOrThrow(listener(admin.exit))
    try {
      expect(await statuses(url, {})).toEqual([401, 401, 401, 401, 401])
      expect(await statuses(url, { authorization: `Bearer ${TOKEN}` })).toEqual([200, 200, 200, 200, 404])
    } finally {
      await admin.close()
    }
  })
})
