// The chain's JSON-RPC endpoint as a service: one viem public client over a
// fallback list of URLs, checked against the expected chain id at start, with
// batched reads through Multicall3 and every failure as a tagged RpcError,
// counted in rpc_errors_total by method and reason.
import { Context, Data, Effect, Layer, Metric } from "effect"
import {
  BaseError,
  CallExecutionError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  RawContractError,
  RpcRequestError,
  TimeoutError,
  createPublicClient,
  decodeFunctionResult,
  defineChain,
  encodeFunctionData,
  fallback,
  hexToBigInt,
  http,
  type Abi,
  type Address,
  type BlockOverrides,
  type Chain,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  type Hex,
  type PublicClient,
  type StateOverride,
  type Transport,
} from "viem"

export type RpcErrorReason =
  /** no endpoint answered (connection refused, DNS, reset) */
  | "unreachable"
  /** an endpoint did not answer within the timeout */
  | "timeout"
  /** an endpoint answered with an HTTP error status */
  | "http"
  /** an endpoint answered with a JSON-RPC error */
  | "rpc"
  /** the call itself reverted */
  | "revert"
  /** the answer could not be decoded */
  | "decode"
  /** the endpoint serves another chain */
  | "chain-mismatch"
  /** the configuration is unusable (no URL, say) */
  | "config"
  /** the endpoint does not offer the method (JSON-RPC -32601 / -32004) */
  | "unsupported"

export class RpcError extends Data.TaggedError("RpcError")<{
  readonly reason: RpcErrorReason
  /** the JSON-RPC method (or service method) that failed */
  readonly method: string
  readonly message: string
  /** with reason "revert": the revert data, when the node gave it */
  readonly revertData?: Hex
}> {}

export interface RpcConfig {
  /** endpoints in order of preference; later ones are used when earlier ones fail */
  readonly urls: readonly string[]
  /** the chain id every endpoint must report (Arc: 5042) */
  readonly chainId: number
  readonly multicall3: Address
  /** per-request timeout, ms (default 5000) */
  readonly timeoutMs?: number
  /** most calls per Multicall3 eth_call before a batch is split (default 500) */
  readonly multicallBatchSize?: number
}

/** One read for a Multicall3 batch: where, what, and how to decode the answer. */
export interface Read<A> {
  readonly target: Address
  readonly callData: Hex
  readonly decode: (data: Hex) => A
}

export type ReadResult<A> =
  | { readonly success: true; readonly value: A }
  | { readonly success: false; readonly returnData: Hex }

type ReadValue<R> = R extends Read<infer A> ? A : never

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
  return {
    target: params.address,
    callData: encodeFunctionData(spec),
    decode: (data) => decodeFunctionResult({ ...spec, data }) as never,
  }
}

export interface RpcLog {
  readonly address: Address
  readonly topics: readonly Hex[]
  readonly data: Hex
  readonly blockNumber: bigint
  readonly logIndex: number
  readonly transactionHash: Hex
}

export interface RpcBlock {
  readonly number: bigint
  readonly timestamp: bigint
  readonly baseFeePerGas: bigint
}

export interface CallParams {
  readonly to: Address
  readonly data: Hex
  readonly from?: Address
  readonly value?: bigint
  readonly gas?: bigint
  readonly blockNumber?: bigint
  readonly stateOverride?: StateOverride
  readonly blockOverrides?: BlockOverrides
}

/** One block of an eth_simulateV1 request: calls run in order, state carries over to later blocks. */
export interface SimulatedBlock {
  readonly blockOverrides?: BlockOverrides
  readonly stateOverrides?: StateOverride
  readonly calls: readonly {
    readonly to: Address
    readonly data: Hex
    readonly from?: Address
    readonly value?: bigint
    readonly gas?: bigint
  }[]
}

export interface SimulatedCall {
  readonly success: boolean
  /** the return data, or the revert data */
  readonly data: Hex
  /** gas used, after refunds */
  readonly gasUsed: bigint
}

export interface EstimateGasParams {
  readonly from: Address
  readonly to: Address
  readonly data: Hex
  readonly value?: bigint
  readonly blockNumber?: bigint
  readonly stateOverride?: StateOverride
}

