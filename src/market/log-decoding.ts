// Which logs mean what to the market: PairCreated / PoolCreated / Initialize
// create pools, each on the venue whose factory or PoolManager emitted it;
// Sync, Swap, Mint, Burn (V2, V3) and Swap, ModifyLiquidity,
// ProtocolFeeUpdated (V4, by pool id) touch them, and Mint, Burn and
// ModifyLiquidity also name two ticks; any log of a stable pool touches it, and
// any log of a stable factory (whatever its version's deploy event) says it may
// list new pools; the executor's RouterAllowlistChanged, VenueSet and
// StablePoolSet change its registry. Pure decoding: no reads.
import { decodeAbiParameters, getAddress, hexToBigInt, type Address, type Hex } from "viem"
import type { RpcLog } from "../chain/index.ts"
import { TOPIC } from "./abis.ts"
import type { MarketVenue } from "./market-config.ts"
import { v4Key, type Meta } from "./pool-meta.ts"
import type { RegistryEvent } from "./registry.ts"

/** A pool a log touched, and the ticks the log names (Mint, Burn, ModifyLiquidity). */
export interface Touch {
  readonly key: string
  readonly ticks: number[]
}

const int24OfTopic = (topic: Hex): number => Number(hexToBigInt(topic, { signed: true }))
const addressOfTopic = (topic: Hex): Address => getAddress(`0x${topic.slice(26)}`)

