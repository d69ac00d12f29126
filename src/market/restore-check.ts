// The check of a restored market against the chain before it is served, in one
// batched read at the head:
//  - every pool's base state: reserves (V2); slot0 and liquidity (V3, V4: the
//    price, the tick, the liquidity, a V4 pool's fee and whether a protocol fee
//    hides it); balances, A and fee (stable pools: and whether A is ramping);
//  - every V3/V4 pool's ticks: each stored tick's liquidity (it must be
//    initialized, with the stored liquidityNet), and the tick-bitmap words
//    within NEAR_TICKS of the current tick, where quotes cross their first ticks
//    (no initialized tick there may be missing from the stored list). The
//    words of the whole window are not read: they are most of the reads of a
//    load from the chain (a 0.01% pool's window is 257 words), and the
//    document is authenticated; a tick missing far from the price is the one
//    thing left to its HMAC alone;
//  - the facts of a random sample of pools: a V2 pair's and a V3 pool's tokens
//    (and fee and tick spacing) and its factory's getPair / getPool answering
//    its address; a stable pool's coins and their decimals (a V4 pool's facts
//    are the hash that is its id, checked for every pool without a read).
// The first difference is returned in words; the restore then refuses the
// whole snapshot, since what it cannot read again (which pools exist, which are
// excluded, the executor's registry) came from the same document.
import { Effect } from "effect"
import { zeroAddress, type Address } from "viem"
import { read, traced, type Read, type ReadResult } from "../chain/index.ts"
import type { PoolState, TickInfo } from "../amm/index.ts"
import { ERC20_DECIMALS_ABI, MULTICALL3_BLOCK_ABI, STABLE_POOL_ABI, V2_FACTORY_ABI, V2_PAIR_ABI, V3_FACTORY_ABI, V3_POOL_ABI } from "./abis.ts"
import type { MarketConfig, MarketVenue } from "./market-config.ts"
import type { ConcentratedMeta, Meta } from "./pool-meta.ts"
import { poolReads, valueAt, type ReadAtHead } from "./pool-reads.ts"
import type { ActorState } from "./step.ts"
import { metaProblem, stateProblem } from "./stored-facts.ts"
import { ticksInWord, tickWindow, wordOf } from "./tick-window.ts"

/**
 * How far from the current tick the bitmap is read again: 4096 ticks, a price factor of 1.5 either
 * way (a 0.01% pool's 33 words instead of the 257 of its window, a 0.3% pool's 1 or 2 instead of 5 or 6).
 */
export const NEAR_TICKS = 4096

/** Most coins a stable pool is read for (as its discovery reads them). */
const MAX_STABLE_COINS = 8

type Results = readonly ReadResult<unknown>[]

const same = (a: string | undefined, b: string): boolean => a !== undefined && a.toLowerCase() === b.toLowerCase()

