// The two phases of the market actor. Each takes the market from the block it
// knows to the head, in one batched read at the head.
//
// The start (`start`), before the market is ready: from nothing (the block before
// MARKET_FROM_BLOCK) or from a stored market (its block). It asks eth_getLogs only
// for the events that create pools or change the executor's registry
// (PairCreated, PoolCreated, Initialize; RouterAllowlistChanged, VenueSet,
// StablePoolSet) of every venue's factory or PoolManager and the executor, and,
// when it holds V3/V4 pools already (a stored market), for the liquidity changes
// that name their ticks (Mint, Burn, ModifyLiquidity): never a swap, so what a
// start reads does not grow with the history's trading. Every stable factory's
// list is read again, and every pool known (stored, created, listed or found
// through a stable factory) is read at the head.
//
// A block step (`step`), once ready, follows the head:
//  1. eth_getLogs. Every emitter is asked for the creations and registry events
//     and the ones that change a pool: Sync (V2), Swap, Mint, Burn (V3) and Swap,
//     ModifyLiquidity, ProtocolFeeUpdated (V4, by pool id) mark known pools
//     touched; Mint, Burn and ModifyLiquidity also name two ticks. Sync carries
//     a pair's reserves and a V3 or V4 Swap the pool's price, tick and
//     liquidity after it: a pool whose every log of the step carried its state
//     takes it from its last log and is not read. A second
//     eth_getLogs over the stable pools and the stable factories: any log of a
//     pool touches it, and a pool that keeps its fees in its balances
//     (admin_fee() 0), whose A is steady and whose every log was a
//     TokenExchange the pool's math pays again to the unit takes the balances
//     they leave (state-from-logs.ts); any log of a factory has its
//     pool_count() and the new pool_list(i) read again. Stable pools, listed or
//     found through a factory, are discovered by reading their coins and the
//     coins' decimals once. The node's priority fee and the block's own reads
//     (timestamp, base fee, the executor's settings and the reference prices,
//     one Multicall3 eth_call at the head) are asked beside the logs: they need
//     nothing the logs say, so a block whose touched pools all said their state
//     is one round of requests, and any other two, the logs then the reads.
//  2. New pools are checked with Tokens.routability (holders: the pool, or its
//     PoolManager); pools with an unroutable token, hooks or a dynamic fee are
//     not published. A pool whose tokens could not be checked yet (empty) is
//     checked again when it is next touched.
//  3. One Multicall3 eth_call at the head: reserves (V2), slot0 + liquidity
//     (V3, V4 via StateView) or balances, A, fee and admin fee (stable pools;
//     also every block while A ramps) of every new pool and every touched pool
//     its logs did not say, and the named ticks of touched pools. Swaps never change a
//     tick's liquidityNet, so a touched pool keeps its tick list unless a
//     liquidity change named a tick.
//  4. Only for new pools and pools whose price drifted into the outer quarter of
//     their tick window: the window's initialized ticks, through the tick lens
//     (tick-lens.ts: one eth_call reads many windows' bitmap words and the ticks
//     they mark; on a node without state overrides, the bitmap words then the
//     ticks in two more batched reads). The window is whole bitmap words covering
//     ±tickWindow ticks around the current tick (default 32768 ticks, a price
//     factor of ~26.5 either way); each pool publishes it as [tickLower, tickUpper].
// Steps 2 to 4 are the start's too. The executor's registry
// (RouterAllowlistChanged, VenueSet, StablePoolSet) is followed from the logs:
// with an executor, only pools of venues its owner registered, and stable pools
// it registered, are published.
import { Effect } from "effect"
import type { Address, Hex } from "viem"
import { read, traced, type Read, type RpcError, type RpcLog, type RpcService } from "../chain/index.ts"
import type { TokensService } from "../tokens/index.ts"
import { poolTokens, type ConcentratedPoolState, type PoolState, type StablePoolState, type V2PoolState } from "../amm/index.ts"
import { CREATION_TOPICS, FOLLOWED_TOPICS, LIQUIDITY_TOPICS, MULTICALL3_BLOCK_ABI } from "./abis.ts"
import { blockSettingsReads } from "./block-settings.ts"
import { classify, type Exclusion } from "./classification.ts"
import { logDecoder, type LoggedState } from "./log-decoding.ts"
import { stateFromLogs, type StateFromLogs } from "./state-from-logs.ts"
import type { MarketConfig } from "./market-config.ts"
import { PersistentMap } from "./persistent-map.ts"
import type { ConcentratedMeta, Meta, StableMeta } from "./pool-meta.ts"
import { factoryPools, mergeTicks, poolReads, readFailure, stableMetas, valueAt } from "./pool-reads.ts"
import { applyRegistryEvent, emptyRegistry, venueIdsOf, type Registry } from "./registry.ts"
import { TICK_LENS_ADDRESS, tickLensCode } from "./tick-lens.ts"
import { needsRecentering, tickWindow } from "./tick-window.ts"
import type { World } from "../domain/index.ts"

