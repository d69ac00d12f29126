// The AMM room's door: exact on-chain swap math of Uniswap V2, V3 and V4 and
// Curve-style stable pools, exact input and its inverse (exact output), as
// pure bigint functions (no Effect, no I/O, no floating point). Every function
// throws AmmRevert where the contract reverts; the pool simulations return a
// result union instead.
export { AmmRevert, isAmmRevert, type AmmRevertCode } from "./errors.ts"
export { MAX_INT256, MAX_UINT128, MAX_UINT160, MAX_UINT256, Q96, Q128 } from "./constants.ts"

// libraries (one file per Solidity library)
export { mulDiv, mulDivRoundingUp } from "./full-math.ts"
export { divRoundingUp } from "./unsafe-math.ts"
export {
  MIN_TICK,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MAX_SQRT_RATIO,
  MIN_SQRT_PRICE,
  MAX_SQRT_PRICE,
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  getSqrtPriceAtTick,
  getTickAtSqrtPrice,
} from "./tick-math.ts"
export {
  getNextSqrtPriceFromAmount0RoundingUp,
  getNextSqrtPriceFromAmount1RoundingDown,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
  getAmount0Delta,
  getAmount1Delta,
  getAmount0DeltaSigned,
  getAmount1DeltaSigned,
  getAmount0DeltaSignedV4,
  getAmount1DeltaSignedV4,
} from "./sqrt-price-math.ts"
export { computeSwapStep, computeSwapStepInto, type SwapStep } from "./swap-math.ts"
export { computeSwapStepV4, computeSwapStepV4Into, getSqrtPriceTarget, MAX_SWAP_FEE } from "./swap-math-v4.ts"
export { addDelta } from "./liquidity-math.ts"
export {
  getLiquidityForAmount0,
  getLiquidityForAmount1,
  getLiquidityForAmounts,
  getAmount0ForLiquidity,
  getAmount1ForLiquidity,
  getAmountsForLiquidity,
} from "./liquidity-amounts.ts"
export { nextInitializedTickWithinOneWord, type NextTick, type TickInfo } from "./tick-bitmap.ts"

// pools
export { poolTokens, type ConcentratedPoolState, type PairPoolState, type PoolKind, type PoolState, type StablePoolState, type V2PoolState } from "./pool-state.ts"
export { getAmountOut, getAmountIn, getAmountOutWithFee } from "./v2.ts"
export {
  swapExactInput,
  swapExactOutput,
  poolAfterSwap,
  checkConcentratedPool,
  DEFAULT_LIMIT_ZERO_FOR_ONE,
  DEFAULT_LIMIT_ONE_FOR_ZERO,
  type ConcentratedPool,
  type SwapResult,
  type SwapSuccess,
  type SwapFailure,
  type SwapFailureReason,
  type TradeSide,
} from "./v3.ts"
export { swapExactInputV4, swapExactOutputV4, calculateSwapFee } from "./v4.ts"
export {
  STABLE_A_PRECISION,
  STABLE_FEE_DENOMINATOR,
  STABLE_PRECISION,
  stableRates,
  stableXp,
  getD,
  getY,
  getDy,
  getDx,
  stableExchange,
  calcAddLiquidity,
  type StableSwapParams,
  type StableExchange,
  type StableDeposit,
} from "./stable-swap.ts"
