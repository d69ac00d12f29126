// bun run serve [--manifest FILE]
// The API alone, configured from the environment, and from a devnet manifest
// for what the environment does not set. Runs until SIGINT/SIGTERM.
import { BunRuntime } from "@effect/platform-bun"
import { Effect, Either, Layer } from "effect"
import { ApiServer, ApiServerLive } from "../api/index.ts"
import { AppConfig } from "../config.ts"
import { readManifest, type Manifest } from "../devnet/index.ts"
import { chainSettings } from "../swap/chain-settings.ts"
import { livePrograms } from "../swap/live.ts"
import { parseFlags } from "./args.ts"
import { exitWithParent } from "./lifecycle.ts"

const USAGE = "usage: bun run serve [--manifest FILE]"

const fail = (message: string): never => {
  console.error(`error: ${message}`)
  process.exit(message.startsWith("usage") ? 2 : 1)
}

let manifest: Manifest | undefined
try {
  const { values } = parseFlags(process.argv.slice(2), { manifest: { type: "string" } })
  if (values.manifest !== undefined) {
    try {
      manifest = readManifest(values.manifest)
    } catch (e) {
      fail(`cannot read the manifest ${values.manifest}: ${(e as Error).message}`)
    }
  }
} catch (e) {
  console.error(`error: ${(e as Error).message}\n${USAGE}`)
  process.exit(2)
}

const settings = Either.getOrElse(chainSettings(process.env, manifest), (message) => fail(message))

const announce = Layer.effectDiscard(
  Effect.flatMap(ApiServer, (api) => Effect.sync(() => console.log(`API ready at ${api.baseUrl} (executor ${settings.executor})`))),
)

exitWithParent()
BunRuntime.runMain(
  Layer.launch(announce.pipe(Layer.provide(ApiServerLive), Layer.provide(AppConfig.layer), Layer.provide(livePrograms(settings)))).pipe(
    Effect.catchAll((e) =>
      Effect.sync(() => {
        console.error(`error: ${"message" in e ? e.message : String(e)}`)
        process.exitCode = 1
      }),
    ),
  ),
  { disablePrettyLogger: true },
)