export interface RpcService {
  readonly chainId: number
  readonly multicall3: Address
  /** the underlying client, for what this service does not wrap */
  readonly client: PublicClient<Transport, Chain>
  readonly blockNumber: () => Effect.Effect<bigint, RpcError>
  readonly getBlock: (blockNumber?: bigint) => Effect.Effect<RpcBlock, RpcError>
  readonly maxPriorityFeePerGas: () => Effect.Effect<bigint, RpcError>
  /** eth_getLogs; `topics[0]` may list several event signatures */
  readonly getLogs: (filter: {
    readonly address?: Address | readonly Address[]
    readonly topics?: readonly (Hex | readonly Hex[] | null)[]
    readonly fromBlock: bigint
    readonly toBlock: bigint
  }) => Effect.Effect<readonly RpcLog[], RpcError>
  /** eth_call; a revert fails with reason "revert" */
  readonly call: (params: CallParams) => Effect.Effect<Hex, RpcError>
  /**
   * eth_simulateV1: the outcome of every call of every block, on top of `blockNumber` (latest
   * when not given). Block overrides must move forward from that base block, as geth and reth
   * require. A node without the method fails with reason "unsupported".
   */
  readonly simulate: (
    blocks: readonly SimulatedBlock[],
    options?: { readonly blockNumber?: bigint },
  ) => Effect.Effect<readonly (readonly SimulatedCall[])[], RpcError>
  /**
   * eth_estimateGas: the least gas limit at which the call succeeds (the node's search), on the
   * state at `blockNumber` with the overrides; a revert fails with reason "revert".
   */
  readonly estimateGas: (params: EstimateGasParams) => Effect.Effect<bigint, RpcError>
  /**
   * Many reads in Multicall3 aggregate3 eth_calls (one per `multicallBatchSize` reads, sent
   * together), each read allowed to fail on its own. Pass `blockNumber` for reads that must agree.
   */
  readonly multicall: <const R extends readonly Read<unknown>[]>(
    reads: R,
    options?: { readonly blockNumber?: bigint; readonly batchSize?: number },
  ) => Effect.Effect<{ readonly [K in keyof R]: ReadResult<ReadValue<R[K]>> }, RpcError>
}

const MULTICALL3_ABI = [
  {
    type: "function",
    name: "aggregate3",
    stateMutability: "payable",
    inputs: [
      {
        name: "calls",
        type: "tuple[]",
        components: [
          { name: "target", type: "address" },
          { name: "allowFailure", type: "bool" },
          { name: "callData", type: "bytes" },
        ],
      },
    ],
    outputs: [
      {
        name: "returnData",
        type: "tuple[]",
        components: [
          { name: "success", type: "bool" },
          { name: "returnData", type: "bytes" },
        ],
      },
    ],
  },
] as const

const isHex = (value: unknown): value is Hex => typeof value === "string" && /^0x([0-9a-fA-F]{2})*$/.test(value)

/** The revert data a node attached to an error: `data` as hex, or `data.data` (some nodes nest it). */
const revertDataOf = (cause: BaseError): Hex | undefined => {
  let found: Hex | undefined
  cause.walk((e) => {
    const data = (e as { data?: unknown }).data
    const hex = isHex(data) ? data : isHex((data as { data?: unknown } | undefined)?.data) ? (data as { data: Hex }).data : undefined
    if (hex !== undefined && found === undefined) found = hex
    return false
  })
  return found
}

const reverted = (method: string, message: string, cause: BaseError): RpcError => {
  const revertData = revertDataOf(cause)
  return new RpcError({ reason: "revert", method, message, ...(revertData !== undefined ? { revertData } : {}) })
}

/** Maps any failure of a viem request to an RpcError with the reason a caller can act on. */
export const toRpcError = (method: string) => (cause: unknown): RpcError => {
  if (cause instanceof RpcError) return cause
  if (!(cause instanceof BaseError)) {
    return new RpcError({ reason: "rpc", method, message: cause instanceof Error ? cause.message : String(cause) })
  }
  const message = cause.shortMessage
  const found = (type: abstract new (...args: never[]) => unknown) => cause.walk((e) => e instanceof type) !== null
  if (found(TimeoutError)) return new RpcError({ reason: "timeout", method, message })
  if (found(MethodNotFoundRpcError) || found(MethodNotSupportedRpcError)) return new RpcError({ reason: "unsupported", method, message })
  if (found(ContractFunctionRevertedError) || found(RawContractError) || found(ExecutionRevertedError)) {
    return reverted(method, message, cause)
  }
  if (found(HttpRequestError)) {
    const http = cause.walk((e) => e instanceof HttpRequestError) as HttpRequestError
    return new RpcError({ reason: http.status === undefined ? "unreachable" : "http", method, message })
  }
  if (cause instanceof CallExecutionError && /revert/i.test(cause.details ?? "")) return reverted(method, message, cause)
  if (found(RpcRequestError)) return new RpcError({ reason: "rpc", method, message })
  return new RpcError({ reason: "rpc", method, message })
}

