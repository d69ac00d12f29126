// Port of SwapMath.computeSwapStep (v3-core/contracts/libraries/SwapMath.sol):
// one swap step within a single price range. The v4-core variant differs (sign
// convention, the amountIn/fee split of a partial step, 100% fee) and lives in
// swap-math-v4.ts.
//
// v3 conventions:
//   amountRemaining > 0 (or 0): exact input, amountRemaining is input incl. fee
//   amountRemaining < 0:        exact output
//   zeroForOne is inferred: sqrtRatioCurrentX96 >= sqrtRatioTargetX96
//   feePips: hundredths of a bip (3000 = 0.3%); must be < 1e6
import { mulDiv, mulDivRoundingUp } from "./full-math.ts"
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from "./sqrt-price-math.ts"

export interface SwapStep {
  /** the price after the step, never beyond the target */
  sqrtRatioNextX96: bigint
  /** input used by the step, excluding the fee */
  amountIn: bigint
  amountOut: bigint
  /** input taken as fee */
  feeAmount: bigint
}

const ONE_MILLION = 1_000_000n

/**
 * SwapMath.computeSwapStep (v3), written into `out` to spare an allocation in
 * hot loops. Returns `out`.
 */
export const computeSwapStepInto = (
  out: SwapStep,
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number | bigint,
): SwapStep => {
  const fee = typeof feePips === "bigint" ? feePips : BigInt(feePips)
  const zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96
  const exactIn = amountRemaining >= 0n
  let sqrtRatioNextX96: bigint
  let amountIn = 0n
  let amountOut = 0n

  if (exactIn) {
    const amountRemainingLessFee = mulDiv(amountRemaining, ONE_MILLION - fee, ONE_MILLION)
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, true)
    sqrtRatioNextX96 =
      amountRemainingLessFee >= amountIn
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, amountRemainingLessFee, zeroForOne)
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false)
    sqrtRatioNextX96 =
      -amountRemaining >= amountOut
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, -amountRemaining, zeroForOne)
  }

  const max = sqrtRatioTargetX96 === sqrtRatioNextX96

  // get the input/output amounts
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, true)
    if (!(max && !exactIn)) amountOut = getAmount1Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, false)
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, true)
    if (!(max && !exactIn)) amountOut = getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, false)
  }

  // cap the output amount to not exceed the remaining output amount
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining

  let feeAmount: bigint
  if (exactIn && sqrtRatioNextX96 !== sqrtRatioTargetX96) {
    // we didn't reach the target, so take the remainder of the maximum input as fee
    // (unchecked uint256 subtraction in the contract; amountIn <= amountRemaining always holds)
    feeAmount = amountRemaining - amountIn
  } else {
    // a fee of 100% divides by zero here and reverts, as in the contract
    feeAmount = mulDivRoundingUp(amountIn, fee, ONE_MILLION - fee)
  }

  out.sqrtRatioNextX96 = sqrtRatioNextX96
  out.amountIn = amountIn
  out.amountOut = amountOut
  out.feeAmount = feeAmount
  return out
}

/** SwapMath.computeSwapStep (v3): see the module comment for conventions. */
export const computeSwapStep = (
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: number | bigint,
): SwapStep =>
  computeSwapStepInto(
    { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n },
    sqrtRatioCurrentX96,
    sqrtRatioTargetX96,
    liquidity,
    amountRemaining,
    feePips,
  )
