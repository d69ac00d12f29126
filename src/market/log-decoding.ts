// Which logs mean what to the market: PairCreated / PoolCreated / Initialize
// create pools; Sync, Swap, Mint, Burn (V2, V3) and Swap, ModifyLiquidity,
// ProtocolFeeUpdated (V4, by pool id) touch them, and Mint, Burn and
// ModifyLiquidity also name two ticks; the executor's RouterAllowlistChanged
// allows or removes a router. Pure decoding: no reads.
import { decodeAbiParameters, getAddress, hexToBigInt, type Hex } from "viem"
import type { RpcLog } from "../chain/index.ts"
import { TOPIC } from "./abis.ts"
import type { MarketConfig } from "./market-config.ts"
import type { Meta } from "./pool-meta.ts"

/** A pool a log touched, and the ticks the log names (Mint, Burn, ModifyLiquidity). */
export interface Touch {
  readonly key: string
  readonly ticks: number[]
}

/** A RouterAllowlistChanged event: `router` is lower-case. */
export interface AllowlistChange {
  readonly router: string
  readonly allowed: boolean
}

const int24OfTopic = (topic: Hex): number => Number(hexToBigInt(topic, { signed: true }))

/** The decoders for the emitters of one market (matched by lower-case address). */
export const logDecoder = (config: Pick<MarketConfig, "v2Factory" | "v3Factory" | "poolManager" | "executor">) => {
  const v2Factory = config.v2Factory?.toLowerCase()
  const v3Factory = config.v3Factory?.toLowerCase()
  const poolManager = config.poolManager?.toLowerCase()
  const executor = config.executor?.toLowerCase()

  /** The executor's allowlist change a log records, if it is one. */
  const allowlistChange = (log: RpcLog): AllowlistChange | undefined => {
    if (log.address.toLowerCase() !== executor || log.topics[0] !== TOPIC.routerAllowlistChanged) return undefined
    const router = `0x${log.topics[1]!.slice(26)}`.toLowerCase()
    const [allowed] = decodeAbiParameters([{ type: "bool" }], log.data)
    return { router, allowed }
  }

  /** The pool a creation log creates, if it is one. */
  const discover = (log: RpcLog): Meta | undefined => {
    const emitter = log.address.toLowerCase()
    const topic = log.topics[0]
    if (emitter === v2Factory && topic === TOPIC.v2PairCreated) {
      const [pair] = decodeAbiParameters([{ type: "address" }, { type: "uint256" }], log.data)
      return {
        dex: "uniswap-v2",
        key: pair.toLowerCase(),
        id: getAddress(pair),
        token0: getAddress(`0x${log.topics[1]!.slice(26)}`),
        token1: getAddress(`0x${log.topics[2]!.slice(26)}`),
      }
    }
    if (emitter === v3Factory && topic === TOPIC.v3PoolCreated) {
      const [tickSpacing, pool] = decodeAbiParameters([{ type: "int24" }, { type: "address" }], log.data)
      return {
        dex: "uniswap-v3",
        key: pool.toLowerCase(),
        id: getAddress(pool),
        token0: getAddress(`0x${log.topics[1]!.slice(26)}`),
        token1: getAddress(`0x${log.topics[2]!.slice(26)}`),
        fee: Number(hexToBigInt(log.topics[3]!)),
        tickSpacing,
      }
    }
    if (emitter === poolManager && topic === TOPIC.v4Initialize) {
      const [fee, tickSpacing, hooks] = decodeAbiParameters(
        [{ type: "uint24" }, { type: "int24" }, { type: "address" }, { type: "uint160" }, { type: "int24" }],
        log.data,
      )
      const id = log.topics[1]!.toLowerCase() as Hex
      return {
        dex: "uniswap-v4",
        key: id,
        id,
        token0: getAddress(`0x${log.topics[2]!.slice(26)}`),
        token1: getAddress(`0x${log.topics[3]!.slice(26)}`),
        fee,
        tickSpacing,
        hooks: getAddress(hooks),
      }
    }
    return undefined
  }

  /** The known pool a state-changing log touches, and the ticks it names. */
  const touch = (log: RpcLog, metas: ReadonlyMap<string, Meta>): Touch | undefined => {
    const emitter = log.address.toLowerCase()
    const topic = log.topics[0]
    if (emitter === poolManager) {
      const key = log.topics[1]?.toLowerCase()
      if (key === undefined || !metas.has(key)) return undefined
      if (topic === TOPIC.v4Swap || topic === TOPIC.v4ProtocolFeeUpdated) return { key, ticks: [] }
      if (topic === TOPIC.v4ModifyLiquidity) {
        const [lower, upper] = decodeAbiParameters([{ type: "int24" }, { type: "int24" }], log.data)
        return { key, ticks: [lower, upper] }
      }
      return undefined
    }
    const meta = metas.get(emitter)
    if (meta?.dex === "uniswap-v2") {
      return topic === TOPIC.v2Sync || topic === TOPIC.v2Swap || topic === TOPIC.v2Mint || topic === TOPIC.v2Burn
        ? { key: emitter, ticks: [] }
        : undefined
    }
    if (meta?.dex === "uniswap-v3") {
      if (topic === TOPIC.v3Swap) return { key: emitter, ticks: [] }
      if (topic === TOPIC.v3Mint || topic === TOPIC.v3Burn) {
        return { key: emitter, ticks: [int24OfTopic(log.topics[2]!), int24OfTopic(log.topics[3]!)] }
      }
    }
    return undefined
  }

  return { allowlistChange, discover, touch }
}
