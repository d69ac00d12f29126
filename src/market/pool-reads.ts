// The reads of a pool's state, per pool kind, for the step's batched
// Multicall3 reads: reserves (V2), slot0 + liquidity (V3, V4 through its
// venue's StateView), balances, A and fee (stable pools), one tick's
// liquidity, one tick-bitmap word; the reading of a
// pool's tick window (through the tick lens, or bitmap words then the ticks they
// mark); and the merge of
// re-read ticks into a pool's known tick list. Also the facts of stable pools
// (coins, decimals) and the pools stable factories list (pool_count, pool_list).
import { Effect } from "effect"
import { getAddress, zeroAddress, type Address, type Hex } from "viem"
import { read, RpcError, type Read, type ReadResult } from "../chain/index.ts"
import type { TickInfo } from "../amm/index.ts"
import { ERC20_DECIMALS_ABI, STABLE_FACTORY_ABI, STABLE_POOL_ABI, V2_PAIR_ABI, V3_POOL_ABI, V4_STATE_VIEW_ABI } from "./abis.ts"
import type { ConcentratedMeta, Meta, StableMeta } from "./pool-meta.ts"
import { decodeWindowTicks, encodeWindowTicks, type LensWindow } from "./tick-lens.ts"
import { ticksInWord, type TickWindow } from "./tick-window.ts"

/** Adds a read to a batch; returns its index in the results. */
export type PushRead = <A>(r: Read<A>) => number

/** The value of the `i`th read of a batch, or undefined when that read failed. */
export const valueAt = <A>(results: readonly ReadResult<unknown>[], i: number): A | undefined => {
  const r = results[i]!
  return r.success ? (r.value as A) : undefined
}

/** One batched read at the step's head. */
export type ReadAtHead = (reads: readonly Read<unknown>[]) => Effect.Effect<readonly ReadResult<unknown>[], RpcError>

/** One eth_call of the tick lens (its code placed by a state override) at the step's head: its answer. */
export type LensAtHead = (data: Hex) => Effect.Effect<Hex, RpcError>

/** Bitmap words in one call of the tick lens: some 25M gas, within the usual eth_call gas caps (a call that runs short is asked again). */
const LENS_WORDS = 8_192

export const readFailure = (what: string, meta: Meta) =>
  new RpcError({ reason: "decode", method: "MarketState.step", message: `${what} read of ${meta.kind} pool ${meta.id} failed` })

/** Most coins a stable pool is read for. */
const MAX_STABLE_COINS = 8

/** What a stable factory lists past the pools already known. */
export interface FactoryListing {
  readonly factory: Address
  /** the pools known from now on: pool_count(), or the index of the first pool_list(i) that failed */
  readonly count: bigint
  /** the new pools, in the factory's order */
  readonly pools: readonly Address[]
  /** why the listing stopped short, if it did */
  readonly failure?: string
}

/**
 * The pools each stable factory lists from index `known` on, in two batched reads:
 * pool_count(), then pool_list(i) for every new index. A factory whose pool_count() fails
 * keeps its known count; one whose pool_list(i) fails or reads the zero address stops there,
 * so that the entry is read again after the factory's next log.
 */
export const factoryPools = (factories: readonly { readonly factory: Address; readonly known: bigint }[], readAtHead: ReadAtHead) =>
  Effect.gen(function* () {
    const counts = yield* readAtHead(
      factories.map(({ factory }) => read({ address: factory, abi: STABLE_FACTORY_ABI, functionName: "pool_count", args: [] }) as Read<unknown>),
    )
    const listReads: Read<unknown>[] = []
    const ranges = factories.map(({ factory, known }, f) => {
      const r = counts[f]!
      const count = r.success && (r.value as bigint) > known ? (r.value as bigint) : known
      const at = listReads.length
      for (let i = known; i < count; i++) {
        listReads.push(read({ address: factory, abi: STABLE_FACTORY_ABI, functionName: "pool_list", args: [i] }) as Read<unknown>)
      }
      return { at, count, answered: r.success }
    })
    const lists = listReads.length > 0 ? yield* readAtHead(listReads) : []
    return factories.map(({ factory, known }, f): FactoryListing => {
      const { at, count, answered } = ranges[f]!
      if (!answered) return { factory, count: known, pools: [], failure: "pool_count() failed" }
      const pools: Address[] = []
      for (let i = known; i < count; i++) {
        const r = lists[at + Number(i - known)]!
        if (!r.success || r.value === zeroAddress) return { factory, count: i, pools, failure: `pool_list(${i}) failed` }
        pools.push(getAddress(r.value as Address))
      }
      return { factory, count, pools }
    })
  })

