// What a discovered pool is: the facts its creation log gives (venue kind, id,
// tokens, fee, tick spacing, hooks), which never change. Its state is read
// separately, at each block that touches it.
import type { Address, Hex } from "viem"

export type Meta =
  | { readonly dex: "uniswap-v2"; readonly key: string; readonly id: Address; readonly token0: Address; readonly token1: Address }
  | {
      readonly dex: "uniswap-v3"
      readonly key: string
      readonly id: Address
      readonly token0: Address
      readonly token1: Address
      readonly fee: number
      readonly tickSpacing: number
    }
  | {
      readonly dex: "uniswap-v4"
      readonly key: string
      readonly id: Hex
      readonly token0: Address
      readonly token1: Address
      readonly fee: number
      readonly tickSpacing: number
      readonly hooks: Address
    }

export type ConcentratedMeta = Extract<Meta, { dex: "uniswap-v3" | "uniswap-v4" }>
