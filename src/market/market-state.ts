// MarketState: the actor that owns the market. It starts (step.ts `start`): the
// pools every venue created (V2/V3 factories, V4 PoolManagers; their creation
// events only, never the history's swaps) and the stable pools listed or found
// through a Curve-style factory, each read whole at the head. Then one fiber
// follows new blocks and re-reads only the pools that the block's logs touched,
// in one batched read at the block (one step: step.ts `step`). Each result is published
// as an immutable snapshot; readers never wait on the chain. On RPC failures it
// keeps serving the last snapshot, retries with backoff and reports how stale it is.
//
// The head is polled (eth_blockNumber) every `pollInterval`; several blocks mined
// between polls are processed as one step. A head below the processed block (a
// node reset) starts the market again from `fromBlock`. Arc finalizes blocks
// deterministically, so reorgs above the head are not handled.
import { Clock, Context, Data, Duration, Effect, Layer, Option, Redacted, Ref, Schedule, Stream, SubscriptionRef } from "effect"
import { Rpc, RpcError, traced } from "../chain/index.ts"
import { Tokens } from "../tokens/index.ts"
import type { MarketConfig } from "./market-config.ts"
import { marketRestore } from "./restore.ts"
import { snapshotKey } from "./snapshot-key.ts"
import { snapshotStoreScoped } from "./snapshot-store.ts"
import { emptyState, stepper, type ActorState } from "./step.ts"
import { DEFAULT_TICK_WINDOW } from "./tick-window.ts"
import type { World } from "../domain/index.ts"

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
  /**
   * The latest World, unless refreshing it has been failing for longer than `maxStaleMs`: what a
   * quote reads (one read while the chain answers).
   */
  readonly freshWorld: (maxStaleMs: number) => Effect.Effect<World, MarketStale>
  /** discovered pools that are not published, by id, with the reason */
  readonly excluded: Effect.Effect<ReadonlyMap<string, string>>
  /** the half-width of the tick window (ticks) */
  readonly tickWindow: number
}

/** The market has not been refreshed for too long to quote on. */
export class MarketStale extends Data.TaggedError("MarketStale")<{ readonly sinceSuccessMs: number }> {}

export const makeMarketState = (config: MarketConfig) =>
  Effect.gen(function* () {
    const rpc = yield* Rpc
    const tokens = yield* Tokens
    const halfWidth = config.tickWindow ?? DEFAULT_TICK_WINDOW
    const pollInterval = Duration.decode(config.pollInterval ?? "250 millis")
    const retrySchedule = Schedule.exponential(config.retryBase ?? "100 millis").pipe(
      Schedule.union(Schedule.spaced(config.retryMax ?? "5 seconds")),
    )

    const empty = (block: bigint): ActorState => emptyState(rpc.chainId, block)

    const phases = stepper(config, rpc, tokens, halfWidth)
    // the embedded store of the market's state, when one is configured, has a secret to sign with, and opens
    const kept = config.snapshot
    const store = kept === undefined
      ? undefined
      : kept.secret === undefined
        ? yield* Effect.as(
            Effect.logWarning(`MarketState: no snapshot kept in ${kept.path}: no secret outlives this process to sign it with (set KEY_HASH_SECRET, or keep the keys in a SQLite file)`),
            undefined,
          )
        : yield* snapshotStoreScoped(kept.path, snapshotKey(Redacted.value(kept.secret))).pipe(
            Effect.map((opened) => marketRestore(config, rpc, opened, halfWidth, phases)),
            Effect.catchAll((e) => Effect.as(Effect.logWarning(`MarketState: no snapshot store: ${e.message}`), undefined)),
          )

    // the start, before the layer is ready: the stored market started from its block to the head, or
    // the market started from fromBlock
    const initial = yield* Effect.gen(function* () {
      const head = yield* rpc.blockNumber()
      const restored = store === undefined ? undefined : yield* store.restore(head)
      return restored ?? (yield* phases.start(empty(config.fromBlock - 1n), head))
    }).pipe(
      // an attempt that fails is said, with why, before the next one starts over
      Effect.tapError((e) => Effect.logWarning(`MarketState: the initial load failed (${e.message}); trying again`)),
      Effect.retry(Schedule.intersect(retrySchedule, Schedule.recurs(Math.max(0, (config.startAttempts ?? 5) - 1)))),
      traced("MarketState.initialLoad"),
    )

    const ref = yield* SubscriptionRef.make(initial.snapshot)
    // a configured venue the executor does not know is said once, and again when that changes
    let unregistered = unregisteredVenues(config, initial)
    for (const line of unregistered) yield* Effect.logWarning(line)
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
        // from the new head seen to its World published
        yield* Effect.gen(function* () {
          // a head behind us means the chain was reset: start again
          const next = yield* (head > world.block ? phases.step(world, head) : phases.start(empty(config.fromBlock - 1n), head))
          const previous = world
          world = next
          // what is registered changes with the registry, the stable pools known or the executor's settings read
          if (next.registry !== previous.registry || next.stablePools !== previous.stablePools || (next.snapshot.executor === undefined) !== (previous.snapshot.executor === undefined)) {
            const now = unregisteredVenues(config, next)
            for (const line of now) if (!unregistered.includes(line)) yield* Effect.logWarning(line)
            unregistered = now
          }
          yield* SubscriptionRef.set(ref, next.snapshot)
        }).pipe(traced("MarketState.block", { attributes: { head: head.toString() } }))
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
      traced("MarketState.follow"),
    )
    yield* Effect.forkScoped(follow)

    if (store !== undefined) {
      // written now (a load from the chain is what a restart saves), on a schedule, and at the end
      let saved = -1n
      const save = Effect.suspend(() => {
        const current = world
        if (current.block === saved) return Effect.void
        return Effect.map(store.save(current), (written) => void (written && (saved = current.block)))
      })
      yield* Effect.addFinalizer(() => save)
      yield* Effect.forkScoped(save.pipe(Effect.zipRight(Effect.sleep(config.snapshot?.interval ?? "5 minutes")), Effect.forever))
    }

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

    // plain flatMaps: read on every quote
    const freshWorld = (maxStaleMs: number): Effect.Effect<World, MarketStale> =>
      Effect.flatMap(Ref.get(health), (h) =>
        h.consecutiveFailures === 0
          ? snapshot
          : Effect.flatMap(Clock.currentTimeMillis, (now) =>
              now - h.lastSuccessAt > maxStaleMs ? Effect.fail(new MarketStale({ sinceSuccessMs: now - h.lastSuccessAt })) : snapshot,
            ),
      )

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
      freshWorld,
      // made when asked: walking every pool is not a block's work
      excluded: Effect.sync(() => excludedView(world)),
      tickWindow: halfWidth,
    } satisfies MarketStateService
  })

