// What the devnet aggregator knows: Uniswap V3 pools on a factory of its own,
// priced exactly by a QuoterV2 over that factory (exact input and exact output),
// and swapped through Uniswap's SwapRouter (exactInputSingle, exactOutputSingle).
// Both contracts are the npm artifacts, so the calldata it hands
// out is a real third-party router call.
import {
  createPublicClient,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  type Abi,
  type Address,
  type Hex,
} from "viem"
import { uniswapArtifact } from "../../contracts/index.ts"

export interface AggregatorPool {
  readonly address: Address
  readonly tokens: readonly [Address, Address]
  /** fee tier in hundredths of a bip */
  readonly fee: number
}

export interface AggregatorLiquidityOptions {
  readonly rpcUrl: string
  /** QuoterV2 over the aggregator's factory */
  readonly quoter: Address
  /** SwapRouter over the aggregator's factory */
  readonly router: Address
  readonly pools: readonly AggregatorPool[]
}

/** The least input for an exact output through one pool. */
export interface LiquidityBuyQuote {
  readonly pool: AggregatorPool
  readonly amountIn: bigint
  /** the QuoterV2's estimate of the pool swap's gas */
  readonly swapGas: bigint
  readonly blockNumber: bigint
}

export interface LiquidityQuote {
  readonly pool: AggregatorPool
  readonly amountOut: bigint
  /** the QuoterV2's estimate of the pool swap's gas */
  readonly swapGas: bigint
  readonly blockNumber: bigint
}

/**
 * Intrinsic gas and SwapRouter's own work around the pool swap the QuoterV2 measures (calldata,
 * the deadline check, the callback's transferFrom): measured on the devnet, an EOA's
 * exactInputSingle uses the quoter's estimate plus about this much.
 */
export const ROUTER_TX_OVERHEAD_GAS = 21_000n + 12_000n

const MIN_SQRT_RATIO_PLUS_ONE = 4295128740n
const MAX_SQRT_RATIO_MINUS_ONE = 1461446703485210103287273052203988822378723970341n

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

