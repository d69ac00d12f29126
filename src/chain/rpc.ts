// The chain's JSON-RPC endpoints as a service: one viem public client per URL
// (over json-rpc-transport.ts), used in order of preference within each
// endpoint's limits (endpoints.ts: failover, rate limits and Retry-After),
// checked against the expected chain id at start; eth_getLogs over any range in
// windows the endpoint accepts (log-ranges.ts); batched reads through
// Multicall3 (multicall.ts); every failure as a tagged RpcError (rpc-error.ts),
// counted in rpc_errors_total by method and reason.
import { Context, Effect, FiberRef, Layer, Metric } from "effect"
import { getNodeError } from "viem/utils"
import {
  BaseError,
  createPublicClient,
  defineChain,
  hexToBigInt,
  numberToHex,
  type Address,
  type BlockOverrides,
  type Chain,
  type Hex,
  type PublicClient,
  type StateOverride,
  type Transport,
  UnknownNodeError,
} from "viem"
import { endpointLabels, makeEndpoints } from "./endpoints.ts"
import { jsonRpcTransport } from "./json-rpc-transport.ts"
import { makeLogWalker, type LogRangeOptions } from "./log-ranges.ts"
import { makeMulticall, type Read, type ReadResult, type ReadValue } from "./multicall.ts"
import { RpcError, rpcErrors } from "./rpc-error.ts"
import { simulatedCall, simulateParams, type SimulatedCallRpc } from "./simulate-request.ts"
import { traced } from "./traced.ts"

export interface RpcConfig {
  /** endpoints in order of preference; later ones are used when earlier ones fail */
  readonly urls: readonly string[]
  /** the chain id every endpoint must report (Arc: 5042, Arc testnet: 5042002) */
  readonly chainId: number
  readonly multicall3: Address
  /** per-request timeout, ms (default 5000) */
  readonly timeoutMs?: number
  /** most calls per Multicall3 eth_call before a batch is split (default 1,000: a few million gas of reads) */
  readonly multicallBatchSize?: number
  /** how eth_getLogs ranges are walked (first window, largest window, windows in flight) */
  readonly logRanges?: LogRangeOptions
  /** the longest a request waits for rate-limited endpoints (default 30 s) */
  readonly maxRateLimitWaitMs?: number
  /** most requests of one turn of the event loop sent as one JSON-RPC batch, for the reads made in `readTogether` (default 1: each alone) */
  readonly batchSize?: number
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
  readonly hash: Hex
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
  readonly blockNumber: () => Effect.Effect<bigint, RpcError>
  readonly getBlock: (blockNumber?: bigint) => Effect.Effect<RpcBlock, RpcError>
  readonly maxPriorityFeePerGas: () => Effect.Effect<bigint, RpcError>
  /**
   * Every log of the filter from `fromBlock` to `toBlock`, in block order: eth_getLogs in as many
   * windows as the endpoint's limits need. `topics[0]` may list several event signatures.
   */
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
  /**
   * Any other request (a service's own: the relayer's sends, receipts, nonces), through the same
   * endpoints, failover, limits and metrics: `f` is given one endpoint's client at a time.
   */
  readonly request: <A>(method: string, f: (client: PublicClient<Transport, Chain>) => Promise<A>) => Effect.Effect<A, RpcError>
}


/** Whether the fiber's node reads go in JSON-RPC batches (readTogether). */
const readsTogether = FiberRef.unsafeMake(false)

/**
 * `effect` with its node reads (and those of the fibers it forks) sent in JSON-RPC batches with the
 * others of the same turn, up to `batchSize` a batch: a request's few light reads made together
 * (a /swap's head, funds and simulation) go in one HTTP request. Elsewhere each read goes alone:
 * a node runs a batch's requests one after another, so a start's hundreds of heavy reads keep
 * the node's parallelism.
 */
export const readTogether = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => Effect.locally(effect, readsTogether, true)