/**
 * The actor's own state: everything it knows after processing `block`. A step's maps share
 * everything it did not change with the maps of the state before (persistent maps), so a
 * step costs what it changed and a World a reader holds never changes.
 */
export interface ActorState {
  readonly block: bigint
  readonly metas: ReadonlyMap<string, Meta>
  readonly excluded: ReadonlyMap<string, Exclusion>
  /** the last state read of every routable pool (published unless `hidden`) */
  readonly states: ReadonlyMap<string, PoolState>
  /** routable pools whose current state the math does not model (a V4 protocol fee) */
  readonly hidden: ReadonlySet<string>
  /** stable pools whose A is ramping: read at every block until the ramp ends */
  readonly ramping: ReadonlySet<string>
  /**
   * stable pools whose admin_fee() was 0 at their last read: every fee stays in their balances, so
   * the exchanges their logs record say the balances they leave (not stored: a restored pool is
   * read when next touched)
   */
  readonly keepsFees?: ReadonlySet<string>
  /** the executor's registry, from its owner's events */
  readonly registry: Registry
  /** the pools each stable factory (lower-case) is known to list: pool_list(0 … n-1) were read */
  readonly factoryCounts: ReadonlyMap<string, bigint>
  /** the stable pools among `metas`, in the order found (kept by each phase; found in `metas` when absent) */
  readonly stablePools?: readonly StableMeta[]
  /** the stable pools a block step asks the logs of: those with a state or waiting to be checked again (worked out when absent) */
  readonly followedStable?: readonly Address[]
  readonly snapshot: World
}

/** The state before any block is processed: the start from it to the head is a full load. */
export const emptyState = (chainId: number, block: bigint): ActorState => ({
  block,
  metas: PersistentMap.empty(),
  excluded: PersistentMap.empty(),
  states: PersistentMap.empty(),
  hidden: new Set(),
  ramping: new Set(),
  registry: emptyRegistry,
  factoryCounts: new Map(),
  snapshot: {
    chainId,
    blockNumber: block,
    blockTimestamp: 0n,
    baseFeeWei: 0n,
    executor: undefined,
    prices: new Map(),
    gasPriceWei: 0n,
    pools: PersistentMap.empty(),
    poolsByToken: PersistentMap.empty(),
    refreshed: [],
  },
})

const sortedPoolsByToken = (pools: ReadonlyMap<string, PoolState>): ReadonlyMap<string, readonly string[]> => {
  const byToken = new Map<string, string[]>()
  for (const [key, pool] of pools) {
    for (const address of poolTokens(pool)) {
      const token = address.toLowerCase()
      const list = byToken.get(token)
      if (list) list.push(key)
      else byToken.set(token, [key])
    }
  }
  for (const list of byToken.values()) list.sort()
  return PersistentMap.from(byToken)
}

/** `byToken` with the pools `added` listed under their tokens and the pools `removed` no longer: each list stays sorted */
const withPools = (
  byToken: ReadonlyMap<string, readonly string[]>,
  added: readonly (readonly [string, PoolState])[],
  removed: readonly (readonly [string, PoolState])[],
): ReadonlyMap<string, readonly string[]> => {
  const draft = PersistentMap.from(byToken).edit()
  for (const [key, pool] of removed) {
    for (const address of poolTokens(pool)) {
      const token = address.toLowerCase()
      const rest = (draft.get(token) ?? []).filter((k) => k !== key)
      if (rest.length > 0) draft.set(token, rest)
      else draft.delete(token)
    }
  }
  for (const [key, pool] of added) {
    for (const address of poolTokens(pool)) {
      const token = address.toLowerCase()
      const list = draft.get(token) ?? []
      let at = 0
      while (at < list.length && list[at]! <= key) at++
      draft.set(token, [...list.slice(0, at), key, ...list.slice(at)])
    }
  }
  return draft.done()
}

