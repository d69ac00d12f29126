// The chain as the relayer needs it: the head, the account's balance and
// nonces, raw transactions sent, receipts read. Through the chain room's
// endpoints (the service's own, with their failover and limits); every failure
// an RpcError.
import { Context, Effect, Layer } from "effect"
import { TransactionNotFoundError, TransactionReceiptNotFoundError, zeroAddress, type Address, type Hex, type Log } from "viem"
import { makeRpc, Rpc, type RpcError, type RpcService } from "../chain/index.ts"

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

/** The relayer's requests, each through `rpc`'s endpoints. */
export const makeRelayerNode = (rpc: RpcService): RelayerNodeShape => ({
  chainId: rpc.chainId,
  head: Effect.map(rpc.getBlock(), (block) => ({ number: block.number, timestamp: block.timestamp, baseFeePerGas: block.baseFeePerGas })),
  tip: rpc.request("eth_maxPriorityFeePerGas", (client) => client.estimateMaxPriorityFeePerGas()),
  balance: (address) => rpc.request("eth_getBalance", (client) => client.getBalance({ address })),
  nonce: (address, tag) => Effect.map(rpc.request("eth_getTransactionCount", (client) => client.getTransactionCount({ address, blockTag: tag })), BigInt),
  send: (raw) => rpc.request("eth_sendRawTransaction", (client) => client.request({ method: "eth_sendRawTransaction", params: [raw] })),
  receipt: (hash) =>
    rpc.request("eth_getTransactionReceipt", (client) =>
      client.getTransactionReceipt({ hash }).then(
        (r): Receipt => ({ success: r.status === "success", blockNumber: r.blockNumber, gasUsed: r.gasUsed, effectiveGasPrice: r.effectiveGasPrice, logs: r.logs }),
        (e) => {
          if (e instanceof TransactionReceiptNotFoundError) return undefined
          throw e
        },
      )),
  revertData: (call, blockNumber) =>
    rpc.request("eth_call", (client) => client.call({ account: call.from, to: call.to, data: call.data, gas: call.gas, blockNumber })).pipe(
      Effect.as(undefined),
      Effect.catchIf((e) => e.reason === "revert", (e) => Effect.succeed(e.revertData ?? "0x")),
    ),
  knows: (hash) =>
    rpc.request("eth_getTransactionByHash", (client) =>
      client.getTransaction({ hash }).then(
        () => true,
        (e) => {
          if (e instanceof TransactionNotFoundError) return false
          throw e
        },
      )),
})

export class RelayerNode extends Context.Tag("relayer/RelayerNode")<RelayerNode, RelayerNodeShape>() {
  /** Over the service's chain endpoints (failover, rate limits and metrics shared with every other request). */
  static readonly fromRpc: Layer.Layer<RelayerNode, never, Rpc> = Layer.effect(RelayerNode, Effect.map(Rpc, makeRelayerNode))
  /** Over the nodes at `urls` (in order of preference), checked to serve `chainId`. */
  static readonly layer = (options: { readonly urls: readonly string[]; readonly chainId: number; readonly timeoutMs?: number }): Layer.Layer<RelayerNode, RpcError> =>
    Layer.effect(
      RelayerNode,
      Effect.map(
        makeRpc({ urls: options.urls, chainId: options.chainId, multicall3: zeroAddress, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) }),
        makeRelayerNode,
      ),
    )
}