/** Failed JSON-RPC requests (after the fallback over every URL), by method and reason. */
export const rpcErrors = Metric.counter("rpc_errors_total", {
  description: "JSON-RPC requests that failed after trying every endpoint, by method and reason",
  incremental: true,
})

const attempt = <A>(method: string, f: () => Promise<A>): Effect.Effect<A, RpcError> =>
  Effect.tapError(Effect.tryPromise({ try: f, catch: toRpcError(method) }), (e) =>
    Metric.increment(Metric.tagged(Metric.tagged(rpcErrors, "method", e.method), "reason", e.reason)))

const chunk = <A>(items: readonly A[], size: number): A[][] => {
  const out: A[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** Builds the service: the client, then one eth_chainId to check that the endpoint serves the chain. */
export const makeRpc = (config: RpcConfig): Effect.Effect<RpcService, RpcError> =>
  Effect.gen(function* () {
    if (config.urls.length === 0) {
      return yield* new RpcError({ reason: "config", method: "Rpc.make", message: "no RPC URL configured" })
    }
    const timeout = config.timeoutMs ?? 5_000
    const batchSize = config.multicallBatchSize ?? 500
    const chain = defineChain({
      id: config.chainId,
      name: `chain ${config.chainId}`,
      nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
      rpcUrls: { default: { http: [...config.urls] } },
      contracts: { multicall3: { address: config.multicall3 } },
    })
    const transports = config.urls.map((url) => http(url, { timeout, retryCount: 0, batch: false }))
    const transport = transports.length === 1 ? transports[0]! : fallback(transports, { retryCount: 0 })
    const client = createPublicClient({ chain, transport, pollingInterval: 100 }) as PublicClient<Transport, Chain>

    const served = yield* attempt("eth_chainId", () => client.getChainId())
    if (served !== config.chainId) {
      return yield* new RpcError({
        reason: "chain-mismatch",
        method: "eth_chainId",
        message: `the endpoint serves chain ${served}, expected ${config.chainId}`,
      })
    }

    const blockNumber = Effect.fn("Rpc.blockNumber")(function* () {
      return yield* attempt("eth_blockNumber", () => client.getBlockNumber({ cacheTime: 0 }))
    })

    const getBlock = Effect.fn("Rpc.getBlock")(function* (number?: bigint) {
      const block = yield* attempt("eth_getBlockByNumber", () =>
        number === undefined ? client.getBlock({ blockTag: "latest" }) : client.getBlock({ blockNumber: number }),
      )
      return { number: block.number, timestamp: block.timestamp, baseFeePerGas: block.baseFeePerGas ?? 0n } satisfies RpcBlock
    })

    const maxPriorityFeePerGas = Effect.fn("Rpc.maxPriorityFeePerGas")(function* () {
      const hex = yield* attempt("eth_maxPriorityFeePerGas", () => client.request({ method: "eth_maxPriorityFeePerGas" }))
      return hexToBigInt(hex)
    })

    const getLogs = Effect.fn("Rpc.getLogs")(function* (filter: Parameters<RpcService["getLogs"]>[0]) {
      const raw = yield* attempt("eth_getLogs", () =>
        client.request({
          method: "eth_getLogs",
          params: [
            {
              ...(filter.address !== undefined ? { address: filter.address as Address | Address[] } : {}),
              ...(filter.topics !== undefined ? { topics: filter.topics as (Hex | Hex[] | null)[] } : {}),
              fromBlock: `0x${filter.fromBlock.toString(16)}`,
              toBlock: `0x${filter.toBlock.toString(16)}`,
            },
          ],
        }),
      )
      return raw.map(
        (log): RpcLog => ({
          address: log.address,
          topics: log.topics,
          data: log.data,
          blockNumber: hexToBigInt(log.blockNumber!),
          logIndex: Number(hexToBigInt(log.logIndex!)),
          transactionHash: log.transactionHash!,
        }),
      )
    })

    const call = Effect.fn("Rpc.call")(function* (params: CallParams) {
      const result = yield* attempt("eth_call", () =>
        client.call({
          to: params.to,
          data: params.data,
          ...(params.from !== undefined ? { account: params.from } : {}),
          ...(params.value !== undefined ? { value: params.value } : {}),
          ...(params.gas !== undefined ? { gas: params.gas } : {}),
          ...(params.blockNumber !== undefined ? { blockNumber: params.blockNumber } : {}),
          ...(params.stateOverride !== undefined ? { stateOverride: params.stateOverride } : {}),
          ...(params.blockOverrides !== undefined ? { blockOverrides: params.blockOverrides } : {}),
        }),
      )
      return result.data ?? "0x"
    })

    const simulate = Effect.fn("Rpc.simulate")(function* (blocks: readonly SimulatedBlock[], options?: { readonly blockNumber?: bigint }) {
      const result = yield* attempt("eth_simulateV1", () =>
        client.simulateBlocks({
          ...(options?.blockNumber !== undefined ? { blockNumber: options.blockNumber } : {}),
          blocks: blocks.map((block) => ({
            ...(block.blockOverrides !== undefined ? { blockOverrides: block.blockOverrides } : {}),
            ...(block.stateOverrides !== undefined ? { stateOverrides: block.stateOverrides } : {}),
            calls: block.calls.map((c) => ({
              to: c.to,
              data: c.data,
              ...(c.from !== undefined ? { account: c.from } : {}),
              ...(c.value !== undefined ? { value: c.value } : {}),
              ...(c.gas !== undefined ? { gas: c.gas } : {}),
            })),
          })),
        }),
      )
      if (result.length !== blocks.length || result.some((block, i) => block.calls.length !== blocks[i]!.calls.length)) {
        return yield* new RpcError({ reason: "decode", method: "eth_simulateV1", message: "the answer does not have one result per call" })
      }
      return result.map((block) =>
        block.calls.map((c): SimulatedCall => ({
          success: c.status === "success",
          data: (c as { data?: Hex }).data ?? "0x",
          gasUsed: c.gasUsed,
        })),
      )
    })

    const estimateGas = Effect.fn("Rpc.estimateGas")(function* (params: EstimateGasParams) {
      return yield* attempt("eth_estimateGas", () =>
        client.estimateGas({
          account: params.from,
          to: params.to,
          data: params.data,
          prepare: false,
          ...(params.value !== undefined ? { value: params.value } : {}),
          ...(params.blockNumber !== undefined ? { blockNumber: params.blockNumber } : {}),
          ...(params.stateOverride !== undefined ? { stateOverride: params.stateOverride } : {}),
        }),
      )
    })

    const aggregate = (reads: readonly Read<unknown>[], number: bigint | undefined) =>
      Effect.gen(function* () {
        const data = encodeFunctionData({
          abi: MULTICALL3_ABI,
          functionName: "aggregate3",
          args: [reads.map((r) => ({ target: r.target, allowFailure: true, callData: r.callData }))],
        })
        const returned = yield* call({ to: config.multicall3, data, ...(number !== undefined ? { blockNumber: number } : {}) })
        const results = yield* Effect.try({
          try: () => decodeFunctionResult({ abi: MULTICALL3_ABI, functionName: "aggregate3", data: returned }),
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

    const multicall = Effect.fn("Rpc.multicall")(function* (
      reads: readonly Read<unknown>[],
      options?: { readonly blockNumber?: bigint; readonly batchSize?: number },
    ) {
      if (reads.length === 0) return []
      const batches = chunk(reads, options?.batchSize ?? batchSize)
      const results = yield* Effect.forEach(batches, (batch) => aggregate(batch, options?.blockNumber), { concurrency: 8 })
      return results.flat()
    }) as RpcService["multicall"]

    return {
      chainId: config.chainId,
      multicall3: config.multicall3,
      client,
      blockNumber,
      getBlock,
      maxPriorityFeePerGas,
      getLogs,
      call,
      simulate,
      estimateGas,
      multicall,
    } satisfies RpcService
  })

export class Rpc extends Context.Tag("chain/Rpc")<Rpc, RpcService>() {
  /** The service over the given endpoints; fails at start when no endpoint serves `chainId`. */
  static readonly layer = (config: RpcConfig): Layer.Layer<Rpc, RpcError> => Layer.effect(Rpc, makeRpc(config))
}
