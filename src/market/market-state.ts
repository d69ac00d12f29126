// MarketState: the actor that owns the market. One fiber discovers pools from
// the V2/V3 factories and the V4 PoolManager, reads their full state once, then
// follows new blocks and re-reads only the pools that the block's logs touched,
// in one batched read at the block. Each result is published as an immutable
// snapshot; readers never wait on the chain. On RPC failures it keeps serving
// the last snapshot, retries with backoff and reports how stale it is.
//
// One step, from the last processed block to the head:
//  1. eth_getLogs over the factories, the PoolManager and the known V2/V3 pools:
//     PairCreated / PoolCreated / Initialize discover pools; Sync, Swap, Mint,
//     Burn (V2, V3) and Swap, ModifyLiquidity, ProtocolFeeUpdated (V4, by pool id)
//     mark pools touched; Mint, Burn and ModifyLiquidity also name two ticks.
//  2. New pools are checked with Tokens.routability (holders: the pool, or the
//     PoolManager); pools with an unroutable token, hooks or a dynamic fee are
//     not published. A pool whose tokens could not be checked yet (empty) is
//     checked again when it is next touched.
//  3. One Multicall3 eth_call at the head: block timestamp and base fee, then
//     reserves (V2) or slot0 + liquidity (V3, V4 via StateView) of every new or
//     touched pool, and the named ticks of touched pools. Swaps never change a
//     tick's liquidityNet, so a touched pool keeps its tick list unless a
//     liquidity change named a tick.
//  4. Only for new pools and pools whose price drifted into the outer quarter of
//     their tick window: the window's bitmap words, then its initialized ticks
//     (two more batched reads). The window is whole bitmap words covering
//     ±tickWindow ticks around the current tick (default 32768 ticks, a price
//     factor of ~26.5 either way); each pool publishes it as [tickLower, tickUpper].
// The head is polled (eth_blockNumber) every `pollInterval`; several blocks mined
// between polls are processed as one step. A head below the processed block (a
// node reset) rebuilds the market from `fromBlock`. Arc finalizes blocks
// deterministically, so reorgs above the head are not handled.
import { Clock, Context, Duration, Effect, Layer, Option, Ref, Schedule, Stream, SubscriptionRef } from "effect"
import { decodeAbiParameters, getAddress, hexToBigInt, zeroAddress, type Address, type Hex } from "viem"
import { read, Rpc, RpcError, type Read, type ReadResult, type RpcLog, type RpcService } from "../chain/rpc.ts"
import { Tokens, type Routability, type TokensService } from "../tokens/index.ts"
import {
  ALL_TOPICS,
  MULTICALL3_BLOCK_ABI,
  TOPIC,
  V2_PAIR_ABI,
  V3_POOL_ABI,
  V4_STATE_VIEW_ABI,
} from "./abis.ts"
import type { PriceFeedConfig } from "../pricing/index.ts"
import { blockSettingsReads } from "./block-settings.ts"
import { DEFAULT_TICK_WINDOW, needsRecentering, tickWindow, ticksInWord } from "./tick-window.ts"
import type { ConcentratedPoolState, PoolState, TickInfo, V2PoolState } from "../amm/index.ts"
import type { World } from "./types.ts"

export interface MarketConfig {
  readonly v2Factory?: Address
  readonly v3Factory?: Address
  readonly poolManager?: Address
  /** V4's StateView lens; required with `poolManager` */
  readonly stateView?: Address
  readonly multicall3: Address
  /** the route executor whose settings (protocol fee, pause) are read with every block */
  readonly executor?: Address
  /** reference price feeds read with every block */
  readonly priceFeeds?: readonly PriceFeedConfig[]
  /** the first block searched for pool creations (the factories' deployment block, say) */
  readonly fromBlock: bigint
  /** half-width of the tick window kept around each pool's current tick (default 32768) */
  readonly tickWindow?: number
  /** how often the head is polled (default 250 ms) */
  readonly pollInterval?: Duration.DurationInput
  /** most blocks per eth_getLogs request (default 5000) */
  readonly logChunkBlocks?: bigint
  /** first retry delay after an RPC failure, doubled up to `retryMax` (defaults 100 ms, 5 s) */
  readonly retryBase?: Duration.DurationInput
  readonly retryMax?: Duration.DurationInput
  /** attempts at the initial load before the layer fails (default 5) */
  readonly startAttempts?: number
}

