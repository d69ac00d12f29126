// Whether a restored market's facts hold together without asking the chain:
// each pool's meta names a configured venue of its kind (with that venue's fee,
// PoolManager and StateView), a V4 pool's id is the hash of its key, every key is
// its pool's, and each pool's state repeats its meta's facts (tokens, fee, tick
// spacing, hooks, coins, rates) and keeps a tick window of whole bitmap words no
// wider than the configured one. Pure: the chain-side checks are restore-check.ts.
import { encodeAbiParameters, keccak256, type Address, type Hex } from "viem"
import type { PoolState } from "../amm/index.ts"
import type { MarketVenue } from "./market-config.ts"
import { v4Key, type Meta } from "./pool-meta.ts"
import { MAX_TICK, MIN_TICK } from "../amm/index.ts"
import { wordOf } from "./tick-window.ts"

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()
const lower = (address: Address): Address => address.toLowerCase() as Address

/** A V4 pool's id: keccak256 of its PoolKey, as the PoolManager computes it. */
export const v4PoolId = (meta: Extract<Meta, { kind: "uniswap-v4" }>): Hex =>
  keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint24" }, { type: "int24" }, { type: "address" }],
      // lower-case: a stored address need not be checksummed correctly, and must not throw here
      [lower(meta.token0), lower(meta.token1), meta.fee, meta.tickSpacing, lower(meta.hooks)],
    ),
  )

/** What is wrong with a stored meta against the configured venues, in words; undefined when nothing is. */
export const metaProblem = (meta: Meta, venues: ReadonlyMap<string, MarketVenue>): string | undefined => {
  const venue = venues.get(meta.venue)
  if (venue === undefined || venue.kind !== meta.kind) return `venue ${meta.venue} is not a configured ${meta.kind} venue`
  switch (meta.kind) {
    case "uniswap-v2": {
      const v2 = venue as Extract<MarketVenue, { kind: "uniswap-v2" }>
      if (meta.key !== meta.id.toLowerCase()) return `key ${meta.key} is not its pool's`
      return meta.feeBps === v2.feeBps ? undefined : `fee ${meta.feeBps} bps, the venue's is ${v2.feeBps}`
    }
    case "uniswap-v3":
      if (meta.key !== meta.id.toLowerCase()) return `key ${meta.key} is not its pool's`
      return meta.tickSpacing >= 1 ? undefined : `tick spacing ${meta.tickSpacing}`
    case "uniswap-v4": {
      const v4 = venue as Extract<MarketVenue, { kind: "uniswap-v4" }>
      if (!same(meta.poolManager, v4.poolManager) || !same(meta.stateView, v4.stateView)) return `PoolManager or StateView is not the venue's`
      if (meta.key !== v4Key(meta.id, v4.poolManager)) return `key ${meta.key} is not its pool's`
      if (meta.tickSpacing < 1) return `tick spacing ${meta.tickSpacing}`
      return same(v4PoolId(meta), meta.id) ? undefined : `id ${meta.id} is not the hash of its tokens, fee, tick spacing and hooks`
    }
    case "curve-stableswap": {
      const stable = venue as Extract<MarketVenue, { kind: "curve-stableswap" }>
      if (meta.key !== meta.id.toLowerCase()) return `key ${meta.key} is not its pool's`
      const listed = stable.pools.some((pool) => same(pool, meta.id))
      return listed || stable.factory !== undefined ? undefined : `not a pool the venue lists`
    }
  }
}

/** What a stored state says differently from its meta (or of its tick window), in words; undefined when nothing. */
export const stateProblem = (state: PoolState, meta: Meta, halfWidth: number): string | undefined => {
  if (state.kind !== meta.kind || state.venue !== meta.venue || !same(state.id, meta.id)) return `state of another pool than its meta`
  if (state.kind === "curve-stableswap" && meta.kind === "curve-stableswap") {
    const coins = state.coins.length === meta.coins.length && state.coins.every((c, i) => c === meta.coins[i])
    const rates = state.rates.length === meta.rates.length && state.rates.every((r, i) => r === meta.rates[i])
    return coins && rates ? undefined : `coins or rates differ from its meta's`
  }
  if (state.kind === "curve-stableswap" || meta.kind === "curve-stableswap") return `state of another pool than its meta`
  if (state.token0 !== meta.token0 || state.token1 !== meta.token1) return `tokens differ from its meta's`
  if (state.kind === "uniswap-v2" && meta.kind === "uniswap-v2") return state.feeBps === meta.feeBps ? undefined : `fee differs from its meta's`
  if (state.kind === "uniswap-v2" || meta.kind === "uniswap-v2") return `state of another pool than its meta`
  if (state.tickSpacing !== meta.tickSpacing) return `tick spacing differs from its meta's`
  // a V4 pool's fee is read from its slot0 (checked against the chain), a V3 pool's is its meta's
  if (meta.kind === "uniswap-v3" && state.fee !== meta.fee) return `fee differs from its meta's`
  if (meta.kind === "uniswap-v4" && state.hooks !== meta.hooks) return `hooks differ from its meta's`
  const spacing = meta.tickSpacing
  const minWord = wordOf(state.tickLower, spacing)
  const maxWord = wordOf(state.tickUpper, spacing)
  const whole = state.tickLower === Math.max(MIN_TICK, minWord * 256 * spacing) && state.tickUpper === Math.min(MAX_TICK, (maxWord + 1) * 256 * spacing - 1)
  if (!whole || maxWord < minWord) return `tick window [${state.tickLower}, ${state.tickUpper}] is not whole bitmap words`
  if (maxWord - minWord + 1 > Math.floor((2 * halfWidth) / (256 * spacing)) + 2) return `tick window [${state.tickLower}, ${state.tickUpper}] is wider than the configured one`
  return undefined
}
