// The API service as `bun run serve` runs it, over any programs: configuration
// from the environment, logs in LOG_FORMAT, the API and (with ADMIN_PORT) the
// admin listener, until SIGINT/SIGTERM. Then a graceful stop: no new
// connections, requests in flight finish (up to SHUTDOWN_TIMEOUT_MS), their
// shared slots go back, and Redis, Postgres and the chain are let go.
import { BunRuntime } from "@effect/platform-bun"
import { Effect, Layer } from "effect"
import { ApiServer, ApiServerLive, type ApiServerShape, type SwapPrograms } from "../api/index.ts"
import { AppConfig } from "../config.ts"
import { LoggingLive } from "../ops/index.ts"

export const runService = <E extends { readonly message?: string }>(
  programs: Layer.Layer<SwapPrograms, E>,
  onReady: (api: ApiServerShape) => void,
): void => {
  const ready = Layer.effectDiscard(Effect.flatMap(ApiServer, (api) => Effect.sync(() => onReady(api))))
  BunRuntime.runMain(
    Layer.launch(
      ready.pipe(
        Layer.provide(ApiServerLive),
        Layer.provide(programs),
        // everything above logs through it: the programs' services as well as the edge
        Layer.provide(LoggingLive()),
        Layer.provide(AppConfig.layer),
      ),
    ).pipe(
      Effect.catchAll((e) =>
        Effect.sync(() => {
          console.error(`error: ${e.message ?? String(e)}`)
          process.exitCode = 1
        }),
      ),
    ),
    { disablePrettyLogger: true },
  )
}