export interface Staleness {
  /** the served snapshot's block */
  readonly blockNumber: bigint
  readonly blockTimestamp: bigint
  /** wall-clock ms of the last poll that reached the chain and found the snapshot current */
  readonly lastSuccessAt: number
  readonly sinceSuccessMs: number
  /** now minus the snapshot block's timestamp (large on a chain that mines on demand) */
  readonly blockAgeSeconds: bigint
  readonly failing: boolean
  readonly consecutiveFailures: number
  readonly lastError: Option.Option<RpcError>
}

export interface MarketStateService {
  /** the latest snapshot; never waits on the chain */
  readonly snapshot: Effect.Effect<World>
  /** the current snapshot, then every new one */
  readonly changes: Stream.Stream<World>
  /** the first snapshot at or after `blockNumber` (waits for it; add a timeout) */
  readonly awaitBlock: (blockNumber: bigint) => Effect.Effect<World>
  readonly staleness: Effect.Effect<Staleness>
  /** discovered pools that are not published, by id, with the reason */
  readonly excluded: Effect.Effect<ReadonlyMap<string, string>>
  /** the half-width of the tick window (ticks) */
  readonly tickWindow: number
}

type Meta =
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

type ConcentratedMeta = Extract<Meta, { dex: "uniswap-v3" | "uniswap-v4" }>

/** Why a discovered pool is not published; `recheck` pools are checked again when touched. */
interface Exclusion {
  readonly reason: string
  readonly recheck: boolean
}

/** The actor's own state: everything it knows after processing `block`. */
interface ActorState {
  readonly block: bigint
  readonly metas: ReadonlyMap<string, Meta>
  readonly excluded: ReadonlyMap<string, Exclusion>
  /** the last state read of every routable pool (published unless `hidden`) */
  readonly states: ReadonlyMap<string, PoolState>
  /** routable pools whose current state the math does not model (a V4 protocol fee) */
  readonly hidden: ReadonlySet<string>
  /** routers the executor allows (lower-case), from its RouterAllowlistChanged events */
  readonly allowedRouters: ReadonlySet<string>
  readonly snapshot: World
}

/** V4's flag for a dynamic-fee pool; such pools take their fee from hooks and are not routed. */
const DYNAMIC_FEE_FLAG = 0x800000

const int24OfTopic = (topic: Hex): number => Number(hexToBigInt(topic, { signed: true }))

const sortedPoolsByToken = (pools: ReadonlyMap<string, PoolState>): ReadonlyMap<string, readonly string[]> => {
  const byToken = new Map<string, string[]>()
  for (const [key, pool] of pools) {
    for (const token of [pool.token0.toLowerCase(), pool.token1.toLowerCase()]) {
      const list = byToken.get(token)
      if (list) list.push(key)
      else byToken.set(token, [key])
    }
  }
  for (const list of byToken.values()) list.sort()
  return byToken
}

