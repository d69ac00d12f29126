// What a sender holds at a block: its native balance, and its balance of a
// token and allowance to a spender, in one Multicall3 read at that block.
import { Effect } from "effect"
import { erc20Abi, parseAbi, type Address } from "viem"
import { read } from "./multicall.ts"
import type { RpcService } from "./rpc.ts"
import { RpcError } from "./rpc-error.ts"

const MULTICALL3_ABI = parseAbi(["function getEthBalance(address addr) view returns (uint256 balance)"])
const NONCES_ABI = parseAbi(["function nonces(address owner) view returns (uint256)"])

export interface SenderFunds {
  /** native USDC, wei */
  readonly native: bigint
  /** balanceOf(sender) of the token; undefined when no token was asked */
  readonly balance: bigint | undefined
  /** allowance(sender, spender) of the token; undefined when no token was asked */
  readonly allowance: bigint | undefined
  /** the token's EIP-2612 nonces(sender); undefined when not asked */
  readonly permitNonce: bigint | undefined
}

/**
 * The sender's funds at `blockNumber`: the token's balance and allowance when a token is given,
 * and its permit nonce when asked (a token taking EIP-2612 permits).
 */
export const senderFunds = (rpc: RpcService, params: {
  readonly sender: Address
  readonly token?: { readonly address: Address; readonly spender: Address; readonly permitNonce?: boolean }
  readonly blockNumber: bigint
}): Effect.Effect<SenderFunds, RpcError> =>
  Effect.suspend(() => {
    const native = read({ address: rpc.multicall3, abi: MULTICALL3_ABI, functionName: "getEthBalance", args: [params.sender] })
    const token = params.token
    const reads = token === undefined
      ? [native] as const
      : [
          native,
          read({ address: token.address, abi: erc20Abi, functionName: "balanceOf", args: [params.sender] }),
          read({ address: token.address, abi: erc20Abi, functionName: "allowance", args: [params.sender, token.spender] }),
          ...(token.permitNonce === true ? [read({ address: token.address, abi: NONCES_ABI, functionName: "nonces", args: [params.sender] })] : []),
        ] as const
    return Effect.flatMap(rpc.multicall(reads, { blockNumber: params.blockNumber }), (results) => {
      const values: bigint[] = []
      for (const r of results) {
        if (!r.success) return Effect.fail(new RpcError({ method: "eth_call", reason: "revert", message: `the sender's funds could not be read at block ${params.blockNumber}` }))
        values.push(r.value as bigint)
      }
      return Effect.succeed({ native: values[0]!, balance: values[1], allowance: values[2], permitNonce: values[3] })
    })
  })
