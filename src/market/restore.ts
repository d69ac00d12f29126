// The market's state across restarts: written to the embedded store (SQLite) on
// a schedule and when the service stops, loaded at start instead of rebuilding
// the market from the chain.
//
// A stored state is used only when it is whole (its checksum and every field),
// of this chain and this market configuration (chain id, the fingerprint of the
// venues, executor, feeds, start block and tick window), and of this chain's
// history (its block's hash is the chain's hash at that number). It is then
// caught up from its block to the head (the start: pools created and ticks
// changed in between, every pool read at the head; never the swaps) and
// a sample of its pools is read whole at the head and compared: one
// disagreement and the market is loaded from the chain instead. Every refusal
// is one log line; a refused snapshot is never served.
import { Effect, Either, Option } from "effect"
import type { RpcError, RpcService } from "../chain/index.ts"
import type { MarketConfig } from "./market-config.ts"
import { poolDisagreement } from "./pool-agreement.ts"
import { decodeSnapshot, encodeSnapshot, snapshotFingerprint, type SnapshotIdentity } from "./snapshot-codec.ts"
import type { SnapshotStore } from "./snapshot-store.ts"
import type { ActorState, Stepper } from "./step.ts"
import { emptyState } from "./step.ts"

/** Pools read whole to check a restored market (all of them when it has fewer) */
export const DEFAULT_SAMPLE = 32

/** `count` keys picked evenly along the sorted list: the same pools for the same market, spread over it. */
const sampleOf = (keys: readonly string[], count: number): string[] => {
  const sorted = [...keys].sort()
  if (sorted.length <= count) return sorted
  const picked: string[] = []
  for (let i = 0; i < count; i++) picked.push(sorted[Math.floor(((i + 0.5) * sorted.length) / count)]!)
  return picked
}

export const marketRestore = (config: MarketConfig, rpc: RpcService, store: SnapshotStore, tickWindow: number, { start, step }: Stepper) => {
  const identity: SnapshotIdentity = { chainId: rpc.chainId, fingerprint: snapshotFingerprint(config, tickWindow) }
  const refuse = (why: string) => Effect.as(Effect.logWarning(`MarketState: stored snapshot not used: ${why}; loading the market from the chain`), undefined)

  /** The stored market caught up to `head` and checked, or undefined (and one log line) when there is none to use. */
  const restore = (head: bigint): Effect.Effect<ActorState | undefined, RpcError> =>
    Effect.gen(function* () {
      const stored = yield* Effect.either(store.load(rpc.chainId))
      if (Either.isLeft(stored)) return yield* refuse(stored.left.message)
      if (Option.isNone(stored.right)) return undefined
      const decoded = decodeSnapshot(stored.right.value.text, identity)
      if (Either.isLeft(decoded)) return yield* refuse(decoded.left.message)
      const { blockHash, ...saved } = decoded.right
      if (saved.block > head) return yield* refuse(`its block ${saved.block} is past the chain's head ${head} (another chain)`)
      const block = yield* rpc.getBlock(saved.block)
      if (block.hash !== blockHash) return yield* refuse(`block ${saved.block} has another hash on this chain (another chain's history)`)

      const caught = yield* start({ ...saved, snapshot: { ...emptyState(rpc.chainId, saved.block).snapshot } }, head)
      const sample = sampleOf([...caught.states.keys()], config.snapshot?.sample ?? DEFAULT_SAMPLE)
      const checked = yield* step(caught, head, new Set(sample))
      for (const key of sample) {
        const kept = caught.states.get(key)
        const fresh = checked.states.get(key)
        const problem = kept === undefined || fresh === undefined ? "it could not be read again" : poolDisagreement(kept, fresh)
        if (problem !== undefined) return yield* refuse(`pool ${key} disagrees with the chain at block ${head}: ${problem}`)
      }
      yield* Effect.logInfo(
        `MarketState: restored the market of block ${saved.block} (saved ${new Date(stored.right.value.savedAt).toISOString()}), caught up to block ${head}: ${checked.states.size} pools, ${sample.length} checked against the chain`,
      )
      return checked
    }).pipe(Effect.withSpan("MarketState.restore"))

  /** Writes the state (with its block's hash): true when written; a failure is a log line, the previous document stays. */
  const save = (state: ActorState): Effect.Effect<boolean> =>
    Effect.gen(function* () {
      const block = yield* rpc.getBlock(state.block)
      const { snapshot: _, ...kept } = state
      yield* store.save(rpc.chainId, encodeSnapshot(identity, { ...kept, blockHash: block.hash }))
      return true
    }).pipe(
      Effect.catchAll((e) => Effect.as(Effect.logWarning(`MarketState: snapshot of block ${state.block} not written: ${e.message}`), false)),
      Effect.withSpan("MarketState.saveSnapshot"),
    )

  return { restore, save }
}
