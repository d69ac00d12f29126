// Many contract reads in Multicall3 aggregate3 eth_calls: typed reads, batches
// of a bounded size sent together, each read allowed to fail on its own. A
// batch the node fails whole (its call gas cap, its response size, a timeout)
// is split in two and each half sent again, down to single reads; the batch
// size then stays at the half for later reads.
import { Effect, Metric } from "effect"
import {
  decodeFunctionResult,
  encodeFunctionData,
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type Hex,
} from "viem"
import { decodeAggregate3, encodeAggregate3 } from "./aggregate3.ts"
import { RpcError, rpcLimits } from "./rpc-error.ts"
import { staticFunction } from "./static-abi.ts"
import { traced } from "./traced.ts"

/** One read for a Multicall3 batch: where, what, and how to decode the answer. */
export interface Read<A> {
  readonly target: Address
  readonly callData: Hex
  readonly decode: (data: Hex) => A
}

export type ReadResult<A> =
  | { readonly success: true; readonly value: A }
  | { readonly success: false; readonly returnData: Hex }

export type ReadValue<R> = R extends Read<infer A> ? A : never

/** A typed read of a contract function, for `Rpc.multicall`. */
export const read = <
  const abi extends Abi,
  functionName extends ContractFunctionName<abi>,
  const args extends ContractFunctionArgs<abi, "pure" | "view" | "nonpayable" | "payable", functionName>,
>(params: {
  readonly address: Address
  readonly abi: abi
  readonly functionName: functionName
  readonly args: args
}): Read<ContractFunctionReturnType<abi, "pure" | "view" | "nonpayable" | "payable", functionName, args>> => {
  const spec = { abi: params.abi as Abi, functionName: params.functionName as string, args: params.args as readonly unknown[] }
  const words = staticFunction(spec.abi, spec.functionName)
  if (words !== undefined) return { target: params.address, callData: words.encode(spec.args), decode: words.decode as (data: Hex) => never }
  return {
    target: params.address,
    callData: encodeFunctionData(spec),
    decode: (data) => decodeFunctionResult({ ...spec, data }) as never,
  }
}

const chunk = <A>(items: readonly A[], size: number): A[][] => {
  const out: A[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** The batched read over an eth_call at an optional block. */
export const makeMulticall = (
  multicall3: Address,
  batchSize: number,
  call: (params: { readonly to: Address; readonly data: Hex; readonly blockNumber?: bigint }) => Effect.Effect<Hex, RpcError>,
) => {
  const aggregate = (reads: readonly Read<unknown>[], number: bigint | undefined) =>
    Effect.gen(function* () {
      const data = encodeAggregate3(reads)
      const returned = yield* call({ to: multicall3, data, ...(number !== undefined ? { blockNumber: number } : {}) })
      const results = yield* Effect.try({
        try: () => decodeAggregate3(returned),
        catch: (e) => new RpcError({ reason: "decode", method: "Multicall3.aggregate3", message: String(e) }),
      })
      if (results.length !== reads.length) {
        return yield* new RpcError({ reason: "decode", method: "Multicall3.aggregate3", message: `${results.length} results for ${reads.length} calls` })
      }
      return results.map((result, i): ReadResult<unknown> => {
        if (!result.success) return { success: false, returnData: result.returnData }
        try {
          return { success: true, value: reads[i]!.decode(result.returnData) }
        } catch {
          // a call to an address without code "succeeds" with no data
          return { success: false, returnData: result.returnData }
        }
      })
    })


  // the batch size as learned from the node: halved whenever a batch had to be split
  let learned = batchSize
  let said = false
  // failures a smaller batch may not meet: out of gas, a response too large, a timeout
  const splittable = (e: RpcError) => e.reason === "revert" || e.reason === "rpc" || e.reason === "http" || e.reason === "timeout"
  const sent = (reads: readonly Read<unknown>[], number: bigint | undefined): Effect.Effect<ReadResult<unknown>[], RpcError> =>
    aggregate(reads, number).pipe(
      Effect.catchIf(
        (e) => splittable(e) && reads.length > 1,
        (e) =>
          Effect.gen(function* () {
            const half = Math.ceil(reads.length / 2)
            if (half < learned) learned = half
            yield* Metric.increment(Metric.tagged(rpcLimits, "limit", "batch-split"))
            const line = `Rpc: a batch of ${reads.length} reads failed (${e.reason}: ${e.message}); sending batches of at most ${learned} (counted in rpc_limits_total)`
            if (!said) {
              said = true
              yield* Effect.logWarning(line)
            } else yield* Effect.logDebug(line)
            const [left, right] = yield* Effect.all([sent(reads.slice(0, half), number), sent(reads.slice(half), number)], { concurrency: 2 })
            return [...left, ...right]
          }),
      ),
    )

  const span = traced("Rpc.multicall")
  return (reads: readonly Read<unknown>[], options?: { readonly blockNumber?: bigint; readonly batchSize?: number }) =>
    span(Effect.suspend((): Effect.Effect<ReadResult<unknown>[], RpcError> => {
      if (reads.length === 0) return Effect.succeed([])
      const size = Math.min(options?.batchSize ?? batchSize, learned)
      // one batch (a /swap's funds, most reads) is sent from this fiber: forEach would fork one for it
      if (reads.length <= size) return sent(reads, options?.blockNumber)
      return Effect.map(Effect.forEach(chunk(reads, size), (batch) => sent(batch, options?.blockNumber), { concurrency: 8 }), (results) => results.flat())
    }))
}
