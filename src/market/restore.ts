// The market's state across restarts: written to the embedded store (SQLite) on
// a schedule and when the service stops, loaded at start instead of rebuilding
// the market from the chain.
//
// A stored state is used only when it is authentic (its HMAC under the snapshot
// key verifies: snapshot-store.ts) and whole (every field), of this chain and
// this market configuration (chain id, the fingerprint of the venues, executor,
// feeds, start block and tick window), and of this chain's history (its block's
// hash is the chain's hash at that number). It is then caught up from its block
// to the head as a start is (pools created and ticks changed in between; never
// the swaps), and checked against the chain at the head before anything is
// served (restore-check.ts): every pool's state and stored ticks, and the tick
// bitmap near each price, read again in one batched pass, and the facts of a
// random sample of pools. One difference and the market is loaded from the
// chain instead. Every refusal is one log line; a refused snapshot is never served.
import { Chunk, Effect, Either, Option, Random } from "effect"
import { traced, type RpcError, type RpcService } from "../chain/index.ts"
import type { MarketConfig } from "./market-config.ts"
import { restoredMarketProblem } from "./restore-check.ts"
import { decodeSnapshot, encodeSnapshot, snapshotFingerprint, type SnapshotIdentity } from "./snapshot-codec.ts"
import type { SnapshotStore } from "./snapshot-store.ts"
import type { ActorState, Stepper } from "./step.ts"
import { emptyState } from "./step.ts"

/** Pools whose facts (tokens, fee, tick spacing, coins) a restore reads from the chain, picked at random each time */
export const DEFAULT_SAMPLE = 32


export const marketRestore = (config: MarketConfig, rpc: RpcService, store: SnapshotStore, tickWindow: number, { start }: Stepper) => {
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
      const shuffled = yield* Random.shuffle(caught.states.keys())
      const sample = Chunk.toReadonlyArray(Chunk.take(shuffled, config.snapshot?.sample ?? DEFAULT_SAMPLE))
      const problem = yield* restoredMarketProblem(config, caught, head, tickWindow, sample, (reads) => rpc.multicall(reads, { blockNumber: head }))
      if (problem !== undefined) return yield* refuse(problem)
      yield* Effect.logInfo(
        `MarketState: restored the market of block ${saved.block} (saved ${new Date(stored.right.value.savedAt).toISOString()}), caught up to block ${head}: ${caught.states.size} pools, each read again at the head, the facts of ${sample.length} checked`,
      )
      return caught
    }).pipe(
      // a document that verifies but holds what the reads cannot encode (an address in a wrong case, say)
      Effect.catchAllDefect((defect) => refuse(`it could not be checked against the chain (${defect instanceof Error ? defect.message.split("\n")[0] : String(defect)})`)),
      traced("MarketState.restore"),
    )

  /** Writes the state (with its block's hash): true when written; a failure is a log line, the previous document stays. */
  const save = (state: ActorState): Effect.Effect<boolean> =>
    Effect.gen(function* () {
      const block = yield* rpc.getBlock(state.block)
      const { snapshot: _, ...kept } = state
      yield* store.save(rpc.chainId, encodeSnapshot(identity, { ...kept, blockHash: block.hash }))
      return true
    }).pipe(
      Effect.catchAll((e) => Effect.as(Effect.logWarning(`MarketState: snapshot of block ${state.block} not written: ${e.message}`), false)),
      traced("MarketState.saveSnapshot"),
    )

  return { restore, save }
}
