// bun start: the embedded default. A devnet with the default scenario, the API
// over it, and a demo key; prints the base URL, the key and a curl line that
// works as printed. Gasless swaps are on, sent from the devnet's relayer
// account (the mnemonic's account 10, funded at start; the manifest's relayer).
// Ctrl-C or SIGTERM stops all of it, chain included.
// The demo key lives in a key store of its own beside the manifest (unless
// DATABASE_URL names one), never in the store `bun run serve` uses by default.
// A busy port (the API's or the chain's) stops the start with an error naming
// it, and nothing is left running.
import { Effect, Layer, Option } from "effect"
import { dirname, resolve } from "node:path"
import { ApiKeys } from "./access/index.ts"
import { apiService, exitWithParent, LiveProgramsFromConfig, parsePort, runCommand, StartError } from "./cli/index.ts"
import { AppConfig, ChainConfig, withManifest } from "./config/index.ts"
import { devnetRelayer, fundDevnetRelayer, portInUse } from "./devnet/index.ts"
import { GaslessPrograms } from "./swap/index.ts"
import { DEFAULT_MANIFEST_PATH, Devnet, describeDevnet, writeManifest } from "./devnet/index.ts"

const manifestPath = process.env.MANIFEST_PATH ?? DEFAULT_MANIFEST_PATH
/** bun start's own key store: beside its manifest, unless DATABASE_URL names another */
const keyStore = process.env.DATABASE_URL ?? `sqlite:${resolve(dirname(manifestPath), "keys.sqlite")}`
const DEMO_KEY_NAME = "demo (bun start)"

const apiPortBusy = (host: string, port: number) => new StartError({ message: `port ${port} on ${host} is already in use (PORT to choose another)` })

const chainPort = (() => {
  try {
    return parsePort(process.env.DEVNET_PORT, "DEVNET_PORT", 8545)
  } catch (e) {
    console.error(`error: ${(e as Error).message}`)
    process.exit(1)
  }
})()

/** The API's port, checked before the devnet starts, so a busy one leaves nothing half-started. */
const ApiPortFree = Layer.effectDiscard(
  Effect.gen(function* () {
    const config = yield* AppConfig
    if (config.port !== 0 && (yield* Effect.promise(() => portInUse(config.host, config.port)))) {
      return yield* apiPortBusy(config.host, config.port)
    }
  }),
)

const DevnetLive = Devnet.layer({ port: chainPort }).pipe(
  Layer.mapError((e) => (e._tag === "PortInUseError" ? new StartError({ message: `${e.message} (DEVNET_PORT to choose another)` }) : e)),
)

/**
 * bun start serves its own devnet: the chain settings come from its manifest, and gasless swaps are
 * sent from the devnet's relayer account (funded here), unless RELAYER_PRIVATE_KEY names another.
 */
const ChainFromDevnet = Layer.unwrapEffect(
  Effect.gen(function* () {
    const devnet = yield* Devnet
    const ownKey = process.env.RELAYER_PRIVATE_KEY
    if (ownKey === undefined || ownKey.trim() === "") yield* Effect.promise(() => fundDevnetRelayer(devnet.manifest))
    const relayer = {
      RELAYER_PRIVATE_KEY: ownKey === undefined || ownKey.trim() === "" ? devnetRelayer.privateKey : ownKey,
      RELAYER_FEE_MARGIN_BPS: process.env.RELAYER_FEE_MARGIN_BPS,
    }
    return ChainConfig.layerFrom(withManifest(relayer, devnet.manifest))
  }),
)

/** One demo key at a time (the previous run's is revoked: keys are stored only as hashes), the manifest, the greeting. */
const demo = (api: { readonly baseUrl: string }) =>
  Effect.gen(function* () {
    const devnet = yield* Devnet
    const keys = yield* ApiKeys
    const config = yield* AppConfig
    for (const record of yield* keys.list) {
      if (record.name === DEMO_KEY_NAME && record.revokedAt === null) yield* keys.revoke(record.id)
    }
    const { key } = yield* keys.create({ name: DEMO_KEY_NAME })

    const gasless = yield* Effect.serviceOption(GaslessPrograms)
    const relayer = Option.map(gasless, (g) => ({ address: g.relayer }))
    const manifest = { ...devnet.manifest, api: { baseUrl: api.baseUrl, apiKey: key }, ...(Option.isSome(relayer) ? { relayer: relayer.value } : {}) }
    writeManifest(manifestPath, manifest)
    const body = JSON.stringify({ tokenIn: manifest.tokens.USDC!.address, tokenOut: manifest.tokens.EURC?.address ?? manifest.tokens.USDC!.native, amountIn: "1000000000" })
    const store = config.keyStore.database
    console.log(
      [
        describeDevnet(devnet, manifestPath),
        `API ready at ${api.baseUrl}`,
        ...(Option.isSome(relayer) ? [`gasless swaps (/gasless/quote, /gasless/submit, /gasless/status) sent from the relayer ${relayer.value.address}`] : []),
        `API key: ${key}`,
        `  (demo key in ${store.kind === "sqlite" ? store.path : `the DATABASE_URL ${store.kind} store`}; the next bun start revokes it)`,
        `try: curl -s -X POST ${api.baseUrl}/quote -H 'x-api-key: ${key}' -H 'content-type: application/json' -d '${body}'`,
        ...(Option.isSome(relayer) ? ["and a gasless swap from an account holding no USDC: bun examples/gasless.ts"] : []),
        "Ctrl-C stops everything.",
      ].join("\n"),
    )
  })

/**
 * The API's port checked, the devnet, the chain settings from its manifest, the
 * API over it, the demo key. A failure releases whatever started (the API, then
 * the devnet).
 */
const Started = apiService(LiveProgramsFromConfig, demo).pipe(
  Layer.provide(ChainFromDevnet),
  Layer.provide(DevnetLive),
  Layer.provide(ApiPortFree),
)

/** Another process may have taken the API's port since it was checked: then the error names it. */
const namePortTaken = (e: Layer.Layer.Error<typeof Started>): Layer.Layer<never, Layer.Layer.Error<typeof Started>, AppConfig> =>
  e._tag !== "ServeError"
    ? Layer.fail(e)
    : Layer.unwrapEffect(
        Effect.gen(function* () {
          const config = yield* AppConfig
          const taken = yield* Effect.promise(() => portInUse(config.host, config.port))
          return yield* Effect.fail(taken ? apiPortBusy(config.host, config.port) : e)
        }),
      )

exitWithParent()
runCommand(Layer.launch(Started.pipe(Layer.catchAll(namePortTaken), Layer.provide(AppConfig.layerFrom({ ...process.env, DATABASE_URL: keyStore })))))
