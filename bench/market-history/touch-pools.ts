// touchPools: one transaction, mined in one block, that swaps on a number of distinct existing
// pools of mixed kinds; what a benchmark uses to make the market's next block.
import { encodeFunctionData, numberToHex, type Address, type Hex } from "viem"
import { HistoryError, type HistoryPool } from "./fixture.ts"
import { shuffle, type Rng } from "./random.ts"
import type { Rpc, RpcReceipt } from "./rpc-batch.ts"
import { GAS_PER_SWAP, swapper } from "./swaps.ts"
import { MAX_FEE_PER_GAS, multicallAbi, owner } from "./transactions.ts"

export interface TouchContext {
  readonly rpc: Rpc
  readonly rng: Rng
  /** every pool of the fixture */
  readonly pools: readonly HistoryPool[]
  readonly multicall: Address
  readonly swapCall: ReturnType<typeof swapper>["swapCall"]
  /** the executor's protocol fee as it is now */
  readonly readProtocolFee: () => Promise<number>
}

/**
 * Over the fixture's pools: `touchPools(count)` returns the block the swaps were mined in, once its
 * receipt says they succeeded; `sendTouch(count)` returns that block as soon as the transaction is
 * in it, learned from the transaction (a few hundred bytes), and the receipt's check (the logs of
 * every swap, about 1 MB at 200 pools) to run later: a benchmark timing the service's step in this
 * process checks it after the step, so that parsing it does not take the step's time.
 */
export const poolToucher = (context: TouchContext) => {
  const { rpc, rng, pools, multicall, swapCall, readProtocolFee } = context
  const sendTouch = async (count: number): Promise<{ readonly block: bigint; readonly confirmed: () => Promise<void> }> => {
    if (!Number.isInteger(count) || count < 1 || count > pools.length) throw new HistoryError(`touchPools: 1 to ${pools.length} pools, got ${count}`)
    // distinct pools at random, so kinds come in the market's own proportions, with at least one of every kind
    const shuffled = shuffle(rng, pools)
    const chosen = shuffled.slice(0, count)
    for (const kind of new Set(pools.map((p) => p.kind))) {
      if (chosen.some((p) => p.kind === kind)) continue
      const candidate = shuffled.slice(count).find((p) => p.kind === kind)
      const perKind = new Map<string, number>()
      for (const p of chosen) perKind.set(p.kind, (perKind.get(p.kind) ?? 0) + 1)
      const replaced = chosen.findIndex((p) => perKind.get(p.kind)! > 1)
      if (candidate !== undefined && replaced >= 0) chosen[replaced] = candidate
    }
    // the executor's fee now: a benchmark may have changed it since the build
    const fee = await readProtocolFee()
    const calls = chosen.map((pool) => swapCall(pool, fee))
    const hash = await rpc.call<Hex>("eth_sendTransaction", [{
      from: owner,
      to: multicall,
      data: encodeFunctionData({ abi: multicallAbi, functionName: "aggregate3", args: [calls] }),
      gas: numberToHex(100_000n + GAS_PER_SWAP * BigInt(calls.length)),
      maxFeePerGas: numberToHex(MAX_FEE_PER_GAS),
      maxPriorityFeePerGas: "0x1",
    }])
    for (let attempt = 0; ; attempt++) {
      const sent = await rpc.call<{ readonly blockNumber: Hex | null } | null>("eth_getTransactionByHash", [hash])
      if (sent?.blockNumber != null) {
        const confirmed = async () => {
          const receipt = await rpc.call<RpcReceipt | null>("eth_getTransactionReceipt", [hash])
          if (receipt?.status !== "0x1") throw new HistoryError(`touchPools: the swap transaction ${hash} reverted`)
        }
        return { block: BigInt(sent.blockNumber), confirmed }
      }
      if (attempt > 500) throw new HistoryError(`touchPools: transaction ${hash} was not mined (is automine off?)`)
      await Bun.sleep(10)
    }
  }
  const touchPools = async (count: number): Promise<bigint> => {
    const { block, confirmed } = await sendTouch(count)
    await confirmed()
    return block
  }
  return { touchPools, sendTouch }
}
