// Swap simulation (exact input and exact output) of a hookless Uniswap V4 pool: the loop of
// v4-core Pool.swap (v4-core 1.0.x, src/libraries/Pool.sol) with a protocol
// fee of 0 and the pool's static LP fee, over a snapshot of the pool's state
// (the same ConcentratedPool shape as V3; read it with StateView).
//
// Where V4 differs from V3, and what that changes here:
//  - Sign convention: amountSpecified < 0 is exact input, > 0 exact output
//    (v3: the opposite). The shared loop calls v4's computeSwapStep with the
//    remainder signed the v4 way.
//  - Step math: v4 SwapMath (swap-math-v4.ts). For a step that does not reach
//    its target, v4 books amountIn = input after fee and fee = the rest; v3
//    recomputes amountIn from the new price. amountIn + fee, the new price and
//    the output are the same, so swap results equal V3's for the same state
//    and fee; fee growth (not modelled) differs.
//  - Fees: the fee may be anything up to 1_000_000 (100%, all input becomes
//    fee and the output is 0); v3 pools have fee < 1e6. With a protocol fee
//    the pool swaps at calculateSwapFee(protocolFee, lpFee) instead of the LP
//    fee, which does change the output: pass that as `fee` in that case.
//    Hooks (beforeSwap deltas, dynamic fees) are not modelled.
//  - Tick crossing: identical (liquidityNet, negated when moving left; tick =
//    tickNext - 1 when moving left). The clamp to MIN_TICK/MAX_TICK is written
//    with <= / >= but clamps to the same values.
//  - Bitmap stepping: identical (TickBitmap.nextInitializedTickWithinOneWord
//    with the same word layout and compress rounding toward -infinity).
//  - Price limit: the same conditions, reported by v4 as PriceLimitAlreadyExceeded
//    / PriceLimitOutOfBounds, here as InvalidPriceLimit.
//  - Zero amount: v4 returns a zero delta instead of reverting; both are
//    refused here as InvalidAmount (no quote for nothing).
//  - A partial fill without an explicit limit: V4Quoter reverts with
//    NotEnoughLiquidity; here it is InsufficientLiquidity (with the fill).
import { computeSwapStepV4Into } from "./swap-math-v4.ts"
import { simulateSwap, type ConcentratedPool, type SwapResult } from "./v3.ts"

export type { ConcentratedPool, SwapFailure, SwapFailureReason, SwapResult, SwapSuccess, TickInfo } from "./v3.ts"

/**
 * ProtocolFeeLibrary.calculateSwapFee: the fee a v4 pool swaps at when a
 * protocol fee (pips, <= 1000, for the swap's direction) is set:
 * protocolFee + lpFee - floor(protocolFee * lpFee / 1e6).
 */
export const calculateSwapFee = (protocolFee: number, lpFee: number): number => {
  const product = protocolFee * lpFee
  return protocolFee + lpFee - (product - (product % 1_000_000)) / 1_000_000
}

/**
 * Exact-input swap through a hookless V4 pool, as Pool.swap computes it
 * (amountSpecified = -amountIn). Without `sqrtPriceLimitX96` the limit is
 * V4Quoter's (MIN_SQRT_PRICE + 1 / MAX_SQRT_PRICE - 1) and a partial fill is
 * InsufficientLiquidity; with it, a partial fill is a success whose amountIn
 * is what was consumed.
 */
export const swapExactInputV4 = (
  pool: ConcentratedPool,
  zeroForOne: boolean,
  amountIn: bigint,
  sqrtPriceLimitX96?: bigint,
): SwapResult => simulateSwap("v4", "exactInput", pool, zeroForOne, amountIn, sqrtPriceLimitX96, computeSwapStepV4Into)

/**
 * Exact-output swap through a hookless V4 pool, as Pool.swap computes it
 * (amountSpecified = +amountOut): amountIn is what the pool takes, fee
 * included, for exactly amountOut (V4Quoter.quoteExactOutputSingle). A pool
 * that cannot pay the whole output without an explicit limit is
 * InsufficientLiquidity (V4Quoter reverts); a 100% fee is refused as the pool
 * refuses it (InvalidFeeForExactOut).
 */
export const swapExactOutputV4 = (
  pool: ConcentratedPool,
  zeroForOne: boolean,
  amountOut: bigint,
  sqrtPriceLimitX96?: bigint,
): SwapResult => simulateSwap("v4", "exactOutput", pool, zeroForOne, amountOut, sqrtPriceLimitX96, computeSwapStepV4Into)
