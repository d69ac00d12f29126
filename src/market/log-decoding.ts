// Which logs mean what to the market: PairCreated / PoolCreated / Initialize
// create pools, each on the venue whose factory or PoolManager emitted it;
// Sync, Swap, Mint, Burn (V2, V3) and Swap, ModifyLiquidity,
// ProtocolFeeUpdated (V4, by pool id) touch them, and Mint, Burn and
// ModifyLiquidity also name two ticks, and Sync and the V3 and V4 Swaps carry the
// state they leave (reserves; price, tick and liquidity); any log of a stable pool touches it
// (a TokenExchange says the coins and amounts it moved), and
// any log of a stable factory (whatever its version's deploy event) says it may
// list new pools; the executor's RouterAllowlistChanged, VenueSet and
// StablePoolSet change its registry. Pure decoding: no reads.
import { decodeAbiParameters, getAddress, hexToBigInt, type Address, type Hex } from "viem"
import type { RpcLog } from "../chain/index.ts"
import { TOPIC } from "./abis.ts"
import type { MarketVenue } from "./market-config.ts"
import { v4Key, type Meta } from "./pool-meta.ts"
import type { RegistryEvent } from "./registry.ts"

/**
 * What a log says of its pool's state after it: a V2 pair's reserves (Sync), a V3 or V4
 * pool's price, tick and in-range liquidity (Swap: a swap changes nothing else the market keeps),
 * or what a stable pool's exchange took in and paid out (TokenExchange: the balances it leaves
 * follow from the ones before when the pool keeps every fee in them).
 */
export type LoggedState =
  | { readonly kind: "reserves"; readonly reserve0: bigint; readonly reserve1: bigint }
  | { readonly kind: "price"; readonly sqrtPriceX96: bigint; readonly liquidity: bigint; readonly tick: number }
  | { readonly kind: "exchange"; readonly sold: number; readonly dx: bigint; readonly bought: number; readonly dy: bigint }

/** A pool a log touched, the ticks the log names (Mint, Burn, ModifyLiquidity), and the state it leaves, when it says. */
export interface Touch {
  readonly key: string
  readonly ticks: number[]
  readonly after?: LoggedState
}

const int24OfTopic = (topic: Hex): number => Number(hexToBigInt(topic, { signed: true }))

const TWO_256 = 1n << 256n

/** the `i`th word of a log's data as an unsigned integer below 2^bits, or undefined */
const uintWord = (data: Hex, i: number, bits: number): bigint | undefined => {
  const word = data.slice(2 + i * 64, 2 + (i + 1) * 64)
  if (word.length !== 64) return undefined
  const n = BigInt(`0x${word}`)
  return n < 1n << BigInt(bits) ? n : undefined
}

/** the `i`th word of a log's data as an int24 (sign-extended over the word), or undefined */
const int24Word = (data: Hex, i: number): number | undefined => {
  const n = uintWord(data, i, 256)
  if (n === undefined) return undefined
  const signed = n >= 1n << 255n ? n - TWO_256 : n
  return signed >= -(1n << 23n) && signed < 1n << 23n ? Number(signed) : undefined
}

/** Sync(uint112 reserve0, uint112 reserve1) */
const syncState = (data: Hex): LoggedState | undefined => {
  const reserve0 = uintWord(data, 0, 112)
  const reserve1 = uintWord(data, 1, 112)
  return reserve0 === undefined || reserve1 === undefined ? undefined : { kind: "reserves", reserve0, reserve1 }
}

/** a Swap's sqrtPriceX96 (uint160), liquidity (uint128) and tick (int24) from the data's word `at` on */
const swapState = (data: Hex, at: number): LoggedState | undefined => {
  const sqrtPriceX96 = uintWord(data, at, 160)
  const liquidity = uintWord(data, at + 1, 128)
  const tick = int24Word(data, at + 2)
  return sqrtPriceX96 === undefined || liquidity === undefined || tick === undefined ? undefined : { kind: "price", sqrtPriceX96, liquidity, tick }
}
/** a coin index of a stable pool (int128 word): 0 to 7, or undefined */
const coinWord = (data: Hex, i: number): number | undefined => {
  const n = uintWord(data, i, 256)
  return n !== undefined && n < 8n ? Number(n) : undefined
}

/** TokenExchange(buyer indexed, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought) */
const exchangeState = (data: Hex): LoggedState | undefined => {
  const sold = coinWord(data, 0)
  const dx = uintWord(data, 1, 256)
  const bought = coinWord(data, 2)
  const dy = uintWord(data, 3, 256)
  return sold === undefined || dx === undefined || bought === undefined || dy === undefined || sold === bought
    ? undefined
    : { kind: "exchange", sold, dx, bought, dy }
}
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

  const withState = (key: string, after: LoggedState | undefined): Touch => (after === undefined ? { key, ticks: [] } : { key, ticks: [], after })

  /** The known pool a state-changing log touches, the ticks it names and the state it leaves. */
  const touch = (log: RpcLog, metas: ReadonlyMap<string, Meta>): Touch | undefined => {
    const emitter = log.address.toLowerCase()
    const topic = log.topics[0]
    const manager = poolManagers.get(emitter)
    if (manager !== undefined) {
      const id = log.topics[1]
      if (id === undefined) return undefined
      const key = v4Key(id, manager.poolManager)
      if (!metas.has(key)) return undefined
      // Swap(amount0, amount1, sqrtPriceX96, liquidity, tick, fee): the fee is the swap's, the pool's own is kept
      if (topic === TOPIC.v4Swap) return withState(key, swapState(log.data, 2))
      if (topic === TOPIC.v4ProtocolFeeUpdated) return { key, ticks: [] }
      if (topic === TOPIC.v4ModifyLiquidity) {
        const [lower, upper] = decodeAbiParameters([{ type: "int24" }, { type: "int24" }], log.data)
        return { key, ticks: [lower, upper] }
      }
      return undefined
    }
    const meta = metas.get(emitter)
    switch (meta?.kind) {
      case "uniswap-v2":
        // every change of a pair's reserves (swap, mint, burn, sync) emits Sync with them
        if (topic === TOPIC.v2Sync) return withState(emitter, syncState(log.data))
        return topic === TOPIC.v2Swap || topic === TOPIC.v2Mint || topic === TOPIC.v2Burn ? { key: emitter, ticks: [] } : undefined
      case "uniswap-v3":
        // Swap(amount0, amount1, sqrtPriceX96, liquidity, tick)
        if (topic === TOPIC.v3Swap) return withState(emitter, swapState(log.data, 2))
        if (topic === TOPIC.v3Mint || topic === TOPIC.v3Burn) {
          return { key: emitter, ticks: [int24OfTopic(log.topics[2]!), int24OfTopic(log.topics[3]!)] }
        }
        return undefined
      case "curve-stableswap":
        // an exchange says what it moved; a deposit, a withdrawal, a fee or A change: the pool is read again
        if (topic === TOPIC.stableTokenExchange) return withState(emitter, exchangeState(log.data))
        return { key: emitter, ticks: [] }
      default:
        return undefined
    }
  }

  return { registryEvent, stableFactory, discover, touch }
}