export const makeMarketState = (config: MarketConfig) =>
  Effect.gen(function* () {
    const rpc = yield* Rpc
    const tokens = yield* Tokens
    if ((config.poolManager === undefined) !== (config.stateView === undefined)) {
      return yield* Effect.dieMessage("MarketConfig: poolManager and stateView go together")
    }
    const halfWidth = config.tickWindow ?? DEFAULT_TICK_WINDOW
    const pollInterval = Duration.decode(config.pollInterval ?? "250 millis")
    const chunkBlocks = config.logChunkBlocks ?? 5_000n
    const retrySchedule = Schedule.exponential(config.retryBase ?? "100 millis").pipe(
      Schedule.union(Schedule.spaced(config.retryMax ?? "5 seconds")),
    )

    const empty = (block: bigint): ActorState => ({
      block,
      metas: new Map(),
      excluded: new Map(),
      states: new Map(),
      hidden: new Set(),
      allowedRouters: new Set(),
      snapshot: {
        chainId: rpc.chainId,
        blockNumber: block,
        blockTimestamp: 0n,
        baseFeeWei: 0n,
        executor: undefined,
        prices: new Map(),
        gasPriceWei: 0n,
        pools: new Map(),
        poolsByToken: new Map(),
        refreshed: [],
      },
    })

    const step = stepper(config, rpc, tokens, halfWidth, chunkBlocks)

    // the initial load: everything from fromBlock to the head, before the layer is ready
    const initial = yield* Effect.gen(function* () {
      const head = yield* rpc.blockNumber()
      return yield* step(empty(config.fromBlock - 1n), head)
    }).pipe(
      Effect.retry(Schedule.intersect(retrySchedule, Schedule.recurs(Math.max(0, (config.startAttempts ?? 5) - 1)))),
      Effect.withSpan("MarketState.initialLoad"),
    )

    const ref = yield* SubscriptionRef.make(initial.snapshot)
    const excludedRef = yield* Ref.make(excludedView(initial))
    const startedAt = yield* Clock.currentTimeMillis
    const health = yield* Ref.make({
      lastSuccessAt: startedAt,
      consecutiveFailures: 0,
      lastError: Option.none<RpcError>(),
    })

    let world = initial
    const poll = Effect.gen(function* () {
      const head = yield* rpc.blockNumber()
      if (head !== world.block) {
        // a head behind us means the chain was reset: rebuild from the start
        const from = head > world.block ? world : empty(config.fromBlock - 1n)
        const next = yield* step(from, head)
        world = next
        yield* Ref.set(excludedRef, excludedView(next))
        yield* SubscriptionRef.set(ref, next.snapshot)
      }
      const now = yield* Clock.currentTimeMillis
      const before = yield* Ref.getAndSet(health, { lastSuccessAt: now, consecutiveFailures: 0, lastError: Option.none() })
      if (before.consecutiveFailures > 0) {
        yield* Effect.logInfo(`MarketState: chain reachable again after ${before.consecutiveFailures} failed attempts, at block ${world.block}`)
      }
    })

    const follow = poll.pipe(
      Effect.tapError((error) =>
        Effect.gen(function* () {
          const h = yield* Ref.updateAndGet(health, (h) => ({ ...h, consecutiveFailures: h.consecutiveFailures + 1, lastError: Option.some(error) }))
          const message = `MarketState: ${error.method} failed (${error.reason}): ${error.message}; serving block ${world.block}`
          // the first failure of a run is a warning, the retries that follow are debug noise
          yield* h.consecutiveFailures === 1 ? Effect.logWarning(message) : Effect.logDebug(message)
        }),
      ),
      Effect.retry(retrySchedule),
      Effect.zipRight(Effect.sleep(pollInterval)),
      Effect.forever,
      Effect.withSpan("MarketState.follow"),
    )
    yield* Effect.forkScoped(follow)

    // read on every request: no span (a span costs more than the read)
    const snapshot = SubscriptionRef.get(ref)

    const staleness = Effect.gen(function* () {
      const snap = yield* SubscriptionRef.get(ref)
      const h = yield* Ref.get(health)
      const now = yield* Clock.currentTimeMillis
      return {
        blockNumber: snap.blockNumber,
        blockTimestamp: snap.blockTimestamp,
        lastSuccessAt: h.lastSuccessAt,
        sinceSuccessMs: now - h.lastSuccessAt,
        blockAgeSeconds: BigInt(Math.floor(now / 1000)) - snap.blockTimestamp,
        failing: h.consecutiveFailures > 0,
        consecutiveFailures: h.consecutiveFailures,
        lastError: h.lastError,
      } satisfies Staleness
    })

    const awaitBlock = Effect.fn("MarketState.awaitBlock")(function* (blockNumber: bigint) {
      const found = yield* ref.changes.pipe(
        Stream.filter((s) => s.blockNumber >= blockNumber),
        Stream.runHead,
      )
      return Option.getOrThrow(found)
    })

    return {
      snapshot,
      changes: ref.changes,
      awaitBlock,
      staleness,
      excluded: Ref.get(excludedRef),
      tickWindow: halfWidth,
    } satisfies MarketStateService
  })

const excludedView = (world: ActorState): ReadonlyMap<string, string> => {
  const view = new Map<string, string>()
  for (const [key, e] of world.excluded) view.set(key, e.reason)
  for (const key of world.hidden) view.set(key, "protocol fee set (not modelled)")
  return view
}

