// The API service as `bun run serve` runs it, over any programs: logs in
// LOG_FORMAT, the API and (with ADMIN_PORT) the admin listener, until
// SIGINT/SIGTERM. Then a graceful stop: no new connections, requests in flight
// finish (up to SHUTDOWN_TIMEOUT_MS), their shared slots go back, and Redis,
// Postgres and the chain are let go.
import { Effect, Layer } from "effect"
import { lastingSecret } from "../access/index.ts"
import { ApiServer, ApiServerLive, type ApiServerShape } from "../api/index.ts"
import { AppConfig, ChainConfig } from "../config/index.ts"
import { LoggingLive } from "../ops/index.ts"
import { liveServices, type SwapPrograms } from "../swap/index.ts"
import { launch } from "./lifecycle.ts"

/**
 * The programs over live services, on the chain ChainConfig names; the market's snapshot signed
 * under the key store's secret (KEY_HASH_SECRET, or the file beside a SQLite key store); with a
 * relayer (RELAYER_PRIVATE_KEY), the gasless programs, their orders in the key store's database.
 */
export const LiveProgramsFromConfig = Layer.unwrapEffect(
  Effect.gen(function* () {
    const chain = yield* ChainConfig
    const { keyStore } = yield* AppConfig
    // a relayer keeps its orders in the key store's database
    if (chain.marketSnapshot === undefined) return liveServices(chain, undefined, keyStore.database)
    const secret = yield* Effect.try(() => lastingSecret(keyStore)).pipe(
      // the key store refuses to open as well, and says why
      Effect.catchAll((e) => Effect.as(Effect.logWarning(`MarketState: no secret to sign the market's snapshot with: ${e.error instanceof Error ? e.error.message : String(e.error)}`), undefined)),
    )
    return liveServices(chain, secret, keyStore.database)
  }),
)

/**
 * The API over the given programs, with its logs; `ready` runs once it listens.
 * Needs AppConfig (and whatever the programs and `ready` need).
 */
export const apiService = <E, R, E2, R2>(
  programs: Layer.Layer<SwapPrograms, E, R>,
  ready: (api: ApiServerShape) => Effect.Effect<void, E2, R2>,
) =>
  Layer.effectDiscard(Effect.flatMap(ApiServer, ready)).pipe(
    Layer.provide(ApiServerLive),
    Layer.provide(programs),
    // everything above logs through it: the programs' services as well as the edge
    Layer.provide(LoggingLive()),
  )

/** The API over the given programs, configured from the environment, until SIGINT/SIGTERM. */
export const runService = <E extends { readonly message?: string }>(
  programs: Layer.Layer<SwapPrograms, E>,
  onReady: (api: ApiServerShape) => void,
): void => launch(apiService(programs, (api) => Effect.sync(() => onReady(api))).pipe(Layer.provide(AppConfig.layer)))
