// The admin listener as a layer: /metrics and /health on ADMIN_HOST:ADMIN_PORT,
// present only when ADMIN_PORT is set. /health checks the key store, the shared
// limit store when limits are shared, and the market when the service follows one.
import { Context, Effect, Layer, Option } from "effect"
import { ApiKeys, SharedLimitStore } from "../access/index.ts"
import { AppConfig } from "../config/index.ts"
import { MarketState } from "../market/index.ts"
import { serveAdmin, type AdminServeError, type AdminServer, type RelayerHealthShape } from "./admin.ts"

/** The relayer of gasless swaps as /health sees it; provided by the programs when the service has a relayer. */
export class RelayerHealth extends Context.Tag("ops/RelayerHealth")<RelayerHealth, RelayerHealthShape>() {}

/** The admin listener, when ADMIN_PORT is set. */
export class AdminListener extends Context.Tag("ops/AdminListener")<AdminListener, Option.Option<AdminServer>>() {}

/** Listens for the life of the layer when ADMIN_PORT is set; the market, when the context has one, is in /health and /metrics. */
export const AdminLive: Layer.Layer<AdminListener, AdminServeError, AppConfig | ApiKeys | SharedLimitStore> = Layer.scoped(
  AdminListener,
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (Option.isNone(config.admin)) return Option.none()
    const keys = yield* ApiKeys
    const limitStore = yield* SharedLimitStore
    const market = yield* Effect.serviceOption(MarketState)
    const relayer = yield* Effect.serviceOption(RelayerHealth)
    const admin = yield* serveAdmin(config.admin.value, {
      keys,
      limitStore,
      market,
      relayer,
      marketStaleAfterMs: config.marketStaleAfterMs,
      checkTimeoutMs: config.keyStore.timeoutMs,
    })
    return Option.some(admin)
  }),
)
