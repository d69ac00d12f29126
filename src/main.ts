// bun start: the embedded default. A devnet with the default scenario, the API
// over it, and a demo key; prints the base URL, the key and a curl line that
// works as printed. Ctrl-C or SIGTERM stops all of it, chain included.
import { BunRuntime } from "@effect/platform-bun"
import { Context, Effect, Either, Layer } from "effect"
import { ApiKeys } from "./access/index.ts"
import { ApiServer, ApiServerLive } from "./api/index.ts"
import { exitWithParent } from "./cli/lifecycle.ts"
import { AppConfig } from "./config.ts"
import { DEFAULT_MANIFEST_PATH, Devnet, describeDevnet, writeManifest } from "./devnet/index.ts"
import { chainSettings } from "./swap/chain-settings.ts"
import { LoggingLive } from "./ops/index.ts"
import { liveServices } from "./swap/live.ts"

const manifestPath = process.env.MANIFEST_PATH ?? DEFAULT_MANIFEST_PATH
const DEMO_KEY_NAME = "demo (bun start)"

const program = Effect.gen(function* () {
  const devnet = yield* Devnet
  // bun start serves its own devnet: the chain settings come from its manifest alone
  const settings = yield* Either.match(chainSettings({}, devnet.manifest), {
    onLeft: (message) => Effect.die(new Error(message)),
    onRight: Effect.succeed,
  })
  const context = yield* Layer.build(
    ApiServerLive.pipe(Layer.provide(liveServices(settings)), Layer.provide(LoggingLive()), Layer.provide(AppConfig.layer)),
  )
  const api = Context.get(context, ApiServer)
  const keys = Context.get(context, ApiKeys)

  // one demo key at a time: the previous run's is revoked (keys are stored only as hashes)
  for (const record of yield* keys.list) {
    if (record.name === DEMO_KEY_NAME && record.revokedAt === null) yield* keys.revoke(record.id)
  }
  const { key } = yield* keys.create({ name: DEMO_KEY_NAME })

  const manifest = { ...devnet.manifest, api: { baseUrl: api.baseUrl, apiKey: key } }
  writeManifest(manifestPath, manifest)
  const body = JSON.stringify({ tokenIn: manifest.tokens.USDC!.address, tokenOut: manifest.tokens.EURC?.address ?? manifest.tokens.USDC!.native, amountIn: "1000000000" })
  console.log(
    [
      describeDevnet(devnet, manifestPath),
      `API ready at ${api.baseUrl}`,
      `API key: ${key}`,
      `try: curl -s -X POST ${api.baseUrl}/quote -H 'x-api-key: ${key}' -H 'content-type: application/json' -d '${body}'`,
      "Ctrl-C stops everything.",
    ].join("\n"),
  )
  return yield* Effect.never
})

exitWithParent()
BunRuntime.runMain(
  Effect.scoped(program).pipe(
    Effect.provide(Devnet.layer({ port: 8545 })),
    Effect.catchAll((e) =>
      Effect.sync(() => {
        console.error(`error: ${"message" in e ? e.message : String(e)}`)
        process.exitCode = 1
      }),
    ),
  ),
  { disablePrettyLogger: true },
)