const sameKeys = (a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean => {
  if (a.size !== b.size) return false
  for (const key of a.keys()) if (!b.has(key)) return false
  return true
}

const stableOf = (metas: ReadonlyMap<string, Meta>): StableMeta[] => {
  const out: StableMeta[] = []
  for (const meta of metas.values()) if (meta.kind === "curve-stableswap") out.push(meta)
  return out
}

/** The stable pools whose logs a block step asks for: those with a state, or waiting to be checked again. */
const followedStableOf = (
  stablePools: readonly StableMeta[],
  states: ReadonlyMap<string, PoolState>,
  excluded: ReadonlyMap<string, Exclusion>,
): readonly Address[] => {
  const out: Address[] = []
  for (const meta of stablePools) if (states.has(meta.key) || excluded.get(meta.key)?.recheck === true) out.push(meta.id)
  return out
}

/** Most addresses in one eth_getLogs filter: providers cap the filter's size too. */
const ADDRESSES_PER_REQUEST = 500

const chunked = <A>(items: readonly A[], size: number): A[][] => {
  const out: A[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** A phase of the actor: the world at `world.block` taken to the world at `head`. */
export type Phase = (world: ActorState, head: bigint) => Effect.Effect<ActorState, RpcError>

export interface Stepper {
  /** the start: creations and registry events (and a stored market's liquidity changes), every known pool read at the head */
  readonly start: Phase
  /** one block step: every followed event */
  readonly step: Phase
}

export const stepper = (config: MarketConfig, rpc: RpcService, tokens: TokensService, halfWidth: number): Stepper => {
  const multicallAt = (reads: readonly Read<unknown>[], head: bigint) => rpc.multicall(reads, { blockNumber: head })
  const lensAt = (data: Hex, head: bigint) =>
    rpc.call({ to: TICK_LENS_ADDRESS, data, blockNumber: head, stateOverride: [{ address: TICK_LENS_ADDRESS, code: tickLensCode() }] })
  const settingsReads = blockSettingsReads(config.executor, config.priceFeeds ?? [])
  // the block's own reads at the head: its timestamp, its base fee, then the settings
  const blockReads: readonly Read<unknown>[] = [
    read({ address: config.multicall3, abi: MULTICALL3_BLOCK_ABI, functionName: "getCurrentBlockTimestamp", args: [] }) as Read<unknown>,
    read({ address: config.multicall3, abi: MULTICALL3_BLOCK_ABI, functionName: "getBasefee", args: [] }) as Read<unknown>,
    ...settingsReads.reads,
  ]
  const { registryEvent, stableFactory, discover, touch } = logDecoder(config.venues, config.executor)
  const { baseReadsOf, tickRead, windowTicks } = poolReads()
  const emitters: Address[] = config.venues.flatMap((v) =>
    v.kind === "uniswap-v2" || v.kind === "uniswap-v3" ? [v.factory] : v.kind === "uniswap-v4" ? [v.poolManager] : [],
  )
  if (config.executor !== undefined) emitters.push(config.executor)
  const listedStablePools = config.venues.flatMap((v) => (v.kind === "curve-stableswap" ? v.pools.map((pool) => ({ venue: v.name, pool })) : []))
  const stableFactories = config.venues.flatMap((v) => (v.kind === "curve-stableswap" && v.factory !== undefined ? [{ venue: v.name, factory: v.factory }] : []))
  const none = Effect.succeed<readonly RpcLog[]>([])

  // the start's logs: creations and registry changes by emitter (an empty address list would mean every
  // contract); the liquidity changes of any emitter when the market holds V3/V4 pools whose ticks they may name
  const startLogs = (world: ActorState, head: bigint) => {
    const range = { fromBlock: world.block + 1n, toBlock: head }
    const concentrated = [...world.states.values()].some((s) => s.kind === "uniswap-v3" || s.kind === "uniswap-v4")
    return Effect.all(
      [
        emitters.length > 0 ? rpc.getLogs({ address: emitters, topics: [CREATION_TOPICS], ...range }) : none,
        concentrated ? rpc.getLogs({ topics: [LIQUIDITY_TOPICS], ...range }) : none,
      ],
      { concurrency: 2 },
    ).pipe(Effect.map(([creations, liquidity]) => [...creations, ...liquidity]))
  }
  // a block step's logs: every emitter's followed events, and any log of the stable pools and factories
  // (a bounded list of addresses per request)
  const blockLogs = (world: ActorState, head: bigint) => {
    const stableAddresses = [...(world.followedStable ?? followedStableOf(world.stablePools ?? stableOf(world.metas), world.states, world.excluded))]
    // a factory is followed once its list has been read
    for (const { factory } of stableFactories) if (world.factoryCounts.has(factory.toLowerCase())) stableAddresses.push(factory)
    const stableLogs = Effect.forEach(
      chunked(stableAddresses, ADDRESSES_PER_REQUEST),
      (group) => rpc.getLogs({ address: group, fromBlock: world.block + 1n, toBlock: head }),
      { concurrency: 2 },
    )
    return Effect.all([rpc.getLogs({ topics: [FOLLOWED_TOPICS], fromBlock: world.block + 1n, toBlock: head }), stableLogs], { concurrency: 2 }).pipe(
      Effect.map(([followed, stable]) => [...followed, ...stable.flat()]),
    )
  }

  const advance = (starting: boolean, world: ActorState, head: bigint) =>
    Effect.gen(function* () {
      // the first round: the logs, and beside them what waits on nothing they say: the priority fee, and the
      // block's timestamp, base fee and settings at the head (a block whose every touched pool's logs said its
      // state needs no second round)
      const [logs, priorityFee, blockResults] = yield* Effect.all(
        [
          world.block >= head ? Effect.succeed<readonly RpcLog[]>([]) : starting ? startLogs(world, head) : blockLogs(world, head),
          rpc.maxPriorityFeePerGas(),
          multicallAt(blockReads, head),
        ],
        { concurrency: 3 },
      )
      const blockTimestamp = valueAt<bigint>(blockResults, 0) ?? 0n
      const baseFee = valueAt<bigint>(blockResults, 1) ?? 0n

      // what the logs say: new pools, touched pools, ticks named by liquidity changes
      const metas = PersistentMap.from(world.metas).edit()
      const fresh: Meta[] = []
      const touched = new Set<string>()
      const namedTicks = new Map<string, Set<number>>()
      // what each log of a pool said of its state, in block order, for pools every log of which said it
      const logged = new Map<string, LoggedState[]>()
      const unsaid = new Set<string>()
      let registry = world.registry
      const loggedFactories = new Set<string>()
      for (const log of logs) {
        const factory = stableFactory(log)
        if (factory !== undefined) {
          loggedFactories.add(factory)
          continue
        }
        const event = registryEvent(log)
        if (event !== undefined) {
          registry = applyRegistryEvent(registry, event)
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
        if (hit.after === undefined) unsaid.add(hit.key)
        else {
          const said = logged.get(hit.key)
          if (said === undefined) logged.set(hit.key, [hit.after])
          else said.push(hit.after)
        }
        if (hit.ticks.length > 0) {
          const set = namedTicks.get(hit.key) ?? new Set<number>()
          for (const t of hit.ticks) set.add(t)
          namedTicks.set(hit.key, set)
        }
      }
      // at the start, every pool known is read at the head, whatever the logs say
      if (starting) {
        for (const [key, e] of world.excluded) if (e.recheck) touched.add(key)
        for (const key of world.states.keys()) touched.add(key)
      }
      // at the start every stable factory, later those never read or that logged: the pools they list past the known count
      const factoryCounts = new Map(world.factoryCounts)
      const relist = stableFactories.filter(({ factory }) => starting || !factoryCounts.has(factory.toLowerCase()) || loggedFactories.has(factory.toLowerCase()))
      const listedByFactory: { venue: string; pool: Address }[] = []
      if (relist.length > 0) {
        const known = (factory: Address) => factoryCounts.get(factory.toLowerCase()) ?? 0n
        const listings = yield* factoryPools(relist.map(({ factory }) => ({ factory, known: known(factory) })), (reads) => multicallAt(reads, head))
        for (const [f, listing] of listings.entries()) {
          const { venue, factory } = relist[f]!
          if (listing.failure !== undefined) yield* Effect.logWarning(`MarketState: venue ${venue}: stable factory ${factory}: ${listing.failure}`)
          factoryCounts.set(factory.toLowerCase(), listing.count)
          for (const pool of listing.pools) listedByFactory.push({ venue, pool })
        }
      }
      // stable pools not known yet, listed or found (a pool both listed and found is one pool, of the venue
      // that lists it): their coins and decimals, once (the configured list is known or excluded after the start)
      const seen = new Set<string>()
      const unknownStable = [...(starting ? listedStablePools : []), ...listedByFactory].filter(({ pool }) => {
        const key = pool.toLowerCase()
        if (metas.has(key) || world.excluded.has(key) || seen.has(key)) return false
        seen.add(key)
        return true
      })
      const stableExcluded: [string, Exclusion][] = []
      if (unknownStable.length > 0) {
        const found = yield* stableMetas(unknownStable, (reads) => multicallAt(reads, head))
        for (const [i, meta] of found.entries()) {
          if (meta === undefined) {
            stableExcluded.push([unknownStable[i]!.pool.toLowerCase(), { reason: "not a stable pool of 2 to 8 coins with decimals", recheck: false }])
            continue
          }
          metas.set(meta.key, meta)
          fresh.push(meta)
        }
      }
      for (const key of world.ramping) touched.add(key)

      // routability of new pools and of pools waiting for a holder that were touched
      const rechecks = [...touched].filter((k) => world.excluded.get(k)?.recheck === true).map((k) => metas.get(k)!)
      const verdicts = yield* classify(tokens, [...fresh, ...rechecks])
      const excluded = PersistentMap.from(world.excluded).edit()
      for (const [key, exclusion] of stableExcluded) excluded.set(key, exclusion)
      const toLoad: Meta[] = []
      for (const [key, verdict] of verdicts) {
        if (verdict === undefined) {
          excluded.delete(key)
          toLoad.push(metas.get(key)!)
        } else excluded.set(key, verdict)
      }
      const loading = new Set(toLoad.map((m) => m.key))
      // a known pool whose every log this step said the state it left takes it from its logs (a block step
      // only; the start reads every pool): a pair or a concentrated pool from its last log, a stable pool
      // that keeps its fees and whose A is steady by running its exchanges again; the others are read at the head
      const toRefresh: Meta[] = []
      const fromLogs: { meta: Meta; after: StateFromLogs }[] = []
      for (const key of touched) {
        const previous = world.states.get(key)
        if (previous === undefined || loading.has(key)) continue
        const said = starting || unsaid.has(key) ? undefined : logged.get(key)
        const after = said === undefined ? undefined : stateFromLogs(previous, said, world.keepsFees?.has(key) === true && !world.ramping.has(key))
        if (after !== undefined) fromLogs.push({ meta: metas.get(key)!, after })
        else toRefresh.push(metas.get(key)!)
      }

      // phase 1, one batched read at the head: the slot/reserves of every pool read
      const reads: Read<unknown>[] = []
      const push = <A>(r: Read<A>): number => reads.push(r as Read<unknown>) - 1
      const baseReads = new Map<string, number[]>()
      const tickReads = new Map<string, { tick: number; at: number }[]>()
      for (const meta of [...toLoad, ...toRefresh]) baseReads.set(meta.key, baseReadsOf(meta, push))
      for (const meta of toRefresh) {
        const named = namedTicks.get(meta.key)
        const state = world.states.get(meta.key)
        if (named === undefined || state === undefined || state.kind === "uniswap-v2" || state.kind === "curve-stableswap") continue
        const inWindow = [...named].filter((t) => t >= state.tickLower && t <= state.tickUpper)
        tickReads.set(meta.key, inWindow.map((tick) => ({ tick, at: push(tickRead(meta as ConcentratedMeta, tick)) })))
      }
      const results = reads.length > 0 ? yield* multicallAt(reads, head) : []
      const value = <A>(i: number): A | undefined => valueAt<A>(results, i)
      const venueIds = venueIdsOf(registry, config.venues)
      const settings = settingsReads.decode(blockResults.slice(2), {
        allowedRouters: registry.allowedRouters,
        venueIds,
      })

      const states = PersistentMap.from(world.states).edit()
      const hidden = new Set(world.hidden)
      const ramping = new Set(world.ramping)
      const keepsFees = new Set(world.keepsFees)
      const refreshed: string[] = []
      const fullTicks: { meta: ConcentratedMeta; base: Omit<ConcentratedPoolState, "ticks" | "tickLower" | "tickUpper"> }[] = []
      for (const meta of [...toLoad, ...toRefresh]) {
        const at = baseReads.get(meta.key)!
        refreshed.push(meta.key)
        if (meta.kind === "uniswap-v2") {
          const reserves = value<readonly [bigint, bigint, number]>(at[0]!)
          if (reserves === undefined) {
            states.delete(meta.key)
            excluded.set(meta.key, { reason: "getReserves() failed", recheck: true })
            continue
          }
          states.set(meta.key, {
            kind: "uniswap-v2",
            venue: meta.venue,
            id: meta.id,
            token0: meta.token0,
            token1: meta.token1,
            reserve0: reserves[0],
            reserve1: reserves[1],
            feeBps: meta.feeBps,
          } satisfies V2PoolState)
          continue
        }
        if (meta.kind === "curve-stableswap") {
          const n = meta.coins.length
          const balances = at.slice(0, n).map((i) => value<bigint>(i))
          const amp = value<bigint>(at[n]!)
          const fee = value<bigint>(at[n + 1]!)
          if (balances.some((b) => b === undefined) || amp === undefined || fee === undefined) {
            states.delete(meta.key)
            excluded.set(meta.key, { reason: "balances/A_precise/fee read failed", recheck: true })
            continue
          }
          // a pool without future_A_time is taken as not ramping
          if ((value<bigint>(at[n + 2]!) ?? 0n) > blockTimestamp) ramping.add(meta.key)
          else ramping.delete(meta.key)
          // a pool without admin_fee is taken as keeping some of its fees out of its balances
          if (value<bigint>(at[n + 3]!) === 0n) keepsFees.add(meta.key)
          else keepsFees.delete(meta.key)
          states.set(meta.key, {
            kind: "curve-stableswap",
            venue: meta.venue,
            id: meta.id,
            coins: meta.coins,
            balances: balances as bigint[],
            rates: meta.rates,
            amp,
            fee,
          } satisfies StablePoolState)
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
        if (meta.kind === "uniswap-v4") {
          const protocolFee = Number(slot[2])
          if (protocolFee !== 0) hidden.add(meta.key)
          else hidden.delete(meta.key)
        }
        const base = {
          kind: meta.kind,
          venue: meta.venue,
          id: meta.id,
          token0: meta.token0,
          token1: meta.token1,
          fee: meta.kind === "uniswap-v4" ? Number(slot[3]) : meta.fee,
          tickSpacing: meta.tickSpacing,
          sqrtPriceX96,
          tick,
          liquidity,
          ...(meta.kind === "uniswap-v4" ? { hooks: meta.hooks } : {}),
        }
        const previous = world.states.get(meta.key)
        if (loading.has(meta.key) || previous === undefined || previous.kind === "uniswap-v2" || previous.kind === "curve-stableswap" || needsRecentering(previous, tick, halfWidth)) {
          fullTicks.push({ meta, base })
          continue
        }
        const ticks = mergeTicks(previous.ticks, tickReads.get(meta.key) ?? [], value)
        if (ticks === undefined) return yield* readFailure("tick", meta)
        states.set(meta.key, { ...base, ticks, tickLower: previous.tickLower, tickUpper: previous.tickUpper })
      }
      // the pools whose logs said their state: a pair's reserves; a V3 or V4 pool's price, tick and liquidity,
      // over the ticks it had (a swap changes no tick's liquidityNet) unless its price drifted to its window's edge;
      // a stable pool's balances after its exchanges
      for (const { meta, after } of fromLogs) {
        const previous = world.states.get(meta.key)!
        refreshed.push(meta.key)
        if (previous.kind === "uniswap-v2" && after.kind === "reserves") {
          states.set(meta.key, { ...previous, reserve0: after.reserve0, reserve1: after.reserve1 })
          continue
        }
        if ((previous.kind === "uniswap-v3" || previous.kind === "uniswap-v4") && after.kind === "price") {
          const { ticks, tickLower, tickUpper, ...kept } = previous
          const base = { ...kept, sqrtPriceX96: after.sqrtPriceX96, tick: after.tick, liquidity: after.liquidity }
          if (needsRecentering(previous, after.tick, halfWidth)) fullTicks.push({ meta: meta as ConcentratedMeta, base })
          else states.set(meta.key, { ...base, ticks, tickLower, tickUpper })
          continue
        }
        if (previous.kind === "curve-stableswap" && after.kind === "balances") {
          states.set(meta.key, { ...previous, balances: after.balances })
          continue
        }
        return yield* readFailure("logged state", meta)
      }

      // phases 2 and 3, only for pools read whole (new, or drifted to their window's edge):
      // the bitmap words of the window, then every initialized tick they mark
      if (fullTicks.length > 0) {
        const windows = fullTicks.map(({ meta, base }) => ({ meta, base, window: tickWindow(base.tick, meta.tickSpacing, halfWidth) }))
        const ticksOf = yield* windowTicks(windows, (reads) => multicallAt(reads, head), (data) => lensAt(data, head))
        for (const [pool, { meta, base, window }] of windows.entries()) {
          states.set(meta.key, { ...base, ticks: ticksOf[pool]!, tickLower: window.tickLower, tickUpper: window.tickUpper })
        }
      }

      // with an executor, a route may only name venues and stable pools its owner registered
      const routable = (state: PoolState): boolean =>
        config.executor === undefined ||
        (state.kind === "curve-stableswap" ? registry.stablePools.has(state.id.toLowerCase()) : venueIds.has(state.venue))
      const before = world.snapshot.pools
      let published: ReadonlyMap<string, PoolState>
      let poolsByToken = world.snapshot.poolsByToken
      const everyPool = starting || registry !== world.registry
      if (everyPool) {
        // every pool weighed again: at the start, or when the executor's registry changed what may be routed
        const all = PersistentMap.empty<PoolState>().edit()
        for (const [key, state] of states) if (!hidden.has(key) && routable(state)) all.set(key, state)
        published = all.done()
        if (!sameKeys(published, before)) poolsByToken = sortedPoolsByToken(published)
      } else {
        // only the pools read again can have changed: their state, their protocol fee, or a failed read
        const next = PersistentMap.from(before).edit()
        const added: [string, PoolState][] = []
        const removed: [string, PoolState][] = []
        for (const key of refreshed) {
          const state = states.get(key)
          const was = before.get(key)
          if (state !== undefined && !hidden.has(key) && routable(state)) {
            next.set(key, state)
            if (was === undefined) added.push([key, state])
          } else if (was !== undefined) {
            next.delete(key)
            removed.push([key, was])
          }
        }
        published = next.done()
        // the same pools as the last World's (only their states changed): the same index, which routing reuses too
        if (added.length > 0 || removed.length > 0) poolsByToken = withPools(poolsByToken, added, removed)
      }
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
        poolsByToken,
        refreshed,
        ...(everyPool ? {} : { refreshedFrom: before }),
      }
      const known = starting ? stableOf(world.metas) : (world.stablePools ?? stableOf(world.metas))
      const freshStable = fresh.filter((m): m is StableMeta => m.kind === "curve-stableswap")
      const stablePools = freshStable.length > 0 ? [...known, ...freshStable] : known
      const nextStates = states.done()
      const nextExcluded = excluded.done()
      // a stable pool starts or stops being followed only when it is checked: new, or checked again
      const followedStable =
        starting || world.followedStable === undefined || freshStable.length > 0 || rechecks.some((m) => m.kind === "curve-stableswap")
          ? followedStableOf(stablePools, nextStates, nextExcluded)
          : world.followedStable
      return {
        block: head,
        metas: metas.done(),
        excluded: nextExcluded,
        states: nextStates,
        hidden,
        ramping,
        keepsFees,
        registry,
        factoryCounts,
        stablePools,
        followedStable,
        snapshot,
      } satisfies ActorState
    }).pipe(traced(starting ? "MarketState.start" : "MarketState.step", { attributes: { head: head.toString() } }))

  return {
    start: (world, head) => advance(true, world, head),
    step: (world, head) => advance(false, world, head),
  }
}
