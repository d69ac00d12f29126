// The reads of a pool's state, per pool kind, for the step's batched
// Multicall3 reads: reserves (V2), slot0 + liquidity (V3, V4 through
// StateView), one tick's liquidity, one tick-bitmap word; the reading of a
// pool's tick window (bitmap words, then the ticks they mark); and the merge of
// re-read ticks into a pool's known tick list.
import { Effect } from "effect"
import type { Address } from "viem"
import { read, RpcError, type Read, type ReadResult } from "../chain/index.ts"
import type { TickInfo } from "../amm/index.ts"
import { V2_PAIR_ABI, V3_POOL_ABI, V4_STATE_VIEW_ABI } from "./abis.ts"
import type { ConcentratedMeta, Meta } from "./pool-meta.ts"
import { ticksInWord, type TickWindow } from "./tick-window.ts"

/** Adds a read to a batch; returns its index in the results. */
export type PushRead = <A>(r: Read<A>) => number

/** One batched read at the step's head. */
export type ReadAtHead = (reads: readonly Read<unknown>[]) => Effect.Effect<readonly ReadResult<unknown>[], RpcError>

export const readFailure = (what: string, meta: Meta) =>
  new RpcError({ reason: "decode", method: "MarketState.step", message: `${what} read of ${meta.dex} pool ${meta.id} failed` })

/** The reads of pools; V4 pools are read through `stateView` (set whenever a PoolManager is). */
export const poolReads = (stateView: Address | undefined) => {
  /** reserves (V2), or slot0 then liquidity (V3, V4): their indexes in the batch */
  const baseReadsOf = (meta: Meta, push: PushRead): number[] => {
    switch (meta.dex) {
      case "uniswap-v2":
        return [push(read({ address: meta.id, abi: V2_PAIR_ABI, functionName: "getReserves", args: [] }))]
      case "uniswap-v3":
        return [
          push(read({ address: meta.id, abi: V3_POOL_ABI, functionName: "slot0", args: [] })),
          push(read({ address: meta.id, abi: V3_POOL_ABI, functionName: "liquidity", args: [] })),
        ]
      case "uniswap-v4":
        return [
          push(read({ address: stateView!, abi: V4_STATE_VIEW_ABI, functionName: "getSlot0", args: [meta.id] })),
          push(read({ address: stateView!, abi: V4_STATE_VIEW_ABI, functionName: "getLiquidity", args: [meta.id] })),
        ]
    }
  }

  /** (liquidityGross, liquidityNet) of one tick */
  const tickRead = (meta: ConcentratedMeta, tick: number): Read<readonly [bigint, bigint]> => {
    if (meta.dex === "uniswap-v3") {
      const r = read({ address: meta.id, abi: V3_POOL_ABI, functionName: "ticks", args: [tick] })
      return { ...r, decode: (data) => { const v = r.decode(data); return [v[0], v[1]] as const } }
    }
    return read({ address: stateView!, abi: V4_STATE_VIEW_ABI, functionName: "getTickLiquidity", args: [meta.id, tick] })
  }

  const bitmapRead = (meta: ConcentratedMeta, word: number): Read<bigint> =>
    meta.dex === "uniswap-v3"
      ? read({ address: meta.id, abi: V3_POOL_ABI, functionName: "tickBitmap", args: [word] })
      : read({ address: stateView!, abi: V4_STATE_VIEW_ABI, functionName: "getTickBitmap", args: [meta.id, word] })

  /**
   * Every initialized tick in each pool's window, in the pools' order: the bitmap words of
   * the windows in one batched read, then every tick they mark in another.
   */
  const windowTicks = (windows: readonly { readonly meta: ConcentratedMeta; readonly window: TickWindow }[], readAtHead: ReadAtHead) =>
    Effect.gen(function* () {
      const wordReads: Read<unknown>[] = []
      const wordIndex: { pool: number; word: number }[] = []
      for (const [pool, { meta, window }] of windows.entries()) {
        for (let word = window.minWord; word <= window.maxWord; word++) {
          wordReads.push(bitmapRead(meta, word) as Read<unknown>)
          wordIndex.push({ pool, word })
        }
      }
      const words = yield* readAtHead(wordReads)
      const initialized: number[][] = windows.map(() => [])
      for (const [i, { pool, word }] of wordIndex.entries()) {
        const r = words[i]!
        if (!r.success) return yield* readFailure("tick bitmap", windows[pool]!.meta)
        initialized[pool]!.push(...ticksInWord(word, r.value as bigint, windows[pool]!.meta.tickSpacing))
      }
      const tickIndex: { pool: number; tick: number }[] = []
      const liquidityReads: Read<unknown>[] = []
      for (const [pool, list] of initialized.entries()) {
        for (const tick of list) {
          liquidityReads.push(tickRead(windows[pool]!.meta, tick) as Read<unknown>)
          tickIndex.push({ pool, tick })
        }
      }
      const nets = yield* readAtHead(liquidityReads)
      const ticksOf: TickInfo[][] = windows.map(() => [])
      for (const [i, { pool, tick }] of tickIndex.entries()) {
        const r = nets[i]!
        if (!r.success) return yield* readFailure("tick", windows[pool]!.meta)
        const [, liquidityNet] = r.value as readonly [bigint, bigint]
        ticksOf[pool]!.push({ tick, liquidityNet })
      }
      return ticksOf
    })

  return { baseReadsOf, tickRead, windowTicks }
}

/** The window's ticks after a liquidity change: named ticks re-read, uninitialized ones dropped. */
export const mergeTicks = (
  ticks: readonly TickInfo[],
  reread: readonly { tick: number; at: number }[],
  value: <A>(i: number) => A | undefined,
): readonly TickInfo[] | undefined => {
  if (reread.length === 0) return ticks
  const byTick = new Map(ticks.map((t) => [t.tick, t]))
  for (const { tick, at } of reread) {
    const r = value<readonly [bigint, bigint]>(at)
    if (r === undefined) return undefined
    const [gross, net] = r
    if (gross === 0n) byTick.delete(tick)
    else byTick.set(tick, { tick, liquidityNet: net })
  }
  return [...byTick.values()].sort((a, b) => a.tick - b.tick)
}
