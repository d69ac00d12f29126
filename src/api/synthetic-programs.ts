// Synthetic request programs for tests and benchmarks of the edge: a fixed,
// obviously made-up market (every pair pays out exactly twice the input, one hop
// on a DEX named "synthetic", protocol fee 25 bps). Any token outside its small
// table is a test mistake and kills the request loudly (502 INTERNAL, logged).
// Its one source is the venue "synthetic"; its tokens are USDC, A and B.
import { Effect, Layer } from "effect"
import { getAddress, type Address } from "viem"
import { ARC_CHAIN_ID, isNativePlaceholder, NATIVE_EEEE_PLACEHOLDER, USDC_ERC20_ADDRESS, type ArcChainId } from "../domain/index.ts"
import { grossForNet, maxAmountIn, minAmountOut, splitFees } from "../pricer/index.ts"
import { SwapPrograms, type QuoteError, type SwapError, type SwapRequest, type SwapResponse } from "../swap/index.ts"
import type { QuoteRequest, QuoteResponse } from "../domain/index.ts"

export const SYNTHETIC = {
  executor: getAddress("0x5e1ec7ed00000000000000000000000000000001"),
  protocolBps: 25,
  gasEstimate: 100_000n,
  simulatedGas: 150_000n,
  blockNumber: 1_234n,
  /** the tokens it answers for */
  tokens: {
    nativeUsdc: getAddress("0x0000000000000000000000000000000000000000"),
    nativePlaceholder: NATIVE_EEEE_PLACEHOLDER,
    usdc: USDC_ERC20_ADDRESS,
    tokenA: getAddress("0x00000000000000000000000000000000000000a1"),
    tokenB: getAddress("0x00000000000000000000000000000000000000b2"),
  },
} as const

const known = new Set<string>(Object.values(SYNTHETIC.tokens).map((a) => a.toLowerCase()))

const checkTokens = (request: QuoteRequest) =>
  known.has(request.tokenIn.toLowerCase()) && known.has(request.tokenOut.toLowerCase())
    ? Effect.void
    : Effect.dieMessage(`synthetic programs: asked for ${request.tokenIn} → ${request.tokenOut}, outside their token table`)

/** The synthetic answer: grossAmountOut = 2 × amountIn (exact output: amountIn = ⌈gross / 2⌉). */
export const syntheticQuote = (request: QuoteRequest): QuoteResponse => {
  const rates = { protocolBps: SYNTHETIC.protocolBps, partnerBps: request.feeBps }
  const exactInput = request.tradeType === "exactInput"
  const gross = exactInput ? request.amountIn * 2n : grossForNet(request.amountOut, rates)
  const amountIn = exactInput ? request.amountIn : (gross + 1n) / 2n
  const fees = splitFees(gross, rates)
  return {
    chainId: request.chainId,
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    tradeType: request.tradeType,
    amountIn,
    maxAmountIn: exactInput ? amountIn : maxAmountIn(amountIn, request.slippageBps),
    amountOut: exactInput ? fees.amountOut : request.amountOut,
    minAmountOut: exactInput ? minAmountOut(fees.amountOut, request.slippageBps) : request.amountOut,
    slippageBps: request.slippageBps,
    grossAmountOut: fees.grossAmountOut,
    fees: {
      token: request.tokenOut,
      protocolBps: SYNTHETIC.protocolBps,
      protocolAmount: fees.protocolAmount,
      partnerBps: request.feeBps,
      partnerAmount: fees.partnerAmount,
      partnerRecipient: request.feeRecipient,
    },
    priceImpactBps: null,
    gasEstimate: SYNTHETIC.gasEstimate,
    // at a base fee of 20 gwei; no price for the output token
    gasCost: { native: SYNTHETIC.gasEstimate * 20_000_000_000n, usdc: (SYNTHETIC.gasEstimate * 20_000_000_000n) / 10n ** 12n, tokenOut: null },
    route: [{ shareBps: 10_000, hops: [{ dex: "synthetic", pool: null, tokenIn: request.tokenIn, tokenOut: request.tokenOut }] }],
    blockNumber: SYNTHETIC.blockNumber,
  }
}

export const syntheticSwap = (request: SwapRequest): SwapResponse => {
  const native = isNativePlaceholder(request.tokenIn)
  const quote = syntheticQuote(request)
  return {
    ...quote,
    sender: request.sender,
    recipient: request.recipient,
    deadline: request.deadline,
    tx: { to: SYNTHETIC.executor, data: "0x5e1ec7ed", value: native ? quote.maxAmountIn : 0n, gas: SYNTHETIC.simulatedGas },
    approval: native || request.permit !== undefined ? null : { token: request.tokenIn, spender: SYNTHETIC.executor, amount: quote.maxAmountIn },
    permit: null,
    simulated: true,
    issues: { balance: null, allowance: null },
  }
}

export interface SyntheticOptions {
  /** the chain served; Arc's (5042) when not given */
  readonly chainId?: ArcChainId
  /** replaces the quote program (the token table still applies first) */
  readonly quote?: (request: QuoteRequest) => Effect.Effect<QuoteResponse, QuoteError>
  /** replaces the swap program (the token table still applies first) */
  readonly swap?: (request: SwapRequest) => Effect.Effect<SwapResponse, SwapError>
}

export const syntheticPrograms = (options: SyntheticOptions = {}): Layer.Layer<SwapPrograms> =>
  Layer.succeed(SwapPrograms, {
    chainId: options.chainId ?? ARC_CHAIN_ID,
    executor: SYNTHETIC.executor,
    quote: (request) => Effect.zipRight(checkTokens(request), options.quote?.(request) ?? Effect.succeed(syntheticQuote(request))),
    swap: (request) => Effect.zipRight(checkTokens(request), options.swap?.(request) ?? Effect.succeed(syntheticSwap(request))),
    sourceNames: new Set(["synthetic"]),
    sources: Effect.succeed({
      sources: [{ name: "synthetic", type: "venue" as const, kind: "uniswap-v2", pools: 1, healthy: true, detail: null, tradeTypes: ["exactInput" as const, "exactOutput" as const] }],
      blockNumber: SYNTHETIC.blockNumber,
    }),
    tokens: Effect.succeed({
      tokens: [
        { address: SYNTHETIC.tokens.usdc, symbol: "USDC", decimals: 6, priceUsd: "1" },
        { address: SYNTHETIC.tokens.tokenA, symbol: "A", decimals: 18, priceUsd: null },
        { address: SYNTHETIC.tokens.tokenB, symbol: "B", decimals: 6, priceUsd: null },
      ],
      blockNumber: SYNTHETIC.blockNumber,
    }),
  })
