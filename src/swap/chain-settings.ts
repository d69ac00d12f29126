// Where the chain side of the service lives: RPC endpoints, the executor, the
// DEX contracts to discover pools from, the reference price feeds. From the
// environment, and from a devnet manifest for what the environment does not set.
import { Either } from "effect"
import { getAddress, isAddress, type Address } from "viem"
import { DEFAULTS } from "../config.ts"
import type { Manifest } from "../devnet/manifest.ts"
import type { PriceFeedConfig } from "../pricing/index.ts"
import { AGGREGATOR_DEFAULTS, checkAggregatorConfig, type AggregatorConfig } from "../sources/index.ts"

export type { AggregatorConfig }

export interface ChainSettings {
  readonly rpcUrls: readonly string[]
  readonly chainId: number
  readonly executor: Address
  readonly multicall3: Address
  readonly v2Factory?: Address
  readonly v3Factory?: Address
  readonly poolManager?: Address
  readonly stateView?: Address
  readonly priceFeeds: readonly PriceFeedConfig[]
  readonly aggregators: readonly AggregatorConfig[]
  /** the block pool discovery starts from */
  readonly fromBlock: bigint
}

export const ARC_CHAIN_ID = 5042

type Env = Readonly<Record<string, string | undefined>>

/**
 * The settings, or a message naming each variable that is missing or wrong.
 * Every variable wins over the manifest.
 */
export const chainSettings = (env: Env, manifest?: Manifest): Either.Either<ChainSettings, string> => {
  const problems: string[] = []
  const address = (name: string, fallback: string | undefined, required: boolean): Address | undefined => {
    const value = env[name]?.trim() || fallback
    if (value === undefined || value === "") {
      if (required) problems.push(`${name} is not set (and no manifest gives it)`)
      return undefined
    }
    if (!isAddress(value, { strict: true })) {
      problems.push(`${name} is not an address (all-lowercase or correctly checksummed): ${value}`)
      return undefined
    }
    return getAddress(value)
  }

  const rpcText = env.RPC_URL?.trim() || manifest?.rpcUrl
  const rpcUrls = (rpcText ?? "").split(",").map((u) => u.trim()).filter(Boolean)
  if (rpcUrls.length === 0) problems.push("RPC_URL is not set (and no manifest gives it)")
  for (const url of rpcUrls) if (!/^https?:\/\//.test(url)) problems.push(`RPC_URL: not an http(s) URL: ${url}`)

  const chainIdText = env.CHAIN_ID?.trim() || String(ARC_CHAIN_ID)
  const chainId = Number(chainIdText)
  if (!Number.isInteger(chainId) || chainId <= 0) problems.push(`CHAIN_ID is not a chain id: ${chainIdText}`)

  const executor = address("EXECUTOR_ADDRESS", manifest?.executor, true)
  const multicall3 = address("MULTICALL3_ADDRESS", manifest?.multicall3, true)
  const v2Factory = address("V2_FACTORY", manifest?.dexes["uniswap-v2"].factory, false)
  const v3Factory = address("V3_FACTORY", manifest?.dexes["uniswap-v3"].factory, false)
  const poolManager = address("V4_POOL_MANAGER", manifest?.dexes["uniswap-v4"].poolManager, false)
  const stateView = address("V4_STATE_VIEW", manifest?.dexes["uniswap-v4"].stateView, false)
  if (poolManager !== undefined && stateView === undefined) problems.push("V4_STATE_VIEW is needed with V4_POOL_MANAGER")

  let priceFeeds: PriceFeedConfig[] = []
  if (env.PRICE_FEEDS?.trim()) {
    try {
      const parsed = JSON.parse(env.PRICE_FEEDS) as Record<string, string>
      priceFeeds = Object.entries(parsed).map(([token, feed]) => {
        if (!isAddress(token, { strict: true }) || !isAddress(feed, { strict: true })) throw new Error(`${token}: ${feed}`)
        return { token: getAddress(token), feed: getAddress(feed) }
      })
    } catch (e) {
      problems.push(`PRICE_FEEDS must be a JSON object of token address → feed address (${(e as Error).message})`)
    }
  } else if (manifest !== undefined) {
    priceFeeds = Object.entries(manifest.priceFeeds).flatMap(([symbol, feed]) => {
      const token = manifest.tokens[symbol]
      return token ? [{ token: getAddress(token.address), feed: getAddress(feed) }] : []
    })
  }

  let aggregators: AggregatorConfig[] = []
  const aggregatorText = env.AGGREGATORS?.trim()
  if (aggregatorText) {
    try {
      const parsed = JSON.parse(aggregatorText) as unknown
      if (!Array.isArray(parsed)) throw new Error("not an array")
      aggregators = parsed.map((a, i) => {
        if (typeof a?.name !== "string" || typeof a?.kind !== "string" || typeof a?.url !== "string") {
          throw new Error(`entry ${i} needs name, kind and url strings`)
        }
        const optional = (field: "apiKey" | "timeoutMs" | "failureThreshold" | "cooldownMs", type: "string" | "number") => {
          if (a[field] === undefined) return {}
          if (typeof a[field] !== type) throw new Error(`entry ${i}: ${field} must be a ${type}`)
          return { [field]: a[field] }
        }
        return {
          name: a.name,
          kind: a.kind,
          url: a.url,
          ...optional("apiKey", "string"),
          ...optional("timeoutMs", "number"),
          ...optional("failureThreshold", "number"),
          ...optional("cooldownMs", "number"),
        }
      })
    } catch (e) {
      problems.push(`AGGREGATORS must be a JSON array of { name, kind, url, apiKey?, timeoutMs?, failureThreshold?, cooldownMs? } (${(e as Error).message})`)
    }
  } else if (manifest !== undefined) {
    aggregators = manifest.aggregators.map((a) => ({ ...a }))
  }
  // a source's time budget sits inside the request's: /quote never waits on an aggregator to its own end
  const quoteBudgetText = env.QUOTE_TIMEOUT_MS?.trim()
  const quoteBudgetMs = quoteBudgetText && /^\d+$/.test(quoteBudgetText) ? Number(quoteBudgetText) : DEFAULTS.quoteTimeoutMs
  const names = new Set<string>()
  for (const aggregator of aggregators) {
    Either.match(checkAggregatorConfig(aggregator), { onLeft: (message) => problems.push(`AGGREGATORS: ${message}`), onRight: () => undefined })
    if (names.has(aggregator.name)) problems.push(`AGGREGATORS: the name ${aggregator.name} is used twice`)
    names.add(aggregator.name)
    const timeoutMs = aggregator.timeoutMs ?? AGGREGATOR_DEFAULTS.timeoutMs
    if (timeoutMs >= quoteBudgetMs) problems.push(`AGGREGATORS: ${aggregator.name}'s timeoutMs ${timeoutMs} must be below the quote budget of ${quoteBudgetMs} ms`)
  }

  const fromText = env.MARKET_FROM_BLOCK?.trim() || "0"
  if (!/^\d+$/.test(fromText)) problems.push(`MARKET_FROM_BLOCK is not a block number: ${fromText}`)

  if (problems.length > 0) return Either.left(problems.join("; "))
  return Either.right({
    rpcUrls,
    chainId,
    executor: executor!,
    multicall3: multicall3!,
    ...(v2Factory ? { v2Factory } : {}),
    ...(v3Factory ? { v3Factory } : {}),
    ...(poolManager ? { poolManager } : {}),
    ...(stateView ? { stateView } : {}),
    priceFeeds,
    aggregators,
    fromBlock: BigInt(fromText),
  })
}