/**
 * A listed (or found) stable pool's facts: its coins (coins(k) until one fails) and their
 * decimals, in two batched reads; undefined for a pool with fewer than two
 * coins or a coin without decimals.
 */
export const stableMetas = (pools: readonly { readonly venue: string; readonly pool: Address }[], readAtHead: ReadAtHead) =>
  Effect.gen(function* () {
    const coinReads: Read<unknown>[] = []
    for (const { pool } of pools) {
      for (let k = 0; k < MAX_STABLE_COINS; k++) {
        coinReads.push(read({ address: pool, abi: STABLE_POOL_ABI, functionName: "coins", args: [BigInt(k)] }) as Read<unknown>)
      }
    }
    const coinResults = yield* readAtHead(coinReads)
    const coinsOf = pools.map((_, p) => {
      const coins: Address[] = []
      for (let k = 0; k < MAX_STABLE_COINS; k++) {
        const r = coinResults[p * MAX_STABLE_COINS + k]!
        if (!r.success) break
        coins.push(getAddress(r.value as Address))
      }
      return coins
    })
    const decimalReads = coinsOf.flat().map((coin) => read({ address: coin, abi: ERC20_DECIMALS_ABI, functionName: "decimals", args: [] }) as Read<unknown>)
    const decimals = yield* readAtHead(decimalReads)
    let at = 0
    return pools.map(({ venue, pool }, p): StableMeta | undefined => {
      const coins = coinsOf[p]!
      const rates: bigint[] = []
      for (const _ of coins) {
        const r = decimals[at++]!
        if (r.success && Number(r.value) <= 36) rates.push(10n ** BigInt(36 - Number(r.value)))
      }
      if (coins.length < 2 || rates.length !== coins.length) return undefined
      return { kind: "curve-stableswap", venue, key: pool.toLowerCase(), id: getAddress(pool), coins, rates }
    })
  })

/**
 * How viem reads one 32-byte word of an answer (uintN/intN: a number up to 48 bits, a bigint
 * above; bool: 0 or 1), or undefined for a type that is not one word.
 */
const wordReader = (type: string): ((word: string) => unknown) | undefined => {
  if (type === "bool") {
    return (word) => {
      const v = BigInt(`0x${word}`)
      if (v > 1n) throw new Error(`not a bool: 0x${word}`)
      return v === 1n
    }
  }
  const match = /^(u?)int(\d*)$/.exec(type)
  if (match === null) return undefined
  const signed = match[1] === ""
  const bits = Number(match[2] || "256")
  const whole = signed ? (word: string) => BigInt.asIntN(256, BigInt(`0x${word}`)) : (word: string) => BigInt(`0x${word}`)
  if (bits > 48) return whole
  return (word) => {
    const n = Number(whole(word))
    if (!Number.isSafeInteger(n)) throw new Error(`0x${word} is past a safe integer`)
    return n
  }
}

/**
 * A read whose answer, words only, is decoded word by word (viem's values, in a fraction of
 * its time: a step decodes hundreds of answers); any other answer as `read` decodes it.
 */
const wordRead = <R extends Read<unknown>>(r: R, abi: readonly { readonly type: string; readonly name?: string; readonly outputs?: readonly { readonly type: string }[] }[], functionName: string): R => {
  const outputs = abi.find((item) => item.type === "function" && item.name === functionName)?.outputs ?? []
  const readers = outputs.map((o) => wordReader(o.type))
  if (outputs.length === 0 || readers.some((f) => f === undefined)) return r
  const n = readers.length
  const decode = (data: string): unknown => {
    if (data.length < 2 + 64 * n) throw new Error(`an answer of ${(data.length - 2) / 2} bytes for ${n} words`)
    if (n === 1) return readers[0]!(data.slice(2, 66))
    const values: unknown[] = []
    for (let i = 0; i < n; i++) values.push(readers[i]!(data.slice(2 + 64 * i, 66 + 64 * i)))
    return values
  }
  return { ...r, decode } as R
}