/** One step of the actor: from the world at `world.block` to the world at `head`. */
const stepper = (config: MarketConfig, rpc: RpcService, tokens: TokensService, halfWidth: number, chunkBlocks: bigint) => {
  const v2Factory = config.v2Factory?.toLowerCase()
  const v3Factory = config.v3Factory?.toLowerCase()
  const poolManager = config.poolManager?.toLowerCase()
  const stateView = config.stateView
  const multicallAt = (reads: readonly Read<unknown>[], head: bigint) => rpc.multicall(reads, { blockNumber: head })
  const settingsReads = blockSettingsReads(config.executor, config.priceFeeds ?? [])
  const executor = config.executor?.toLowerCase()

  const fetchLogs = (from: bigint, to: bigint, addresses: readonly Address[]) => {
    const ranges: [bigint, bigint][] = []
    for (let start = from; start <= to; start += chunkBlocks) {
      ranges.push([start, start + chunkBlocks - 1n < to ? start + chunkBlocks - 1n : to])
    }
    return Effect.forEach(
      ranges,
      ([fromBlock, toBlock]) => rpc.getLogs({ address: addresses, topics: [ALL_TOPICS], fromBlock, toBlock }),
      { concurrency: 4 },
    ).pipe(Effect.map((chunks) => chunks.flat()))
  }

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

  /** The pool a state-changing log touches, and the ticks it names (Mint, Burn, ModifyLiquidity). */
  const touch = (log: RpcLog, metas: ReadonlyMap<string, Meta>): { key: string; ticks: number[] } | undefined => {
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

  /** Routability of each new pool, from its tokens (checked once per token, holders = the pools). */
  const classify = (pools: readonly Meta[]) =>
    Effect.gen(function* () {
      const holders = new Map<string, Set<Address>>()
      for (const meta of pools) {
        const holder = meta.dex === "uniswap-v4" ? config.poolManager! : meta.id
        for (const token of [meta.token0, meta.token1]) {
          const key = token.toLowerCase()
          const set = holders.get(key) ?? new Set<Address>()
          set.add(holder)
          holders.set(key, set)
        }
      }
      const answers = new Map<string, Routability>()
      yield* Effect.forEach(
        [...holders],
        ([token, set]) =>
          tokens
            .routability(token as Address, { holders: [...set] })
            .pipe(Effect.tap((answer) => Effect.sync(() => answers.set(token, answer)))),
        { concurrency: 8, discard: true },
      )
      const verdicts = new Map<string, Exclusion | undefined>()
      for (const meta of pools) {
        if (meta.dex === "uniswap-v4" && meta.hooks !== zeroAddress) {
          verdicts.set(meta.key, { reason: `hooked V4 pool (hooks ${meta.hooks})`, recheck: false })
          continue
        }
        if (meta.dex === "uniswap-v4" && (meta.fee & DYNAMIC_FEE_FLAG) !== 0) {
          verdicts.set(meta.key, { reason: "dynamic-fee V4 pool", recheck: false })
          continue
        }
        let verdict: Exclusion | undefined
        for (const token of [meta.token0, meta.token1]) {
          const answer = answers.get(token.toLowerCase())!
          if (!answer.routable) {
            verdict = { reason: `${token} is not routable: ${answer.reason} (${answer.detail})`, recheck: answer.reason === "unverified" }
            break
          }
        }
        verdicts.set(meta.key, verdict)
      }
      return verdicts
    })

  return (world: ActorState, head: bigint) =>
    Effect.gen(function* () {
      const addresses: Address[] = [config.v2Factory, config.v3Factory, config.poolManager, config.executor].filter(
        (a): a is Address => a !== undefined,
      )
      for (const meta of world.metas.values()) {
        const watched = world.states.has(meta.key) || world.excluded.get(meta.key)?.recheck === true
        if (meta.dex !== "uniswap-v4" && watched) addresses.push(meta.id)
      }
      const logs = world.block < head ? yield* fetchLogs(world.block + 1n, head, addresses) : []

      // what the logs say: new pools, touched pools, ticks named by liquidity changes
      const metas = new Map(world.metas)
      const fresh: Meta[] = []
      const touched = new Set<string>()
      const namedTicks = new Map<string, Set<number>>()
      let allowedRouters = world.allowedRouters
      for (const log of logs) {
        if (log.address.toLowerCase() === executor && log.topics[0] === TOPIC.routerAllowlistChanged) {
          const router = `0x${log.topics[1]!.slice(26)}`.toLowerCase()
          const [allowed] = decodeAbiParameters([{ type: "bool" }], log.data)
          const next = new Set(allowedRouters)
          if (allowed) next.add(router)
          else next.delete(router)
          allowedRouters = next
          continue
        }
        const created = discover(log)
        if (created !== undefined) {
          if (!metas.has(created.key)) {
            metas.set(created.key, created)
            fresh.push(created)
          }
          continue
        }
        const hit = touch(log, metas)
        if (hit === undefined) continue
        touched.add(hit.key)
        if (hit.ticks.length > 0) {
          const set = namedTicks.get(hit.key) ?? new Set<number>()
          for (const t of hit.ticks) set.add(t)
          namedTicks.set(hit.key, set)
        }
      }

      // routability of new pools and of pools waiting for a holder that were touched
      const rechecks = [...touched].filter((k) => world.excluded.get(k)?.recheck === true).map((k) => metas.get(k)!)
      const verdicts = yield* classify([...fresh, ...rechecks])
      const excluded = new Map(world.excluded)
      const toLoad: Meta[] = []
      for (const [key, verdict] of verdicts) {
        if (verdict === undefined) {
          excluded.delete(key)
          toLoad.push(metas.get(key)!)
        } else excluded.set(key, verdict)
      }
      const loading = new Set(toLoad.map((m) => m.key))
      const toRefresh = [...touched].filter((k) => world.states.has(k) && !loading.has(k)).map((k) => metas.get(k)!)

      // phase 1, one batched read at the head: the block, and the slot/reserves of every pool read
      const reads: Read<unknown>[] = []
      const push = <A>(r: Read<A>): number => reads.push(r as Read<unknown>) - 1
      const timestampAt = push(read({ address: config.multicall3, abi: MULTICALL3_BLOCK_ABI, functionName: "getCurrentBlockTimestamp", args: [] }))
      const basefeeAt = push(read({ address: config.multicall3, abi: MULTICALL3_BLOCK_ABI, functionName: "getBasefee", args: [] }))
      const settingsAt = reads.length
      for (const r of settingsReads.reads) push(r)
      const baseReads = new Map<string, number[]>()
      const tickReads = new Map<string, { tick: number; at: number }[]>()
      for (const meta of [...toLoad, ...toRefresh]) baseReads.set(meta.key, baseReadsOf(meta, push))
      for (const meta of toRefresh) {
        const named = namedTicks.get(meta.key)
        const state = world.states.get(meta.key)
        if (named === undefined || state === undefined || state.dex === "uniswap-v2") continue
        const inWindow = [...named].filter((t) => t >= state.tickLower && t <= state.tickUpper)
        tickReads.set(meta.key, inWindow.map((tick) => ({ tick, at: push(tickRead(meta as ConcentratedMeta, tick)) })))
      }
      const [results, priorityFee] = yield* Effect.all(
        [multicallAt(reads, head), rpc.maxPriorityFeePerGas()],
        { concurrency: 2 },
      )
      const value = <A>(i: number): A | undefined => {
        const r = results[i] as ReadResult<A>
        return r.success ? r.value : undefined
      }
      const blockTimestamp = value<bigint>(timestampAt) ?? 0n
      const baseFee = value<bigint>(basefeeAt) ?? 0n
      const settings = settingsReads.decode(results.slice(settingsAt, settingsAt + settingsReads.reads.length), allowedRouters)

      const states = new Map(world.states)
      const hidden = new Set(world.hidden)
      const refreshed: string[] = []
      const fullTicks: { meta: ConcentratedMeta; base: Omit<ConcentratedPoolState, "ticks" | "tickLower" | "tickUpper"> }[] = []
      for (const meta of [...toLoad, ...toRefresh]) {
        const at = baseReads.get(meta.key)!
        refreshed.push(meta.key)
        if (meta.dex === "uniswap-v2") {
          const reserves = value<readonly [bigint, bigint, number]>(at[0]!)
          if (reserves === undefined) {
            states.delete(meta.key)
            excluded.set(meta.key, { reason: "getReserves() failed", recheck: true })
            continue
          }
          states.set(meta.key, {
            dex: "uniswap-v2",
            id: meta.id,
            token0: meta.token0,
            token1: meta.token1,
            reserve0: reserves[0],
            reserve1: reserves[1],
          } satisfies V2PoolState)
          continue
        }
        const slot = value<readonly [bigint, number, ...unknown[]]>(at[0]!)
        const liquidity = value<bigint>(at[1]!)
        if (slot === undefined || liquidity === undefined) {
          states.delete(meta.key)
          excluded.set(meta.key, { reason: "slot0/liquidity read failed", recheck: true })
          continue
        }
        const [sqrtPriceX96, tick] = slot
        if (meta.dex === "uniswap-v4") {
          const protocolFee = Number(slot[2])
          if (protocolFee !== 0) hidden.add(meta.key)
          else hidden.delete(meta.key)
        }
        const base = {
          dex: meta.dex,
          id: meta.id,
          token0: meta.token0,
          token1: meta.token1,
          fee: meta.dex === "uniswap-v4" ? Number(slot[3]) : meta.fee,
          tickSpacing: meta.tickSpacing,
          sqrtPriceX96,
          tick,
          liquidity,
          ...(meta.dex === "uniswap-v4" ? { hooks: meta.hooks } : {}),
        }
        const previous = world.states.get(meta.key)
        if (loading.has(meta.key) || previous === undefined || previous.dex === "uniswap-v2" || needsRecentering(previous, tick, halfWidth)) {
          fullTicks.push({ meta, base })
          continue
        }
        const ticks = mergeTicks(previous.ticks, tickReads.get(meta.key) ?? [], value)
        if (ticks === undefined) return yield* readFailure("tick", meta)
        states.set(meta.key, { ...base, ticks, tickLower: previous.tickLower, tickUpper: previous.tickUpper })
      }

      // phases 2 and 3, only for pools read whole (new, or drifted to their window's edge):
      // the bitmap words of the window, then every initialized tick they mark
      if (fullTicks.length > 0) {
        const windows = fullTicks.map(({ meta, base }) => ({ meta, base, window: tickWindow(base.tick, meta.tickSpacing, halfWidth) }))
        const wordReads: Read<unknown>[] = []
        const wordIndex: { pool: number; word: number }[] = []
        for (const [pool, { meta, window }] of windows.entries()) {
          for (let word = window.minWord; word <= window.maxWord; word++) {
            wordReads.push(bitmapRead(meta, word) as Read<unknown>)
            wordIndex.push({ pool, word })
          }
        }
        const words = yield* multicallAt(wordReads, head)
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
        const nets = yield* multicallAt(liquidityReads, head)
        const ticksOf: TickInfo[][] = windows.map(() => [])
        for (const [i, { pool, tick }] of tickIndex.entries()) {
          const r = nets[i]!
          if (!r.success) return yield* readFailure("tick", windows[pool]!.meta)
          const [, liquidityNet] = r.value as readonly [bigint, bigint]
          ticksOf[pool]!.push({ tick, liquidityNet })
        }
        for (const [pool, { meta, base, window }] of windows.entries()) {
          states.set(meta.key, { ...base, ticks: ticksOf[pool]!, tickLower: window.tickLower, tickUpper: window.tickUpper })
        }
      }

      const published = new Map<string, PoolState>()
      for (const [key, state] of states) if (!hidden.has(key)) published.set(key, state)
      refreshed.sort()
      const snapshot: World = {
        chainId: rpc.chainId,
        blockNumber: head,
        blockTimestamp,
        baseFeeWei: baseFee,
        executor: settings.executor,
        prices: settings.prices,
        gasPriceWei: baseFee + priorityFee,
        pools: published,
        poolsByToken: sortedPoolsByToken(published),
        refreshed,
      }
      return { block: head, metas, excluded, states, hidden, allowedRouters, snapshot } satisfies ActorState
    }).pipe(Effect.withSpan("MarketState.step", { attributes: { head: head.toString() } }))

  function baseReadsOf(meta: Meta, push: <A>(r: Read<A>) => number): number[] {
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
  function tickRead(meta: ConcentratedMeta, tick: number): Read<readonly [bigint, bigint]> {
    if (meta.dex === "uniswap-v3") {
      const r = read({ address: meta.id, abi: V3_POOL_ABI, functionName: "ticks", args: [tick] })
      return { ...r, decode: (data) => { const v = r.decode(data); return [v[0], v[1]] as const } }
    }
    return read({ address: stateView!, abi: V4_STATE_VIEW_ABI, functionName: "getTickLiquidity", args: [meta.id, tick] })
  }

  function bitmapRead(meta: ConcentratedMeta, word: number): Read<bigint> {
    return meta.dex === "uniswap-v3"
      ? read({ address: meta.id, abi: V3_POOL_ABI, functionName: "tickBitmap", args: [word] })
      : read({ address: stateView!, abi: V4_STATE_VIEW_ABI, functionName: "getTickBitmap", args: [meta.id, word] })
  }
}

const readFailure = (what: string, meta: Meta) =>
  new RpcError({ reason: "decode", method: "MarketState.step", message: `${what} read of ${meta.dex} pool ${meta.id} failed` })

/** The window's ticks after a liquidity change: named ticks re-read, uninitialized ones dropped. */
const mergeTicks = (
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

export class MarketState extends Context.Tag("market/MarketState")<MarketState, MarketStateService>() {
  /**
   * The actor for the life of the layer: the initial load runs while the layer is built (it
   * fails after `startAttempts` failed attempts), the block follower runs until the scope closes.
   */
  static readonly layer = (config: MarketConfig): Layer.Layer<MarketState, RpcError, Rpc | Tokens> =>
    Layer.scoped(MarketState, makeMarketState(config))
}
