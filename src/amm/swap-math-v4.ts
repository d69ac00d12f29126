// Port of v4-core SwapMath (v4-core/src/libraries/SwapMath.sol):
// getSqrtPriceTarget and computeSwapStep.
//
// How it differs from v3 SwapMath (swap-math.ts):
//  - Sign convention: amountRemaining < 0 is EXACT INPUT, >= 0 exact output
//    (v3: > = 0 exact input). Zero counts as exact output here, exact input in v3.
//  - Exact input, target not reached: v4 sets amountIn = amountRemainingLessFee
//    (the input after fee, not recomputed from the new price) and
//    fee = |amountRemaining| - amountRemainingLessFee; v3 recomputes amountIn
//    from the new price (rounded up) and fee = amountRemaining - amountIn. The
//    sum amountIn + fee (= |amountRemaining|), the new price and amountOut are
//    the same in both; only the split between amountIn and fee differs (which
//    matters for fee growth and protocol fees, not for what the swapper gets).
//  - Exact input, target reached: same values; v4 also accepts feePips = 1e6
//    (100%, then amountIn is 0 and the fee is 0), where v3 would divide by zero.
//  - Exact output: the output is capped before the input is computed (v3 caps
//    after); the results are the same.
//  - feePips may be up to 1e6 (MAX_SWAP_FEE); the pool refuses exact output at 1e6.
import { mulDiv, mulDivRoundingUp } from "./full-math.ts"
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from "./sqrt-price-math.ts"
import type { SwapStep } from "./swap-math.ts"

export const MAX_SWAP_FEE = 1_000_000
const MAX_SWAP_FEE_N = 1_000_000n

/**
 * SwapMath.getSqrtPriceTarget: the price the next step aims for, the next
 * tick's price unless the limit comes first:
 * zeroForOne ? max(next, limit) : min(next, limit).
 */
export const getSqrtPriceTarget = (zeroForOne: boolean, sqrtPriceNextX96: bigint, sqrtPriceLimitX96: bigint): bigint =>
  zeroForOne
    ? sqrtPriceNextX96 < sqrtPriceLimitX96
      ? sqrtPriceLimitX96
      : sqrtPriceNextX96
    : sqrtPriceNextX96 < sqrtPriceLimitX96
      ? sqrtPriceNextX96
      : sqrtPriceLimitX96

/** SwapMath.computeSwapStep (v4), written into `out`. Returns `out`. */
export const computeSwapStepV4Into = (
  out: SwapStep,
  sqrtPriceCurrentX96: bigint,
  sqrtPriceTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number | bigint,
): SwapStep => {
  const fee = typeof feePips === "bigint" ? feePips : BigInt(feePips)
  const zeroForOne = sqrtPriceCurrentX96 >= sqrtPriceTargetX96
  const exactIn = amountRemaining < 0n
  let sqrtPriceNextX96: bigint
  let amountIn: bigint
  let amountOut: bigint
  let feeAmount: bigint

  if (exactIn) {
    const amountRemainingLessFee = mulDiv(-amountRemaining, MAX_SWAP_FEE_N - fee, MAX_SWAP_FEE_N)
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, true)
    if (amountRemainingLessFee >= amountIn) {
      // amountIn is capped by the target price
      sqrtPriceNextX96 = sqrtPriceTargetX96
      feeAmount =
        fee === MAX_SWAP_FEE_N
          ? amountIn // always 0 here: amountRemainingLessFee == 0 >= amountIn
          : mulDivRoundingUp(amountIn, fee, MAX_SWAP_FEE_N - fee)
    } else {
      // exhaust the remaining amount
      amountIn = amountRemainingLessFee
      sqrtPriceNextX96 = getNextSqrtPriceFromInput(sqrtPriceCurrentX96, liquidity, amountRemainingLessFee, zeroForOne)
      // we didn't reach the target, so take the remainder of the maximum input as fee
      feeAmount = -amountRemaining - amountIn
    }
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, false)
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtPriceTargetX96, sqrtPriceCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtPriceCurrentX96, sqrtPriceTargetX96, liquidity, false)
    if (amountRemaining >= amountOut) {
      // amountOut is capped by the target price
      sqrtPriceNextX96 = sqrtPriceTargetX96
    } else {
      // cap the output amount to not exceed the remaining output amount
      amountOut = amountRemaining
      sqrtPriceNextX96 = getNextSqrtPriceFromOutput(sqrtPriceCurrentX96, liquidity, amountOut, zeroForOne)
    }
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtPriceNextX96, sqrtPriceCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtPriceCurrentX96, sqrtPriceNextX96, liquidity, true)
    // feePips cannot be MAX_SWAP_FEE for exact out (mulDivRoundingUp by 0 reverts)
    feeAmount = mulDivRoundingUp(amountIn, fee, MAX_SWAP_FEE_N - fee)
  }

  out.sqrtRatioNextX96 = sqrtPriceNextX96
  out.amountIn = amountIn
  out.amountOut = amountOut
  out.feeAmount = feeAmount
  return out
}

/** SwapMath.computeSwapStep (v4): amountRemaining < 0 is exact input. */
export const computeSwapStepV4 = (
  sqrtPriceCurrentX96: bigint,
  sqrtPriceTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number | bigint,
): SwapStep =>
  computeSwapStepV4Into(
    { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n },
    sqrtPriceCurrentX96,
    sqrtPriceTargetX96,
    liquidity,
    amountRemaining,
    feePips,
  )