/** The reads of a pool's facts, and the comparison of their results with its meta. */
const factReads = (meta: Meta, venue: MarketVenue, push: <A>(r: Read<A>) => number): ((results: Results) => string | undefined) => {
  switch (meta.kind) {
    case "uniswap-v2": {
      const factory = (venue as Extract<MarketVenue, { kind: "uniswap-v2" }>).factory
      const at = [
        push(read({ address: meta.id, abi: V2_PAIR_ABI, functionName: "token0", args: [] })),
        push(read({ address: meta.id, abi: V2_PAIR_ABI, functionName: "token1", args: [] })),
        push(read({ address: factory, abi: V2_FACTORY_ABI, functionName: "getPair", args: [meta.token0, meta.token1] })),
      ]
      return (results) => {
        const [token0, token1, pair] = at.map((i) => valueAt<Address>(results, i))
        if (!same(token0, meta.token0) || !same(token1, meta.token1)) return `its tokens are ${token0}/${token1} on the chain`
        return same(pair, meta.id) ? undefined : `its venue's factory does not know it (getPair answers ${pair})`
      }
    }
    case "uniswap-v3": {
      const factory = (venue as Extract<MarketVenue, { kind: "uniswap-v3" }>).factory
      const at = [
        push(read({ address: meta.id, abi: V3_POOL_ABI, functionName: "token0", args: [] })),
        push(read({ address: meta.id, abi: V3_POOL_ABI, functionName: "token1", args: [] })),
        push(read({ address: meta.id, abi: V3_POOL_ABI, functionName: "fee", args: [] })),
        push(read({ address: meta.id, abi: V3_POOL_ABI, functionName: "tickSpacing", args: [] })),
        push(read({ address: factory, abi: V3_FACTORY_ABI, functionName: "getPool", args: [meta.token0, meta.token1, meta.fee] })),
      ]
      return (results) => {
        const [token0, token1] = at.slice(0, 2).map((i) => valueAt<Address>(results, i))
        const [fee, tickSpacing] = at.slice(2, 4).map((i) => valueAt<number>(results, i))
        if (!same(token0, meta.token0) || !same(token1, meta.token1)) return `its tokens are ${token0}/${token1} on the chain`
        if (fee !== meta.fee || tickSpacing !== meta.tickSpacing) return `its fee and tick spacing are ${fee}, ${tickSpacing} on the chain`
        const pool = valueAt<Address>(results, at[4]!)
        return same(pool, meta.id) ? undefined : `its venue's factory does not know it (getPool answers ${pool})`
      }
    }
    case "uniswap-v4":
      // its id is the hash of its facts (stored-facts.ts); its slot0 is read with every pool
      return () => undefined
    case "curve-stableswap": {
      const n = meta.coins.length
      const coinsAt = Array.from({ length: Math.min(n + 1, MAX_STABLE_COINS) }, (_, k) =>
        push(read({ address: meta.id, abi: STABLE_POOL_ABI, functionName: "coins", args: [BigInt(k)] })),
      )
      const decimalsAt = meta.coins.map((coin) => push(read({ address: coin, abi: ERC20_DECIMALS_ABI, functionName: "decimals", args: [] })))
      return (results) => {
        const coins = coinsAt.map((i) => valueAt<Address>(results, i))
        if (meta.coins.some((coin, k) => !same(coins[k], coin))) return `its coins are ${coins.slice(0, n).join(", ")} on the chain`
        const extra = coins[n]
        if (extra !== undefined && extra !== zeroAddress) return `it has more than its ${n} coins on the chain`
        const rates = decimalsAt.map((i) => valueAt<number>(results, i)).map((d) => (d === undefined || d > 36 ? undefined : 10n ** BigInt(36 - d)))
        return rates.every((r, k) => r === meta.rates[k]) ? undefined : `its coins' decimals differ on the chain`
      }
    }
  }
}

