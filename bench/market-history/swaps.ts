// The fixture's swaps. They go through Multicall3, which holds every token and has approved the
// executor: one aggregate3 transaction carries 100 execute() calls, each a small one-hop route on
// one pool, so each swap emits the pool's own events (V2 Swap + Sync, V3 Swap, V4 Swap,
// TokenExchange).
import { getAddress, maxUint256, zeroAddress, type Address } from "viem"
import { encodeExecute } from "../../src/chain/execute-call.ts"
import type { Route, RouteHop } from "../../src/chain/route-encoding.ts"
import type { HistoryPool } from "./fixture.ts"
import type { FixtureToken } from "./plan.ts"
import { shuffle, type Rng } from "./random.ts"
import { contractCall, multicallAbi, type TxSpec } from "./transactions.ts"

const SWAPS_PER_TX = 100
/** gas limit per execute() inside an aggregate3 batch (a one-hop swap uses 100-250k) */
export const GAS_PER_SWAP = 600_000n

export interface SwapContext {
  readonly rng: Rng
  readonly tokenAddress: (symbol: string) => Address
  /** every token by symbol, with its price */
  readonly priceOf: ReadonlyMap<string, FixtureToken>
  /** the executor's venue id of every V2/V3/V4 venue */
  readonly venueIds: ReadonlyMap<string, number>
  readonly executor: Address
  readonly multicall: Address
  /** the executor's protocol fee, unless a swap is given another */
  readonly protocolFeeBps: number
}

/** `swapCall`: one swap on a pool, as an aggregate3 call; `swapBatches`: the transactions of many. */
export const swapper = (context: SwapContext) => {
  const { rng, tokenAddress, priceOf, venueIds, executor, multicall, protocolFeeBps } = context
  /** execute() of one small one-hop swap on a pool, from Multicall3 to itself */
  const swapCall = (pool: HistoryPool, feeBps = protocolFeeBps) => {
    const [inIndex, outIndex] = shuffle(rng, pool.tokens.map((_, i) => i)).slice(0, 2) as [number, number]
    const symbolIn = pool.tokens[inIndex]!
    const tokenIn = tokenAddress(symbolIn)
    const tokenOut = tokenAddress(pool.tokens[outIndex]!)
    const t = priceOf.get(symbolIn)!
    const usd = BigInt(20 + Math.floor(rng() * 480))
    const amountIn = (usd * 1_000_000n * 10n ** BigInt(t.decimals)) / t.micros
    const hop: RouteHop =
      pool.kind === "uniswap-v2"
        ? { kind: "v2", tokenIn, tokenOut, venue: venueIds.get(pool.dex)! }
        : pool.kind === "uniswap-v3"
          ? { kind: "v3", tokenIn, tokenOut, venue: venueIds.get(pool.dex)!, fee: pool.fee! }
          : pool.kind === "uniswap-v4"
            ? { kind: "v4", tokenIn, tokenOut, venue: venueIds.get(pool.dex)!, fee: pool.fee!, tickSpacing: pool.tickSpacing!, hooks: zeroAddress }
            : { kind: "stable", tokenIn, tokenOut, pool: getAddress(pool.pool) }
    const route: Route = [{ shareBps: 10_000, hops: [hop] }]
    return {
      target: executor,
      allowFailure: false,
      callData: encodeExecute({ tokenIn, tokenOut, amountIn: amountIn > 0n ? amountIn : 1n, minAmountOut: 1n, recipient: multicall, deadline: maxUint256, feeBps: 0, protocolFeeBps: feeBps, route }),
    }
  }
  const swapBatches = (chosen: readonly HistoryPool[], label: string): TxSpec[] => {
    const txs: TxSpec[] = []
    for (let i = 0; i < chosen.length; i += SWAPS_PER_TX) {
      const calls = chosen.slice(i, i + SWAPS_PER_TX).map((pool) => swapCall(pool))
      txs.push(contractCall(multicall, multicallAbi, "aggregate3", [calls], 100_000n + GAS_PER_SWAP * BigInt(calls.length), `${label} swaps ${i}-${i + calls.length - 1}`))
    }
    return txs
  }
  return { swapCall, swapBatches }
}