/** Builds the service: the client, then one eth_chainId to check that the endpoint serves the chain. */
export const makeRpc = (config: RpcConfig): Effect.Effect<RpcService, RpcError> =>
  Effect.gen(function* () {
    if (config.urls.length === 0) {
      return yield* new RpcError({ reason: "config", method: "Rpc.make", message: "no RPC URL configured" })
    }
    const timeout = config.timeoutMs ?? 5_000
    const batchSize = config.multicallBatchSize ?? 1_000
    const chain = defineChain({
      id: config.chainId,
      name: `chain ${config.chainId}`,
      nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
      rpcUrls: { default: { http: [...config.urls] } },
      contracts: { multicall3: { address: config.multicall3 } },
    })
    const labels = endpointLabels(config.urls)
    const endpoints = makeEndpoints(
      config.urls.map((url, i) => ({
        label: labels[i]!,
        client: createPublicClient({ chain, transport: jsonRpcTransport(url, { timeoutMs: timeout }), pollingInterval: 100 }) as PublicClient<Transport, Chain>,
        ...((config.batchSize ?? 1) > 1
          ? { batching: createPublicClient({ chain, transport: jsonRpcTransport(url, { timeoutMs: timeout, batchSize: config.batchSize! }), pollingInterval: 100 }) as PublicClient<Transport, Chain> }
          : {}),
      })),
      yield* Effect.clock,
      config.maxRateLimitWaitMs !== undefined ? { maxWaitMs: config.maxRateLimitWaitMs } : {},
    )
    /**
     * A node request with its span when spans are recorded (what traces and the benchmarks time), without
     * the caller's stack: Effect.fn makes an Error on every call for it, a cost each block step, /swap and poll pays
     */
    const nodeRequest = <Args extends unknown[], A, E>(name: string, body: (...args: Args) => Effect.Effect<A, E>) => {
      const span = traced(name)
      return (...args: Args): Effect.Effect<A, E> => span(body(...args))
    }
    const attempt = <A>(method: string, f: (client: PublicClient<Transport, Chain>) => Promise<A>): Effect.Effect<A, RpcError> =>
      Effect.tapError(Effect.flatMap(FiberRef.get(readsTogether), (together) => endpoints.request(method, f, together)), (e) =>
        Metric.increment(Metric.tagged(Metric.tagged(rpcErrors, "method", e.method), "reason", e.reason)))

    const served = yield* attempt("eth_chainId", (client) => client.getChainId())
    if (served !== config.chainId) {
      return yield* new RpcError({
        reason: "chain-mismatch",
        method: "eth_chainId",
        message: `the endpoint serves chain ${served}, expected ${config.chainId}`,
      })
    }

    // the head and a block's header asked for as such: viem's actions would cache the one and
    // format every field of the other, a cost each block step and /swap pays
    const blockNumber = nodeRequest("Rpc.blockNumber", () =>
      Effect.map(attempt("eth_blockNumber", (client) => client.request({ method: "eth_blockNumber" })), hexToBigInt))

    const getBlock = nodeRequest("Rpc.getBlock", (number?: bigint) =>
      Effect.flatMap(
        attempt("eth_getBlockByNumber", (client) =>
          client.request({ method: "eth_getBlockByNumber", params: [number === undefined ? "latest" : numberToHex(number), false] })),
        (block): Effect.Effect<RpcBlock, RpcError> =>
          block === null || block.number === null || block.hash === null
            ? Effect.fail(new RpcError({ reason: "rpc", method: "eth_getBlockByNumber", message: `block ${number ?? "latest"} could not be found` }))
            : Effect.succeed({
                number: hexToBigInt(block.number),
                hash: block.hash,
                timestamp: hexToBigInt(block.timestamp),
                baseFeePerGas: block.baseFeePerGas === null || block.baseFeePerGas === undefined ? 0n : hexToBigInt(block.baseFeePerGas),
              }),
      ))

    const maxPriorityFeePerGas = nodeRequest("Rpc.maxPriorityFeePerGas", () => Effect.gen(function* () {
      const hex = yield* attempt("eth_maxPriorityFeePerGas", (client) => client.request({ method: "eth_maxPriorityFeePerGas" }))
      return hexToBigInt(hex)
    }))

    type LogFilter = Parameters<RpcService["getLogs"]>[0]
    const getLogsOnce = (filter: LogFilter) => Effect.gen(function* () {
      const raw = yield* attempt("eth_getLogs", (client) =>
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
    const walkLogs = makeLogWalker(config.logRanges)
    const getLogs = nodeRequest("Rpc.getLogs", (filter: LogFilter) =>
      walkLogs((fromBlock, toBlock) => getLogsOnce({ ...filter, fromBlock, toBlock }), filter.fromBlock, filter.toBlock))

    const call = nodeRequest("Rpc.call", (params: CallParams) => Effect.gen(function* () {
      const result = yield* attempt("eth_call", (client) =>
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
    }))

    const simulate = nodeRequest("Rpc.simulate", (blocks: readonly SimulatedBlock[], options?: { readonly blockNumber?: bigint }) => Effect.gen(function* () {
      const result = yield* attempt("eth_simulateV1", async (client) => {
        try {
          return (await (client.request as (args: { method: string; params: unknown }) => Promise<unknown>)({
            method: "eth_simulateV1",
            params: simulateParams(blocks, options?.blockNumber),
          })) as ReadonlyArray<{ readonly calls?: readonly SimulatedCallRpc[] }>
        } catch (cause) {
          // the node's error as viem's simulateBlocks gives it (a revert, a fee too low, …)
          const error = getNodeError(cause as BaseError, {})
          throw error instanceof UnknownNodeError ? cause : error
        }
      })
      if (!Array.isArray(result) || result.length !== blocks.length || result.some((block, i) => !Array.isArray(block?.calls) || block.calls.length !== blocks[i]!.calls.length)) {
        return yield* new RpcError({ reason: "decode", method: "eth_simulateV1", message: "the answer does not have one result per call" })
      }
      return result.map((block) => block.calls!.map((c: SimulatedCallRpc): SimulatedCall => simulatedCall(c)))
    }))

    const estimateGas = nodeRequest("Rpc.estimateGas", (params: EstimateGasParams) =>
      attempt("eth_estimateGas", (client) =>
        client.estimateGas({
          account: params.from,
          to: params.to,
          data: params.data,
          prepare: false,
          ...(params.value !== undefined ? { value: params.value } : {}),
          ...(params.blockNumber !== undefined ? { blockNumber: params.blockNumber } : {}),
          ...(params.stateOverride !== undefined ? { stateOverride: params.stateOverride } : {}),
        }),
      ))

    const multicall = makeMulticall(config.multicall3, batchSize, call) as RpcService["multicall"]

    return {
      chainId: config.chainId,
      multicall3: config.multicall3,
      blockNumber,
      getBlock,
      maxPriorityFeePerGas,
      getLogs,
      call,
      simulate,
      estimateGas,
      multicall,
      request: attempt,
    } satisfies RpcService
  })

export class Rpc extends Context.Tag("chain/Rpc")<Rpc, RpcService>() {
  /** The service over the given endpoints; fails at start when no endpoint serves `chainId`. */
  static readonly layer = (config: RpcConfig): Layer.Layer<Rpc, RpcError> => Layer.effect(Rpc, makeRpc(config))
}