/** The reads of a pool's base state (and of a V3/V4 pool's ticks), and their comparison with the stored state. */
const stateReads = (
  meta: Meta,
  state: PoolState,
  world: ActorState,
  reads: ReturnType<typeof poolReads>,
  push: <A>(r: Read<A>) => number,
): ((results: Results, blockTimestamp: bigint | undefined) => string | undefined) => {
  const base = reads.baseReadsOf(meta, push)
  if (meta.kind === "uniswap-v2" && state.kind === "uniswap-v2") {
    return (results) => {
      const reserves = valueAt<readonly [bigint, bigint, number]>(results, base[0]!)
      if (reserves === undefined) return `getReserves() failed`
      return reserves[0] === state.reserve0 && reserves[1] === state.reserve1 ? undefined : `reserves ${state.reserve0}/${state.reserve1} stored, ${reserves[0]}/${reserves[1]} on the chain`
    }
  }
  if (meta.kind === "curve-stableswap" && state.kind === "curve-stableswap") {
    return (results, blockTimestamp) => {
      const n = meta.coins.length
      const balances = base.slice(0, n).map((i) => valueAt<bigint>(results, i))
      const [amp, fee] = [valueAt<bigint>(results, base[n]!), valueAt<bigint>(results, base[n + 1]!)]
      if (balances.some((b) => b === undefined) || amp === undefined || fee === undefined) return `balances/A_precise/fee read failed`
      if (balances.some((b, i) => b !== state.balances[i])) return `balances ${state.balances.join("/")} stored, ${balances.join("/")} on the chain`
      if (amp !== state.amp || fee !== state.fee) return `A ${state.amp}, fee ${state.fee} stored, A ${amp}, fee ${fee} on the chain`
      const ramping = (valueAt<bigint>(results, base[n + 2]!) ?? 0n) > (blockTimestamp ?? 0n)
      return ramping === world.ramping.has(meta.key) ? undefined : ramping ? `its A is ramping, stored as steady` : `stored as ramping, its A is steady`
    }
  }
  if ((meta.kind === "uniswap-v3" || meta.kind === "uniswap-v4") && (state.kind === "uniswap-v3" || state.kind === "uniswap-v4")) {
    const concentrated = meta as ConcentratedMeta
    const spacing = concentrated.tickSpacing
    // the words near the current tick, within the stored window
    const near = tickWindow(state.tick, spacing, NEAR_TICKS)
    const [minWord, maxWord] = [Math.max(near.minWord, wordOf(state.tickLower, spacing)), Math.min(near.maxWord, wordOf(state.tickUpper, spacing))]
    const words: { word: number; at: number }[] = []
    for (let word = minWord; word <= maxWord; word++) words.push({ word, at: push(reads.bitmapRead(concentrated, word)) })
    const tickAt = state.ticks.map((t) => push(reads.tickRead(concentrated, t.tick)))
    return (results) => {
      const slot = valueAt<readonly [bigint, number, ...unknown[]]>(results, base[0]!)
      const liquidity = valueAt<bigint>(results, base[1]!)
      if (slot === undefined || liquidity === undefined) return `slot0/liquidity read failed`
      const [sqrtPriceX96, tick] = slot
      if (sqrtPriceX96 !== state.sqrtPriceX96 || tick !== state.tick) return `price ${state.sqrtPriceX96} (tick ${state.tick}) stored, ${sqrtPriceX96} (tick ${tick}) on the chain`
      if (liquidity !== state.liquidity) return `liquidity ${state.liquidity} stored, ${liquidity} on the chain`
      if (meta.kind === "uniswap-v4") {
        if (Number(slot[3]) !== state.fee) return `fee ${state.fee} stored, ${Number(slot[3])} on the chain`
        if ((Number(slot[2]) !== 0) !== world.hidden.has(meta.key)) return `its protocol fee is not as stored`
      }
      for (const [i, t] of (state.ticks as readonly TickInfo[]).entries()) {
        const r = valueAt<readonly [bigint, bigint]>(results, tickAt[i]!)
        if (r === undefined) return `tick ${t.tick} read failed`
        if (r[0] === 0n) return `tick ${t.tick} is stored but not initialized on the chain`
        if (r[1] !== t.liquidityNet) return `tick ${t.tick}: liquidityNet ${t.liquidityNet} stored, ${r[1]} on the chain`
      }
      const initialized: number[] = []
      for (const { word, at } of words) {
        const bitmap = valueAt<bigint>(results, at)
        if (bitmap === undefined) return `tick bitmap word ${word} read failed`
        initialized.push(...ticksInWord(word, bitmap, spacing))
      }
      const [lower, upper] = [minWord * 256 * spacing, (maxWord + 1) * 256 * spacing - 1]
      const stored = new Set(state.ticks.filter((t) => t.tick >= lower && t.tick <= upper).map((t) => t.tick))
      const missing = initialized.find((t) => !stored.has(t))
      return missing === undefined ? undefined : `initialized tick ${missing} (near the price) is missing from the stored ticks`
    }
  }
  return () => `state of another kind than its meta`
}

/**
 * Whether a restored market (caught up to `head`) is the chain's at `head`: undefined when it is,
 * else the first difference in words. `sample` are the pools whose facts are read too.
 */
export const restoredMarketProblem = (config: MarketConfig, world: ActorState, head: bigint, halfWidth: number, sample: readonly string[], readAtHead: ReadAtHead) =>
  Effect.gen(function* () {
    const venues = new Map(config.venues.map((v) => [v.name, v]))
    for (const meta of world.metas.values()) {
      const problem = metaProblem(meta, venues)
      if (problem !== undefined) return `pool ${meta.key}: ${problem}`
    }
    for (const [key, state] of world.states) {
      const problem = stateProblem(state, world.metas.get(key)!, halfWidth)
      if (problem !== undefined) return `pool ${key}: ${problem}`
    }

    const reads: Read<unknown>[] = []
    const push = <A>(r: Read<A>): number => reads.push(r as Read<unknown>) - 1
    const timestampAt = push(read({ address: config.multicall3, abi: MULTICALL3_BLOCK_ABI, functionName: "getCurrentBlockTimestamp", args: [] }))
    const pools = poolReads()
    const checks: { key: string; what: string; check: (results: Results, blockTimestamp: bigint | undefined) => string | undefined }[] = []
    for (const [key, state] of world.states) checks.push({ key, what: "", check: stateReads(world.metas.get(key)!, state, world, pools, push) })
    for (const key of sample) {
      const meta = world.metas.get(key)!
      checks.push({ key, what: "facts: ", check: factReads(meta, venues.get(meta.venue)!, push) })
    }
    const results = yield* readAtHead(reads)
    const blockTimestamp = valueAt<bigint>(results, timestampAt)
    for (const { key, what, check } of checks) {
      const problem = check(results, blockTimestamp)
      if (problem !== undefined) return `pool ${key} disagrees with the chain at block ${head}: ${what}${problem}`
    }
    return undefined
  }).pipe(traced("MarketState.checkRestored", { attributes: { pools: world.states.size, sample: sample.length } }))
