// What a discovered pool is: the facts its creation log (or, for a listed
// stable pool, its first read) gives: kind, venue, id, tokens, fee, tick
// spacing, hooks, coins and their rates. They never change; the state is read
// separately, at each block that touches the pool.
import type { Address, Hex } from "viem"

interface MetaBase {
  /** the pool's key in the market: its lower-case address, or for V4 its id and PoolManager */
  readonly key: string
  /** the venue's name */
  readonly venue: string
}

export type Meta =
  | (MetaBase & { readonly kind: "uniswap-v2"; readonly id: Address; readonly token0: Address; readonly token1: Address; readonly feeBps: number })
  | (MetaBase & {
      readonly kind: "uniswap-v3"
      readonly id: Address
      readonly token0: Address
      readonly token1: Address
      readonly fee: number
      readonly tickSpacing: number
    })
  | (MetaBase & {
      readonly kind: "uniswap-v4"
      readonly id: Hex
      readonly token0: Address
      readonly token1: Address
      readonly fee: number
      readonly tickSpacing: number
      readonly hooks: Address
      readonly poolManager: Address
      readonly stateView: Address
    })
  | (MetaBase & {
      readonly kind: "curve-stableswap"
      readonly id: Address
      /** in pool order */
      readonly coins: readonly Address[]
      /** 10 ** (36 - decimals) per coin */
      readonly rates: readonly bigint[]
    })

export type ConcentratedMeta = Extract<Meta, { kind: "uniswap-v3" | "uniswap-v4" }>
export type StableMeta = Extract<Meta, { kind: "curve-stableswap" }>

/** The market key of a V4 pool: its id is unique only within its PoolManager. */
export const v4Key = (id: Hex, poolManager: Address): string => `${id.toLowerCase()}@${poolManager.toLowerCase()}`

/** The tokens of a pool, in its own order. */
export const metaTokens = (meta: Meta): readonly Address[] => (meta.kind === "curve-stableswap" ? meta.coins : [meta.token0, meta.token1])
