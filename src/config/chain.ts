// Where the chain side of the service lives: RPC endpoints, the chain id, the
// executor, Multicall3, the venues whose pools the own router reads, the
// reference price feeds, the external sources, the block discovery starts from.
// Read through Effect Config: from the environment, and from a devnet manifest
// (manifest-source.ts) for what the environment does not set.
import { Config, ConfigError, Context, Effect, Either, Layer, Option, type ConfigProvider } from "effect"
import { ARC_CHAIN_ID, ARC_CHAINS_TEXT, isArcChainId, type ArcChainId } from "../domain/index.ts"
import { parseAddress, type Address } from "./address.ts"
import { AGGREGATORS, aggregatorProblems, type AggregatorSettings } from "./aggregators.ts"
import { DEXES, servedVenues, type ServedVenue, type Venue } from "./dexes.ts"
import { configProblems, jsonVariable } from "./json-variable.ts"
import { withManifest, type ManifestSource } from "./manifest-source.ts"
import { PRICE_FEEDS, type PriceFeedSettings } from "./price-feeds.ts"
import { relayerConfig, type RelayerSettings } from "./relayer.ts"
import { rpcUrlProblem } from "./rpc-url.ts"
import { quoteTimeoutConfig, SERVER_DEFAULTS } from "./server.ts"
import { flag, formatConfigError, integerIn, loadConfig, type ConfigurationError } from "./values.ts"

export interface ChainSettings {
  /** in order of preference: later ones are used when earlier ones fail */
  readonly rpcUrls: readonly string[]
  /** the chain served: the node must report it, answers carry it */
  readonly chainId: ArcChainId
  readonly executor: Address
  readonly multicall3: Address
  /**
   * the venues the own router reads (DEXES); V2_FACTORY, V3_FACTORY and
   * V4_POOL_MANAGER with V4_STATE_VIEW stand for the venues uniswap-v2,
   * uniswap-v3 and uniswap-v4 and win over them
   */
  readonly venues: readonly ServedVenue[]
  readonly priceFeeds: readonly PriceFeedSettings[]
  readonly aggregators: readonly AggregatorSettings[]
  /** the block pool discovery starts from */
  readonly fromBlock: bigint
  /** where the market's state is kept across restarts, and how often it is written; none when unset or `off` */
  readonly marketSnapshot: { readonly path: string; readonly intervalMs: number } | undefined
  /** a route whose priceImpactBps is above this is refused (MAX_PRICE_IMPACT_BPS) */
  readonly maxPriceImpactBps: number
  /** most node reads of a request made together sent as one JSON-RPC batch (RPC_BATCH_SIZE; 1: each alone) */
  readonly rpcBatchSize: number
  /** the relayer of gasless swaps (RELAYER_PRIVATE_KEY, RELAYER_FEE_MARGIN_BPS); undefined: gasless swaps are off */
  readonly relayer: RelayerSettings | undefined
}

/** RPC_BATCH_SIZE when unset: a /swap's three reads go together, well within every provider's batch limit */
export const DEFAULT_RPC_BATCH_SIZE = 10

/** MAX_PRICE_IMPACT_BPS when unset: a route losing 30% against the reference prices is refused */
export const DEFAULT_MAX_PRICE_IMPACT_BPS = 3_000

/** Where `bun run serve` keeps the market's state when MARKET_SNAPSHOT does not say */
export const DEFAULT_MARKET_SNAPSHOT = ".data/market.sqlite"

/** A variable read by `parse`; unset or blank: none. */
const variable = <A>(name: string, parse: (text: string) => Either.Either<A, string>): Config.Config<Option.Option<A>> =>
  Config.option(
    Config.string(name).pipe(
      Config.mapOrFail((text) =>
        text.trim() === ""
          ? Either.right(Option.none<A>())
          : Either.map(Either.mapLeft(parse(text.trim()), (message) => ConfigError.InvalidData([], message)), Option.some)),
    ),
  ).pipe(Config.map(Option.flatten))

/** A variable that must be set, by the environment or the manifest. */
const required = <A>(name: string, parse: (text: string) => Either.Either<A, string>): Config.Config<A> =>
  variable(name, parse).pipe(
    Config.mapOrFail(Option.match({
      onNone: () => Either.left(ConfigError.MissingData([name], "is not set (and no manifest gives it)")),
      onSome: (value) => Either.right(value),
    })),
  )

const rpcUrls = (text: string): Either.Either<string[], string> => {
  const urls = text.split(",").map((u) => u.trim()).filter(Boolean)
  const bad = urls.find((url) => !/^https?:\/\//.test(url))
  if (bad !== undefined) return Either.left(`not an http(s) URL: ${bad}`)
  return urls.length === 0 ? Either.left("names no endpoint") : Either.right(urls)
}

const chainId = (text: string): Either.Either<ArcChainId, string> => {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) return Either.left(`is not a chain id: ${text}`)
  const id = Number(text)
  return isArcChainId(id) ? Either.right(id) : Either.left(`must be ${ARC_CHAINS_TEXT}, got ${text}`)
}

const blockNumber = (text: string): Either.Either<bigint, string> => (/^\d+$/.test(text) ? Either.right(BigInt(text)) : Either.left(`is not a block number: ${text}`))

