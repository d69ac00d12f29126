// The owner's transactions: the contracts' ABIs, a transaction as the fixture plans it, and the
// queue that sends a round's transactions in JSON-RPC batches with explicit nonces and gas (with
// automine off) and mines them into one block, or a few when a block is full, each receipt
// required to succeed.
import { encodeFunctionData, numberToHex, type Abi, type Address, type Hex } from "viem"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/index.ts"
import { OWNER_INDEX, testAccounts, USDC_ADDRESS } from "../../src/devnet/index.ts"
import { HistoryError } from "./fixture.ts"
import type { Rpc, RpcBlock, RpcReceipt } from "./rpc-batch.ts"

export const MAX_FEE_PER_GAS = 100_000_000_000n

/** every transaction of the fixture is the owner's */
export const owner = testAccounts[OWNER_INDEX]!.address

export interface TxSpec {
  readonly to?: Address
  readonly data: Hex
  readonly gas: bigint
  readonly label: string
}

export const erc20Abi: Abi = ownArtifact("TestToken").abi
export const multicallAbi: Abi = ownArtifact("Multicall3").abi
export const executorAbi: Abi = ownArtifact("RouteExecutor").abi
export const stableFactoryAbi: Abi = ownArtifact("StableSwapFactory").abi
export const stablePoolAbi: Abi = ownArtifact("StableSwapPool").abi
export const v2FactoryAbi: Abi = uniswapArtifact("UniswapV2Factory").abi
export const v2PairAbi: Abi = uniswapArtifact("UniswapV2Pair").abi
export const v3FactoryAbi: Abi = uniswapArtifact("UniswapV3Factory").abi
export const v3PoolAbi: Abi = uniswapArtifact("UniswapV3Pool").abi
export const poolManagerAbi: Abi = uniswapArtifact("PoolManager").abi
export const v3Provider = ownArtifact("V3LiquidityProvider")
export const v4Provider = ownArtifact("V4LiquidityProvider")

/** StableSwapPool's add_liquidity for n coins (the overload of uint256[n]) */
export const addLiquidityAbi = (coins: number): Abi =>
  stablePoolAbi.filter((item) => item.type === "function" && item.name === "add_liquidity" && item.inputs[0]?.type === `uint256[${coins}]`)

/** a call of `functionName` on `to`, with its gas and the label its failure is reported by */
export const contractCall = (to: Address, abi: Abi, functionName: string, args: readonly unknown[], gas: bigint, label: string): TxSpec => ({
  to,
  data: encodeFunctionData({ abi, functionName, args }),
  gas,
  label,
})

/** a transfer of `amount` of USDC, or a mint of another token, to `to`; none for 0 */
export const fundTransaction =
  (tokenAddress: (symbol: string) => Address) =>
  (symbol: string, to: Address, amount: bigint, label: string): TxSpec | undefined =>
    amount === 0n
      ? undefined
      : symbol === "USDC"
        ? contractCall(USDC_ADDRESS, erc20Abi, "transfer", [to, amount], 200_000n, label)
        : contractCall(tokenAddress(symbol), erc20Abi, "mint", [to, amount], 200_000n, label)

/** The owner's transactions from nonce `firstNonce` on: `send` queues them, `mine` mines the queue. */
export const transactionQueue = (rpc: Rpc, firstNonce: bigint) => {
  let nonce = firstNonce
  const labels = new Map<string, string>()
  let queued = 0
  const send = async (txs: readonly TxSpec[]) => {
    const hashes = await rpc.batch<Hex>(
      txs.map((tx) => ({
        method: "eth_sendTransaction",
        params: [{
          from: owner,
          ...(tx.to !== undefined ? { to: tx.to } : {}),
          data: tx.data,
          gas: numberToHex(tx.gas),
          nonce: numberToHex(nonce++),
          maxFeePerGas: numberToHex(MAX_FEE_PER_GAS),
          maxPriorityFeePerGas: "0x1",
        }],
      })),
    )
    hashes.forEach((h, i) => labels.set(h, txs[i]!.label))
    queued += txs.length
  }
  /** mines every queued transaction (one block, or more when one is full); each must succeed. Returns the blocks. */
  const mine = async (): Promise<bigint[]> => {
    const blocks: bigint[] = []
    while (queued > 0) {
      await rpc.call("evm_mine")
      const block = await rpc.call<RpcBlock>("eth_getBlockByNumber", ["latest", false])
      if (block.transactions.length === 0) {
        const status = await rpc.call("txpool_status")
        throw new HistoryError(`a mined block took none of the ${queued} queued transactions (txpool ${JSON.stringify(status)})`)
      }
      const blockReceipts = await rpc.call<RpcReceipt[]>("eth_getBlockReceipts", [block.number])
      const failed = blockReceipts.filter((r) => r.status !== "0x1")
      if (failed.length > 0) {
        throw new HistoryError(`${failed.length} transaction(s) reverted, the first: ${labels.get(failed[0]!.transactionHash) ?? failed[0]!.transactionHash}`)
      }
      for (const r of blockReceipts) labels.delete(r.transactionHash)
      queued -= block.transactions.length
      blocks.push(BigInt(block.number))
    }
    return blocks
  }
  return { send, mine }
}
