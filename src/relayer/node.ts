// The chain as the relayer needs it: the head, the account's balance and
// nonces, raw transactions sent, receipts read. One viem public client over the
// node's URL; every failure an RpcError of the chain room.
import { Context, Effect, Layer } from "effect"
import {
  createPublicClient,
  defineChain,
  http,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type Log,
} from "viem"
import { RpcError, toRpcError } from "../chain/index.ts"

export interface Head {
  readonly number: bigint
  /** unix seconds */
  readonly timestamp: bigint
  readonly baseFeePerGas: bigint
}

export interface Receipt {
  readonly success: boolean
  readonly blockNumber: bigint
  readonly gasUsed: bigint
  readonly effectiveGasPrice: bigint
  readonly logs: readonly Log[]
}

export interface RelayerNodeShape {
  readonly chainId: number
  readonly head: Effect.Effect<Head, RpcError>
  /** the node's suggested priority fee */
  readonly tip: Effect.Effect<bigint, RpcError>
  readonly balance: (address: Address) => Effect.Effect<bigint, RpcError>
  /** transactions of `address` mined ("latest") or also waiting in the node's pool ("pending") */
  readonly nonce: (address: Address, tag: "latest" | "pending") => Effect.Effect<bigint, RpcError>
  /** eth_sendRawTransaction; a node that already has it (or has mined its nonce) fails with its message */
  readonly send: (raw: Hex) => Effect.Effect<Hex, RpcError>
  readonly receipt: (hash: Hex) => Effect.Effect<Receipt | undefined, RpcError>
  /**
   * The revert data of a call replayed on the state after `blockNumber` (a mined transaction's
   * reason, read again); undefined when it does not revert there.
   */
  readonly revertData: (call: { readonly from: Address; readonly to: Address; readonly data: Hex; readonly gas: bigint }, blockNumber: bigint) => Effect.Effect<Hex | undefined, RpcError>
  /** whether the node knows the transaction (in its pool or mined) */
  readonly knows: (hash: Hex) => Effect.Effect<boolean, RpcError>
}

export class RelayerNode extends Context.Tag("relayer/RelayerNode")<RelayerNode, RelayerNodeShape>() {
  /** The node at `url`, checked to serve `chainId`. */
  static readonly layer = (options: { readonly url: string; readonly chainId: number; readonly timeoutMs?: number }): Layer.Layer<RelayerNode, RpcError> =>
    Layer.effect(RelayerNode, makeRelayerNode(options))
}

export const makeRelayerNode = (options: { readonly url: string; readonly chainId: number; readonly timeoutMs?: number }): Effect.Effect<RelayerNodeShape, RpcError> =>
  Effect.gen(function* () {
    const chain = defineChain({
      id: options.chainId,
      name: `chain ${options.chainId}`,
      nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
      rpcUrls: { default: { http: [options.url] } },
    })
    const client = createPublicClient({ chain, transport: http(options.url, { timeout: options.timeoutMs ?? 5_000, retryCount: 0, batch: false }), cacheTime: 0 })
    const attempt = <A>(method: string, f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: toRpcError(method) })

    const served = yield* attempt("eth_chainId", () => client.getChainId())
    if (served !== options.chainId) {
      return yield* new RpcError({ reason: "chain-mismatch", method: "eth_chainId", message: `the endpoint serves chain ${served}, expected ${options.chainId}` })
    }
    return {
      chainId: options.chainId,
      head: Effect.map(attempt("eth_getBlockByNumber", () => client.getBlock({ blockTag: "latest" })), (block) => ({
        number: block.number,
        timestamp: block.timestamp,
        baseFeePerGas: block.baseFeePerGas ?? 0n,
      })),
      tip: attempt("eth_maxPriorityFeePerGas", () => client.estimateMaxPriorityFeePerGas()),
      balance: (address) => attempt("eth_getBalance", () => client.getBalance({ address })),
      nonce: (address, tag) => Effect.map(attempt("eth_getTransactionCount", () => client.getTransactionCount({ address, blockTag: tag })), BigInt),
      send: (raw) => attempt("eth_sendRawTransaction", () => client.request({ method: "eth_sendRawTransaction", params: [raw] })),
      receipt: (hash) =>
        attempt("eth_getTransactionReceipt", () =>
          client.getTransactionReceipt({ hash }).then(
            (r): Receipt => ({ success: r.status === "success", blockNumber: r.blockNumber, gasUsed: r.gasUsed, effectiveGasPrice: r.effectiveGasPrice, logs: r.logs }),
            (e) => {
              if (e instanceof TransactionReceiptNotFoundError) return undefined
              throw e
            },
          )),
      revertData: (call, blockNumber) =>
        attempt("eth_call", () => client.call({ account: call.from, to: call.to, data: call.data, gas: call.gas, blockNumber })).pipe(
          Effect.as(undefined),
          Effect.catchIf((e) => e.reason === "revert", (e) => Effect.succeed(e.revertData ?? "0x")),
        ),
      knows: (hash) =>
        attempt("eth_getTransactionByHash", () =>
          client.getTransaction({ hash }).then(
            () => true,
            (e) => {
              if (e instanceof TransactionNotFoundError) return false
              throw e
            },
          )),
    } satisfies RelayerNodeShape
  })