export const chainSettingsConfig: Config.Config<ChainSettings> = Config.all({
  rpcUrls: required("RPC_URL", rpcUrls),
  chainId: variable("CHAIN_ID", chainId),
  executor: required("EXECUTOR_ADDRESS", parseAddress),
  multicall3: required("MULTICALL3_ADDRESS", parseAddress),
  v2Factory: variable("V2_FACTORY", parseAddress),
  v3Factory: variable("V3_FACTORY", parseAddress),
  poolManager: variable("V4_POOL_MANAGER", parseAddress),
  stateView: variable("V4_STATE_VIEW", parseAddress),
  dexes: jsonVariable(DEXES),
  priceFeeds: jsonVariable(PRICE_FEEDS),
  aggregators: jsonVariable(AGGREGATORS),
  // a bad QUOTE_TIMEOUT_MS is reported with the API's settings; the sources are checked against the default then
  quoteBudgetMs: quoteTimeoutConfig.pipe(Config.orElse(() => Config.succeed(SERVER_DEFAULTS.quoteTimeoutMs))),
  fromBlock: variable("MARKET_FROM_BLOCK", blockNumber),
  snapshotPath: variable("MARKET_SNAPSHOT", (text) => Either.right(text)),
  snapshotIntervalMs: variable("MARKET_SNAPSHOT_INTERVAL_MS", (text) =>
    /^\d+$/.test(text) && Number(text) >= 1_000 && Number.isSafeInteger(Number(text)) ? Either.right(Number(text)) : Either.left(`must be a whole number of ms, at least 1000, got ${text}`)),
  allowInsecureRpc: flag("RPC_ALLOW_INSECURE"),
  maxPriceImpactBps: integerIn("MAX_PRICE_IMPACT_BPS", DEFAULT_MAX_PRICE_IMPACT_BPS, 0, 10_000),
  rpcBatchSize: integerIn("RPC_BATCH_SIZE", DEFAULT_RPC_BATCH_SIZE, 1, 1_000),
  relayer: relayerConfig,
}).pipe(
  Config.mapOrFail((read): Either.Either<ChainSettings, ConfigError.ConfigError> => {
    const problems: string[] = []
    // each single-venue variable stands for the venue of its kind's name and wins over it
    const v2Factory = Option.getOrUndefined(read.v2Factory)
    const v3Factory = Option.getOrUndefined(read.v3Factory)
    const poolManager = Option.getOrUndefined(read.poolManager)
    const stateView = Option.getOrUndefined(read.stateView)
    if (poolManager !== undefined && stateView === undefined) problems.push("V4_STATE_VIEW: is needed with V4_POOL_MANAGER")
    if (poolManager === undefined && stateView !== undefined) problems.push("V4_POOL_MANAGER: is needed with V4_STATE_VIEW")
    const overrides: Venue[] = [
      ...(v2Factory ? [{ name: "uniswap-v2", kind: "uniswap-v2", factory: v2Factory } as const] : []),
      ...(v3Factory ? [{ name: "uniswap-v3", kind: "uniswap-v3", factory: v3Factory } as const] : []),
      ...(poolManager && stateView ? [{ name: "uniswap-v4", kind: "uniswap-v4", poolManager, stateView } as const] : []),
    ]
    const listed = Option.getOrElse(read.dexes, () => [])
    const venues = Either.getOrElse(
      servedVenues([...overrides, ...listed.filter((v) => !overrides.some((o) => o.name === v.name))]),
      (lines): ServedVenue[] => {
        problems.push(...lines)
        return []
      },
    )
    const aggregators = Option.getOrElse(read.aggregators, () => [])
    problems.push(...aggregatorProblems(aggregators, read.quoteBudgetMs))
    for (const url of read.rpcUrls) {
      const problem = rpcUrlProblem(url, read.allowInsecureRpc)
      if (problem !== undefined) problems.push(`RPC_URL: ${problem}`)
    }
    if (problems.length > 0) return Either.left(configProblems(problems as [string, ...string[]]))
    return Either.right({
      rpcUrls: read.rpcUrls,
      chainId: Option.getOrElse(read.chainId, () => ARC_CHAIN_ID),
      executor: read.executor,
      multicall3: read.multicall3,
      venues,
      priceFeeds: Option.getOrElse(read.priceFeeds, () => []),
      aggregators,
      fromBlock: Option.getOrElse(read.fromBlock, () => 0n),
      marketSnapshot: Option.match(Option.filter(read.snapshotPath, (path) => path.toLowerCase() !== "off"), {
        onNone: () => undefined,
        onSome: (path) => ({ path, intervalMs: Option.getOrElse(read.snapshotIntervalMs, () => 300_000) }),
      }),
      maxPriceImpactBps: read.maxPriceImpactBps,
      rpcBatchSize: read.rpcBatchSize,
      relayer: read.relayer,
    })
  }),
)

/** Reads the chain settings from the environment (or the ConfigProvider in effect), or from `source`. */
export const loadChainSettings = (
  source?: Readonly<Record<string, string | undefined>> | ConfigProvider.ConfigProvider,
): Effect.Effect<ChainSettings, ConfigurationError> => loadConfig(chainSettingsConfig, source)

/**
 * The settings from the given variables, and from the manifest for what they do
 * not set, or one line per variable that is missing or wrong (tests, benchmarks,
 * scripts).
 */
export const chainSettings = (env: Readonly<Record<string, string | undefined>>, manifest?: ManifestSource): Either.Either<ChainSettings, string> =>
  Effect.runSync(Effect.either(Effect.withConfigProvider(chainSettingsConfig, withManifest(env, manifest)))).pipe(Either.mapLeft(formatConfigError))

/** The chain settings as a service. */
export class ChainConfig extends Context.Tag("config/ChainConfig")<ChainConfig, ChainSettings>() {
  /** from the process environment (or the ConfigProvider in effect) */
  static readonly layer: Layer.Layer<ChainConfig, ConfigurationError> = Layer.effect(ChainConfig, loadChainSettings())
  /** from the given variables or ConfigProvider only */
  static readonly layerFrom = (source: Readonly<Record<string, string | undefined>> | ConfigProvider.ConfigProvider): Layer.Layer<ChainConfig, ConfigurationError> =>
    Layer.effect(ChainConfig, loadChainSettings(source))
}