/**
 * A pool's state read of one kind: its call data from the function's selector and one static
 * argument word (or none), its answer decoded word by word. One per function, shared by every
 * pool: a pool's read is then its address, the call data and this decoder, nothing of its own
 * kept between blocks.
 */
const stateRead = <const abi extends readonly { readonly type: string; readonly name?: string; readonly outputs?: readonly { readonly type: string }[] }[]>(
  abi: abi,
  functionName: string,
  arg?: bigint | Hex,
) => {
  const args = arg === undefined ? [] : [typeof arg === "bigint" ? 0n : `0x${"00".repeat(32)}`]
  const template = wordRead(read({ address: zeroAddress, abi: abi as never, functionName: functionName as never, args: args as never }), abi, functionName)
  // the selector: the call data's first four bytes
  const selector = template.callData.slice(0, 10)
  const argWord = (value: bigint | Hex): string =>
    typeof value === "bigint" ? value.toString(16).padStart(64, "0") : value.slice(2).padStart(64, "0")
  return (target: Address, value?: bigint | Hex): Read<unknown> => ({
    target,
    callData: value === undefined ? template.callData : (`${selector}${argWord(value)}` as Hex),
    decode: template.decode,
  })
}

const v2Reserves = stateRead(V2_PAIR_ABI, "getReserves")
const v3Slot0 = stateRead(V3_POOL_ABI, "slot0")
const v3Liquidity = stateRead(V3_POOL_ABI, "liquidity")
const v4Slot0 = stateRead(V4_STATE_VIEW_ABI, "getSlot0", `0x${"00".repeat(32)}`)
const v4Liquidity = stateRead(V4_STATE_VIEW_ABI, "getLiquidity", `0x${"00".repeat(32)}`)
const stableBalance = stateRead(STABLE_POOL_ABI, "balances", 0n)
const stableA = stateRead(STABLE_POOL_ABI, "A_precise")
const stableFee = stateRead(STABLE_POOL_ABI, "fee")
const stableRampEnd = stateRead(STABLE_POOL_ABI, "future_A_time")
const stableAdminFee = stateRead(STABLE_POOL_ABI, "admin_fee")

