// The one error type of the AMM math: thrown wherever the on-chain library
// reverts, so a caller can tell "the contract would revert here" apart from a
// programming error. `code` names the revert (Solidity custom error name, or a
// descriptive name where the contract uses a bare require/panic).

export type AmmRevertCode =
  | "MulDivOverflow" // FullMath: result >= 2^256
  | "DivisionByZero" // FullMath / Solidity `/` with a zero divisor
  | "InvalidTick" // TickMath: |tick| > MAX_TICK (v3: 'T')
  | "InvalidSqrtPrice" // TickMath: price outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO) (v3: 'R')
  | "InvalidPrice" // SqrtPriceMath.getAmount0Delta: a price is 0
  | "InvalidPriceOrLiquidity" // SqrtPriceMath.getNextSqrtPriceFrom{Input,Output}: price or liquidity is 0
  | "PriceOverflow" // SqrtPriceMath: the amount0 removal would underflow the denominator
  | "NotEnoughLiquidity" // SqrtPriceMath: the amount1 removal is larger than the price
  | "ArithmeticOverflow" // checked (SafeMath / 0.8) uint256 arithmetic
  | "SafeCastOverflow" // SafeCast/toUint160/toUint128/toInt256
  | "LiquidityUnderflow" // LiquidityMath.addDelta ('LS')
  | "LiquidityOverflow" // LiquidityMath.addDelta ('LA')
  | "InsufficientInputAmount" // UniswapV2Library
  | "InsufficientOutputAmount" // UniswapV2Library
  | "InsufficientLiquidity" // UniswapV2Library
  | "InvalidFee" // fee outside what the pool contract accepts
  | "ArithmeticUnderflow" // checked uint256 subtraction below zero (Vyper / Solidity 0.8)
  | "SameCoin" // StableSwap get_y: i == j
  | "CoinIndexOutOfRange" // StableSwap: a coin index outside 0..N-1
  | "DidNotConverge" // StableSwap get_D / get_y: no fixed point within 255 Newton rounds
  | "InitialDepositNeedsAllCoins" // StableSwap add_liquidity: first deposit without every coin
  | "InvariantNotIncreased" // StableSwap add_liquidity: D1 <= D0

export class AmmRevert extends Error {
  override readonly name = "AmmRevert"
  constructor(readonly code: AmmRevertCode, message?: string) {
    super(message === undefined ? code : `${code}: ${message}`)
  }
}

export const isAmmRevert = (u: unknown): u is AmmRevert => u instanceof AmmRevert
