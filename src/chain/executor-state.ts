// The route executor's live settings (protocol fee rate, pause), read once per
// block by one fiber that follows the market's snapshots; readers get the last
// values without waiting on the chain.
import { Context, Effect, Layer, Option, Ref, Stream } from "effect"
import { parseAbi, type Address } from "viem"
import { MarketState } from "../market/index.ts"
import { read, Rpc, RpcError } from "./rpc.ts"

export interface ExecutorSettings {
  readonly address: Address
  readonly protocolFeeBps: number
  readonly paused: boolean
  /** the block the settings were read at */
  readonly blockNumber: bigint
}

export interface ExecutorStateShape {
  readonly address: Address
  /** the settings at the latest block read; fails only before the first successful read */
  readonly settings: Effect.Effect<ExecutorSettings, RpcError>
  /** the settings at the latest block read, without an effect; undefined before the first read */
  readonly current: () => ExecutorSettings | undefined
}

const EXECUTOR_ABI = parseAbi([
  "function protocolFeeBps() view returns (uint16)",
  "function paused() view returns (bool)",
])

export class ExecutorState extends Context.Tag("chain/ExecutorState")<ExecutorState, ExecutorStateShape>() {
  static readonly layer = (address: Address) => Layer.scoped(ExecutorState, makeExecutorState(address))
}

const makeExecutorState = (address: Address) =>
  Effect.gen(function* () {
    const rpc = yield* Rpc
    const market = yield* MarketState
    const current = yield* Ref.make(Option.none<ExecutorSettings>())
    let latest: ExecutorSettings | undefined

    const load = (blockNumber: bigint) =>
      Effect.gen(function* () {
        const [fee, paused] = yield* rpc.multicall(
          [
            read({ address, abi: EXECUTOR_ABI, functionName: "protocolFeeBps", args: [] }),
            read({ address, abi: EXECUTOR_ABI, functionName: "paused", args: [] }),
          ] as const,
          { blockNumber },
        )
        if (!fee.success || !paused.success) {
          return yield* new RpcError({ reason: "revert", method: "RouteExecutor.protocolFeeBps", message: `no route executor answers at ${address}` })
        }
        latest = { address, protocolFeeBps: Number(fee.value), paused: paused.value, blockNumber }
        yield* Ref.set(current, Option.some(latest))
      })

    const first = yield* market.snapshot
    yield* load(first.blockNumber).pipe(Effect.catchAll((e) => Effect.logWarning(`executor settings not read: ${e.message}`)))
    yield* market.changes.pipe(
      Stream.map((s) => s.blockNumber),
      Stream.changes,
      Stream.runForEach((block) => load(block).pipe(Effect.catchAll((e) => Effect.logWarning(`executor settings not refreshed: ${e.message}`)))),
      Effect.forkScoped,
    )

    // before the first successful read, a reader tries once itself
    const settings = Ref.get(current).pipe(
      Effect.flatMap(
        Option.match({
          onNone: () =>
            market.snapshot.pipe(
              Effect.flatMap((s) => load(s.blockNumber)),
              Effect.zipRight(Ref.get(current)),
              Effect.flatMap(Option.match({
                onNone: () => Effect.fail(new RpcError({ reason: "unreachable", method: "RouteExecutor.protocolFeeBps", message: "the executor's settings could not be read" })),
                onSome: Effect.succeed,
              })),
            ),
          onSome: Effect.succeed,
        }),
      ),
    )
    return { address, settings, current: () => latest } satisfies ExecutorStateShape
  })