/** The reads of pools; V4 pools are read through their venue's StateView. */
export const poolReads = () => {
  /**
   * reserves (V2); slot0 then liquidity (V3, V4); balances, A_precise, fee,
   * future_A_time and admin_fee (stable pools): their indexes in the batch
   */
  const baseReadsOf = (meta: Meta, push: PushRead): number[] => {
    switch (meta.kind) {
      case "uniswap-v2":
        return [push(v2Reserves(meta.id))]
      case "uniswap-v3":
        return [push(v3Slot0(meta.id)), push(v3Liquidity(meta.id))]
      case "uniswap-v4":
        return [push(v4Slot0(meta.stateView, meta.id)), push(v4Liquidity(meta.stateView, meta.id))]
      case "curve-stableswap":
        return [
          ...meta.coins.map((_, i) => push(stableBalance(meta.id, BigInt(i)))),
          push(stableA(meta.id)),
          push(stableFee(meta.id)),
          push(stableRampEnd(meta.id)),
          push(stableAdminFee(meta.id)),
        ]
    }
  }

  /** (liquidityGross, liquidityNet) of one tick */
  const tickRead = (meta: ConcentratedMeta, tick: number): Read<readonly [bigint, bigint]> => {
    if (meta.kind === "uniswap-v3") {
      const r = read({ address: meta.id, abi: V3_POOL_ABI, functionName: "ticks", args: [tick] })
      return { ...r, decode: (data) => { const v = r.decode(data); return [v[0], v[1]] as const } }
    }
    return read({ address: meta.stateView, abi: V4_STATE_VIEW_ABI, functionName: "getTickLiquidity", args: [meta.id, tick] })
  }

  const bitmapRead = (meta: ConcentratedMeta, word: number): Read<bigint> =>
    meta.kind === "uniswap-v3"
      ? read({ address: meta.id, abi: V3_POOL_ABI, functionName: "tickBitmap", args: [word] })
      : read({ address: meta.stateView, abi: V4_STATE_VIEW_ABI, functionName: "getTickBitmap", args: [meta.id, word] })

  /**
   * Every initialized tick in each pool's window, in the pools' order, through Multicall3: the
   * bitmap words of the windows in one batched read, then every tick they mark in another.
   */
  const windowTicksByReads = (windows: readonly { readonly meta: ConcentratedMeta; readonly window: TickWindow }[], readAtHead: ReadAtHead) =>
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

  // false once the node showed that it does not run the lens (state overrides ignored or refused)
  let lensRuns = true
  let lensWarned = false

  /**
   * The windows' ticks through the tick lens, a group of windows of at most LENS_WORDS words
   * per call (several calls at once); a call whose gas ran short is asked again for the windows
   * it did not read. Undefined for a window the lens could not read: read through Multicall3.
   */
  const windowTicksByLens = (windows: readonly { readonly meta: ConcentratedMeta; readonly window: TickWindow }[], lensAtHead: LensAtHead) =>
    Effect.gen(function* () {
      const groups: number[][] = []
      let words = Number.POSITIVE_INFINITY
      for (const [i, { window }] of windows.entries()) {
        const size = window.maxWord - window.minWord + 1
        if (words + size > LENS_WORDS) {
          groups.push([])
          words = 0
        }
        groups.at(-1)!.push(i)
        words += size
      }
      const ticksOf: (readonly TickInfo[] | undefined)[] = windows.map(() => undefined)
      const giveUp = (why: string, stop: boolean) =>
        Effect.gen(function* () {
          if (stop) lensRuns = false
          const line = `MarketState: the tick lens did not run (${why}); reading tick windows through Multicall3${stop ? " from now on" : ""}`
          if (!lensWarned) {
            lensWarned = true
            yield* Effect.logWarning(line)
          } else yield* Effect.logDebug(line)
        })
      yield* Effect.forEach(
        groups,
        (group) =>
          Effect.gen(function* () {
            let rest = group
            while (rest.length > 0 && lensRuns) {
              const answer = yield* Effect.either(lensAtHead(encodeWindowTicks(rest.map((i) => windows[i]!))))
              if (answer._tag === "Left") {
                // a refusal of the override or the call is the node's way; a timeout may pass
                const e = answer.left
                return yield* giveUp(`${e.reason}: ${e.message}`, e.reason === "rpc" || e.reason === "unsupported" || e.reason === "revert")
              }
              if (answer.right === "0x") return yield* giveUp("no answer: the node ignores state overrides", true)
              let decoded: LensWindow[]
              try {
                decoded = decodeWindowTicks(answer.right, rest.length)
              } catch (e) {
                return yield* giveUp(String(e), true)
              }
              const notRead: number[] = []
              for (const [k, result] of decoded.entries()) {
                const pool = rest[k]!
                if (result === "failed") return yield* readFailure("tick window", windows[pool]!.meta)
                if (result === "not-read") notRead.push(pool)
                else ticksOf[pool] = result.ticks
              }
              // no window read at all: the node's gas cap is below one window's reads
              if (notRead.length === rest.length) return yield* giveUp("the call's gas is too small for one window", false)
              rest = notRead
            }
          }),
        { concurrency: 8, discard: true },
      )
      return ticksOf
    })

  /**
   * Every initialized tick in each pool's window, in the pools' order: through the tick lens,
   * or through Multicall3 for the windows it could not read.
   */
  const windowTicks = (windows: readonly { readonly meta: ConcentratedMeta; readonly window: TickWindow }[], readAtHead: ReadAtHead, lensAtHead: LensAtHead) =>
    Effect.gen(function* () {
      const byLens = lensRuns ? yield* windowTicksByLens(windows, lensAtHead) : windows.map(() => undefined)
      const missing = windows.flatMap((w, i) => (byLens[i] === undefined ? [i] : []))
      if (missing.length === 0) return byLens as readonly (readonly TickInfo[])[]
      const byReads = yield* windowTicksByReads(missing.map((i) => windows[i]!), readAtHead)
      const ticksOf = [...byLens]
      for (const [k, i] of missing.entries()) ticksOf[i] = byReads[k]!
      return ticksOf as readonly (readonly TickInfo[])[]
    })

  return { baseReadsOf, tickRead, bitmapRead, windowTicks, windowTicksByReads }
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