export const makeAggregatorLiquidity = (options: AggregatorLiquidityOptions) => {
  const client = createPublicClient({ transport: http(options.rpcUrl, { batch: false, retryCount: 0 }) })
  const quoterAbi = uniswapArtifact("QuoterV2").abi as Abi
  const routerAbi = uniswapArtifact("SwapRouter").abi as Abi

  const quoteOne = async (pool: AggregatorPool, tokenIn: Address, tokenOut: Address, amountIn: bigint, blockNumber: bigint) => {
    try {
      const { data } = await client.call({
        to: options.quoter,
        blockNumber,
        data: encodeFunctionData({
          abi: quoterAbi,
          functionName: "quoteExactInputSingle",
          args: [{ tokenIn, tokenOut, amountIn, fee: pool.fee, sqrtPriceLimitX96: 0n }],
        }),
      })
      const [amountOut, sqrtPriceAfter, , gasEstimate] = decodeFunctionResult({ abi: quoterAbi, functionName: "quoteExactInputSingle", data: data! }) as readonly [bigint, bigint, number, bigint]
      // a swap that ran to the end of the price range did not take the whole input
      if (sqrtPriceAfter === MIN_SQRT_RATIO_PLUS_ONE || sqrtPriceAfter === MAX_SQRT_RATIO_MINUS_ONE || amountOut === 0n) return undefined
      return { pool, amountOut, swapGas: gasEstimate, blockNumber }
    } catch {
      return undefined // no liquidity for this amount
    }
  }

  const quoteBuyOne = async (pool: AggregatorPool, tokenIn: Address, tokenOut: Address, amountOut: bigint, blockNumber: bigint) => {
    try {
      const { data } = await client.call({
        to: options.quoter,
        blockNumber,
        data: encodeFunctionData({
          abi: quoterAbi,
          functionName: "quoteExactOutputSingle",
          args: [{ tokenIn, tokenOut, amount: amountOut, fee: pool.fee, sqrtPriceLimitX96: 0n }],
        }),
      })
      // without a price limit the quoter reverts unless the pool pays the whole output
      const [amountIn, , , gasEstimate] = decodeFunctionResult({ abi: quoterAbi, functionName: "quoteExactOutputSingle", data: data! }) as readonly [bigint, bigint, number, bigint]
      return { pool, amountIn, swapGas: gasEstimate, blockNumber }
    } catch {
      return undefined // the pool cannot pay this much
    }
  }

  const poolsOf = (tokenIn: Address, tokenOut: Address) =>
    options.pools.filter(
      (p) => (same(p.tokens[0], tokenIn) && same(p.tokens[1], tokenOut)) || (same(p.tokens[1], tokenIn) && same(p.tokens[0], tokenOut)),
    )

  return {
    router: options.router,
    client,
    /** The single-pool quote needing the least input for an exact output, or undefined when no pool of the pair can pay it. */
    quoteBuy: async (tokenIn: Address, tokenOut: Address, amountOut: bigint): Promise<LiquidityBuyQuote | undefined> => {
      const pools = poolsOf(tokenIn, tokenOut)
      if (pools.length === 0 || amountOut <= 0n) return undefined
      const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
      const quotes = await Promise.all(pools.map((p) => quoteBuyOne(p, tokenIn, tokenOut, amountOut, blockNumber)))
      return quotes.reduce<LiquidityBuyQuote | undefined>((best, q) => (q !== undefined && (best === undefined || q.amountIn < best.amountIn) ? q : best), undefined)
    },
    /** SwapRouter.exactOutputSingle: pays `recipient` exactly `amountOut`, pulling from the caller what that needs, at most `amountInMaximum` (the rest never leaves the caller). */
    encodeBuy: (params: {
      readonly pool: AggregatorPool
      readonly tokenIn: Address
      readonly tokenOut: Address
      readonly amountOut: bigint
      readonly amountInMaximum: bigint
      readonly recipient: Address
      readonly deadline: bigint
    }): Hex =>
      encodeFunctionData({
        abi: routerAbi,
        functionName: "exactOutputSingle",
        args: [
          {
            tokenIn: getAddress(params.tokenIn),
            tokenOut: getAddress(params.tokenOut),
            fee: params.pool.fee,
            recipient: getAddress(params.recipient),
            deadline: params.deadline,
            amountOut: params.amountOut,
            amountInMaximum: params.amountInMaximum,
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
    /** The best single-pool quote for an exact input, or undefined when no pool of the pair can take it. */
    quote: async (tokenIn: Address, tokenOut: Address, amountIn: bigint): Promise<LiquidityQuote | undefined> => {
      const pools = poolsOf(tokenIn, tokenOut)
      if (pools.length === 0 || amountIn <= 0n) return undefined
      const blockNumber = await client.getBlockNumber({ cacheTime: 0 })
      const quotes = await Promise.all(pools.map((p) => quoteOne(p, tokenIn, tokenOut, amountIn, blockNumber)))
      return quotes.reduce<LiquidityQuote | undefined>((best, q) => (q !== undefined && (best === undefined || q.amountOut > best.amountOut) ? q : best), undefined)
    },
    /** SwapRouter.exactInputSingle: pulls `amountIn` from the caller, pays `recipient` at least `amountOutMinimum`. */
    encodeSwap: (params: {
      readonly pool: AggregatorPool
      readonly tokenIn: Address
      readonly tokenOut: Address
      readonly amountIn: bigint
      readonly amountOutMinimum: bigint
      readonly recipient: Address
      readonly deadline: bigint
    }): Hex =>
      encodeFunctionData({
        abi: routerAbi,
        functionName: "exactInputSingle",
        args: [
          {
            tokenIn: getAddress(params.tokenIn),
            tokenOut: getAddress(params.tokenOut),
            fee: params.pool.fee,
            recipient: getAddress(params.recipient),
            deadline: params.deadline,
            amountIn: params.amountIn,
            amountOutMinimum: params.amountOutMinimum,
            sqrtPriceLimitX96: 0n,
          },
        ],
      }),
    /** The taker's balance of a token and its allowance to the router, as an aggregator reports them. */
    holdings: async (token: Address, taker: Address) => {
      const [balance, allowance] = await Promise.all([
        client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [taker] }),
        client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [taker, options.router] }),
      ])
      return { balance, allowance }
    },
    gasPrice: () => client.getGasPrice(),
  }
}

export type AggregatorLiquidity = ReturnType<typeof makeAggregatorLiquidity>