/** The decoders for the emitters of one market (matched by lower-case address). */
export const logDecoder = (venues: readonly MarketVenue[], executorAddress: Address | undefined) => {
  const v2Factories = new Map<string, Extract<MarketVenue, { kind: "uniswap-v2" }>>()
  const v3Factories = new Map<string, Extract<MarketVenue, { kind: "uniswap-v3" }>>()
  const poolManagers = new Map<string, Extract<MarketVenue, { kind: "uniswap-v4" }>>()
  const stableFactories = new Set<string>()
  for (const venue of venues) {
    if (venue.kind === "uniswap-v2") v2Factories.set(venue.factory.toLowerCase(), venue)
    else if (venue.kind === "uniswap-v3") v3Factories.set(venue.factory.toLowerCase(), venue)
    else if (venue.kind === "uniswap-v4") poolManagers.set(venue.poolManager.toLowerCase(), venue)
    else if (venue.factory !== undefined) stableFactories.add(venue.factory.toLowerCase())
  }
  const executor = executorAddress?.toLowerCase()

  /** The stable factory (lower-case) that emitted a log, if one did: its pool list is read again. */
  const stableFactory = (log: RpcLog): string | undefined => {
    const emitter = log.address.toLowerCase()
    return stableFactories.has(emitter) ? emitter : undefined
  }

  /** The change to the executor's registry a log records, if it is one. */
  const registryEvent = (log: RpcLog): RegistryEvent | undefined => {
    if (log.address.toLowerCase() !== executor) return undefined
    switch (log.topics[0]) {
      case TOPIC.routerAllowlistChanged: {
        const [allowed] = decodeAbiParameters([{ type: "bool" }], log.data)
        return { type: "router", router: addressOfTopic(log.topics[1]!).toLowerCase(), allowed }
      }
      case TOPIC.venueSet: {
        const [kind, , feeBps] = decodeAbiParameters([{ type: "uint8" }, { type: "bytes32" }, { type: "uint16" }], log.data)
        const id = Number(hexToBigInt(log.topics[1]!))
        return { type: "venue", id, venue: { kind, factory: addressOfTopic(log.topics[2]!).toLowerCase(), feeBps } }
      }
      case TOPIC.stablePoolSet: {
        const [registered] = decodeAbiParameters([{ type: "bool" }], log.data)
        return { type: "stable-pool", pool: addressOfTopic(log.topics[1]!).toLowerCase(), registered }
      }
      default:
        return undefined
    }
  }

  /** The pool a creation log creates, if it is one. */
  const discover = (log: RpcLog): Meta | undefined => {
    const emitter = log.address.toLowerCase()
    const topic = log.topics[0]
    if (topic === TOPIC.v2PairCreated) {
      const venue = v2Factories.get(emitter)
      if (venue === undefined) return undefined
      const [pair] = decodeAbiParameters([{ type: "address" }, { type: "uint256" }], log.data)
      return {
        kind: "uniswap-v2",
        venue: venue.name,
        key: pair.toLowerCase(),
        id: getAddress(pair),
        token0: addressOfTopic(log.topics[1]!),
        token1: addressOfTopic(log.topics[2]!),
        feeBps: venue.feeBps,
      }
    }
    if (topic === TOPIC.v3PoolCreated) {
      const venue = v3Factories.get(emitter)
      if (venue === undefined) return undefined
      const [tickSpacing, pool] = decodeAbiParameters([{ type: "int24" }, { type: "address" }], log.data)
      return {
        kind: "uniswap-v3",
        venue: venue.name,
        key: pool.toLowerCase(),
        id: getAddress(pool),
        token0: addressOfTopic(log.topics[1]!),
        token1: addressOfTopic(log.topics[2]!),
        fee: Number(hexToBigInt(log.topics[3]!)),
        tickSpacing,
      }
    }
    if (topic === TOPIC.v4Initialize) {
      const venue = poolManagers.get(emitter)
      if (venue === undefined) return undefined
      const [fee, tickSpacing, hooks] = decodeAbiParameters(
        [{ type: "uint24" }, { type: "int24" }, { type: "address" }, { type: "uint160" }, { type: "int24" }],
        log.data,
      )
      const id = log.topics[1]!.toLowerCase() as Hex
      return {
        kind: "uniswap-v4",
        venue: venue.name,
        key: v4Key(id, venue.poolManager),
        id,
        token0: addressOfTopic(log.topics[2]!),
        token1: addressOfTopic(log.topics[3]!),
        fee,
        tickSpacing,
        hooks: getAddress(hooks),
        poolManager: venue.poolManager,
        stateView: venue.stateView,
      }
    }
    return undefined
  }

  /** The known pool a state-changing log touches, and the ticks it names. */
  const touch = (log: RpcLog, metas: ReadonlyMap<string, Meta>): Touch | undefined => {
    const emitter = log.address.toLowerCase()
    const topic = log.topics[0]
    const manager = poolManagers.get(emitter)
    if (manager !== undefined) {
      const id = log.topics[1]
      if (id === undefined) return undefined
      const key = v4Key(id, manager.poolManager)
      if (!metas.has(key)) return undefined
      if (topic === TOPIC.v4Swap || topic === TOPIC.v4ProtocolFeeUpdated) return { key, ticks: [] }
      if (topic === TOPIC.v4ModifyLiquidity) {
        const [lower, upper] = decodeAbiParameters([{ type: "int24" }, { type: "int24" }], log.data)
        return { key, ticks: [lower, upper] }
      }
      return undefined
    }
    const meta = metas.get(emitter)
    switch (meta?.kind) {
      case "uniswap-v2":
        return topic === TOPIC.v2Sync || topic === TOPIC.v2Swap || topic === TOPIC.v2Mint || topic === TOPIC.v2Burn
          ? { key: emitter, ticks: [] }
          : undefined
      case "uniswap-v3":
        if (topic === TOPIC.v3Swap) return { key: emitter, ticks: [] }
        if (topic === TOPIC.v3Mint || topic === TOPIC.v3Burn) {
          return { key: emitter, ticks: [int24OfTopic(log.topics[2]!), int24OfTopic(log.topics[3]!)] }
        }
        return undefined
      case "curve-stableswap":
        // an exchange, a deposit, a withdrawal, a fee or A change: the pool is read again
        return { key: emitter, ticks: [] }
      default:
        return undefined
    }
  }

  return { registryEvent, stableFactory, discover, touch }
}