/** One line per configured venue (or its stable pools, listed or found) whose pools are followed but not routed. */
const unregisteredVenues = (config: MarketConfig, world: ActorState): string[] => {
  const settings = world.snapshot.executor
  if (config.executor === undefined || settings === undefined) return []
  const lines: string[] = []
  for (const venue of config.venues) {
    if (venue.kind === "curve-stableswap") {
      const pools = new Map(venue.pools.map((p) => [p.toLowerCase(), p as string]))
      for (const meta of world.stablePools ?? world.metas.values()) if (meta.kind === "curve-stableswap" && meta.venue === venue.name && !pools.has(meta.key)) pools.set(meta.key, meta.id)
      const missing = [...pools].filter(([key]) => !world.registry.stablePools.has(key)).map(([, pool]) => pool)
      if (missing.length > 0) lines.push(`MarketState: venue ${venue.name}: stable pools not registered on the executor, not routed: ${missing.join(", ")}`)
    } else if (!settings.venueIds.has(venue.name)) {
      lines.push(`MarketState: venue ${venue.name} (${venue.kind}) is not registered on the executor with its contract${venue.kind === "uniswap-v2" ? ` and fee ${venue.feeBps} bps` : ""}: its pools are not routed`)
    }
  }
  return lines
}

/**
 * The `excluded` view: the reasons of excluded pools, of pools hidden for a protocol fee, and
 * of pools followed but not published because the executor does not know their venue.
 */
const excludedView = (world: ActorState): ReadonlyMap<string, string> => {
  const view = new Map<string, string>()
  for (const [key, e] of world.excluded) view.set(key, e.reason)
  for (const key of world.hidden) view.set(key, "protocol fee set (not modelled)")
  for (const [key, state] of world.states) {
    if (view.has(key) || world.snapshot.pools.has(key)) continue
    view.set(key, state.kind === "curve-stableswap" ? "stable pool not registered on the executor" : `venue ${state.venue} not registered on the executor`)
  }
  return view
}

export class MarketState extends Context.Tag("market/MarketState")<MarketState, MarketStateService>() {
  /**
   * The actor for the life of the layer: the initial load runs while the layer is built (it
   * fails after `startAttempts` failed attempts), the block follower runs until the scope closes.
   */
  static readonly layer = (config: MarketConfig): Layer.Layer<MarketState, RpcError, Rpc | Tokens> =>
    Layer.scoped(MarketState, makeMarketState(config))
}
