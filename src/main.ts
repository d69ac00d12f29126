// bun start: the embedded default. A devnet with the default scenario, the API
// over it, and a demo key; prints the base URL, the key and a curl line that
// works as printed. Ctrl-C or SIGTERM stops all of it, chain included.
// The demo key lives in a key store of its own beside the manifest (unless
// DATABASE_URL names one), never in the store `bun run serve` uses by default.
// A busy port (the API's or the chain's) stops the start with an error naming
// it, and nothing is left running.
import { BunRuntime } from "@effect/platform-bun"
import { Context, Data, Effect, Either, Layer } from "effect"
import { dirname, resolve } from "node:path"
import { ApiKeys } from "./access/index.ts"
import { ApiServer, ApiServerLive } from "./api/index.ts"
import { parsePort } from "./cli/args.ts"
import { exitWithParent } from "./cli/lifecycle.ts"
import { AppConfig, loadAppConfig } from "./config.ts"
import { portInUse, type PortInUseError } from "./devnet/anvil.ts"
import { DEFAULT_MANIFEST_PATH, Devnet, describeDevnet, writeManifest } from "./devnet/index.ts"
import { chainSettings } from "./swap/chain-settings.ts"
import { LoggingLive } from "./ops/index.ts"
import { liveServices } from "./swap/live.ts"

const manifestPath = process.env.MANIFEST_PATH ?? DEFAULT_MANIFEST_PATH
/** bun start's own key store: beside its manifest, unless DATABASE_URL names another */
const keyStore = process.env.DATABASE_URL ?? `sqlite:${resolve(dirname(manifestPath), "keys.sqlite")}`
const DEMO_KEY_NAME = "demo (bun start)"

/** A start that cannot go on; the message says what is wrong and what to change. */
class StartError extends Data.TaggedError("StartError")<{ readonly message: string }> {}

const busy = (e: PortInUseError, variable: string) => new StartError({ message: `${e.message} (${variable} to choose another)` })
const apiPortBusy = (host: string, port: number) => new StartError({ message: `port ${port} on ${host} is already in use (PORT to choose another)` })

const chainPort = (() => {
  try {
    return parsePort(process.env.DEVNET_PORT, "DEVNET_PORT", 8545)
  } catch (e) {
    console.error(`error: ${(e as Error).message}`)
    process.exit(1)
  }
})()

const program = Effect.gen(function* () {
  const config = yield* loadAppConfig({ ...process.env, DATABASE_URL: keyStore })
  // the API's port is checked before the devnet starts, so a busy one leaves nothing half-started
  if (config.port !== 0 && (yield* Effect.promise(() => portInUse(config.host, config.port)))) {
    return yield* apiPortBusy(config.host, config.port)
  }
  // from here on, a failure closes the scope: the API (when it started) and the devnet stop
  const devnet = Context.get(
    yield* Layer.build(Devnet.layer({ port: chainPort })).pipe(Effect.catchTag("PortInUseError", (e) => Effect.fail(busy(e, "DEVNET_PORT")))),
    Devnet,
  )
  // bun start serves its own devnet: the chain settings come from its manifest alone
  const settings = yield* Either.match(chainSettings({}, devnet.manifest), {
    onLeft: (message) => Effect.die(new Error(message)),
    onRight: Effect.succeed,
  })
  const context = yield* Layer.build(
    ApiServerLive.pipe(Layer.provide(liveServices(settings)), Layer.provide(LoggingLive()), Layer.provide(Layer.succeed(AppConfig, config))),
  ).pipe(
    // another process may have taken the API's port since it was checked
    Effect.catchTag("ServeError", (e) =>
      Effect.flatMap(Effect.promise(() => portInUse(config.host, config.port)), (taken) => Effect.fail(taken ? apiPortBusy(config.host, config.port) : e))),
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
  const store = config.keyStore.database
  console.log(
    [
      describeDevnet(devnet, manifestPath),
      `API ready at ${api.baseUrl}`,
      `API key: ${key}`,
      `  (demo key in ${store.kind === "sqlite" ? store.path : `the DATABASE_URL ${store.kind} store`}; the next bun start revokes it)`,
      `try: curl -s -X POST ${api.baseUrl}/quote -H 'x-api-key: ${key}' -H 'content-type: application/json' -d '${body}'`,
      "Ctrl-C stops everything.",
    ].join("\n"),
  )
  return yield* Effect.never
})

exitWithParent()
BunRuntime.runMain(
  Effect.scoped(program).pipe(
    Effect.catchAll((e) =>
      Effect.sync(() => {
        console.error(`error: ${"message" in e ? e.message : String(e)}`)
        process.exitCode = 1
      }),
    ),
  ),
  { disablePrettyLogger: true },
)
