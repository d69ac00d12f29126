// Swap simulation of a Uniswap V3 pool, exact input and exact output: the loop
// of UniswapV3Pool.swap (v3-core 1.0.x) over a snapshot of the pool's state.
//
// What is reproduced, step for step:
//  - the price-limit check (require ... 'SPL'), with QuoterV2's default limit
//    MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO - 1 when none is given;
//  - each step's target: the next initialized tick within one bitmap word, or
//    the word boundary when the word has none (tick-bitmap.ts), clamped to
//    MIN_TICK/MAX_TICK, or the price limit when it comes first;
//  - SwapMath.computeSwapStep (v3) for every step, with its rounding; for
//    exact output (amountSpecified < 0) the remainder counts the output down
//    and the input (fee included) is summed up, as the pool does;
//  - crossing: liquidity += liquidityNet (negated when moving left), checked
//    like LiquidityMath.addDelta; tick = tickNext - 1 when moving left,
//    tickNext when moving right; otherwise the tick is recomputed from the
//    price unless the price did not move.
// Protocol fees and fee growth are left out: they split the fee between LPs
// and the protocol but never change amounts, price, tick or liquidity.
import { MAX_INT256 } from "./constants.ts"
import { AmmRevert } from "./errors.ts"
import { addDelta } from "./liquidity-math.ts"
import { computeSwapStepInto, type SwapStep } from "./swap-math.ts"
import { compress, upperBound, wordEndTick, wordStartTick, type TickInfo } from "./tick-bitmap.ts"
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from "./tick-math.ts"

export type { TickInfo } from "./tick-bitmap.ts"

/** A snapshot of a concentrated-liquidity pool (V3, or V4 without hooks). */
export interface ConcentratedPool {
  /** slot0.sqrtPriceX96 */
  readonly sqrtPriceX96: bigint
  /** slot0.tick (as stored: after a leftward swap ending on a tick it is that tick - 1) */
  readonly tick: number
  /** the in-range liquidity */
  readonly liquidity: bigint
  /** the swap fee in pips (hundredths of a bip): 500 = 0.05%, 3000 = 0.3% */
  readonly fee: number
  readonly tickSpacing: number
  /**
   * Every initialized tick (liquidityGross > 0, including those whose
   * liquidityNet is 0), sorted ascending, each a multiple of tickSpacing.
   * Validated once per array (by identity): do not mutate it afterwards.
   */
  readonly ticks: readonly TickInfo[]
  /**
   * The inclusive tick range [tickLower, tickUpper] over which `ticks` is
   * known to be complete; undefined = complete on that side. A swap whose
   * result could depend on a tick outside this range is refused with
   * "OutsideKnownTicks" rather than guessed.
   */
  readonly tickLower?: number
  readonly tickUpper?: number
}

export interface SwapSuccess {
  readonly ok: true
  /**
   * input consumed, fee included: exact input, less than requested only when
   * an explicit price limit was hit; exact output, what the pool takes for amountOut
   */
  readonly amountIn: bigint
  /** exact output: as requested, less only when an explicit price limit was hit */
  readonly amountOut: bigint
  readonly sqrtPriceX96After: bigint
  readonly tickAfter: number
  readonly liquidityAfter: bigint
  /** initialized ticks crossed */
  readonly ticksCrossed: number
}

export type SwapFailureReason =
  /** the amount (in or out) <= 0 or >= 2^255 */
  | "InvalidAmount"
  /** the price limit is on the wrong side of the price, or at/beyond MIN/MAX_SQRT_RATIO (the pool reverts) */
  | "InvalidPriceLimit"
  /** the pool snapshot is malformed (uninitialized price, fee or tick spacing out of range, unsorted or misaligned ticks) */
  | "InvalidPool"
  /** the result depends on ticks outside [tickLower, tickUpper] */
  | "OutsideKnownTicks"
  /**
   * no explicit limit was given and the pool runs out of liquidity before the
   * whole input is used (or the whole output paid): on chain the swap fills
   * partially (see `filled`); V4Quoter reverts with NotEnoughLiquidity,
   * QuoterV2 returns the partial fill of an exact input and reverts on one of
   * an exact output.
   */
  | "InsufficientLiquidity"
  /** the pool contract would revert inside its math (see `detail`) */
  | "Reverted"

export interface SwapFailure {
  readonly ok: false
  readonly reason: SwapFailureReason
  readonly detail?: string
  /** for InsufficientLiquidity: what the chain would do (a partial fill) */
  readonly filled?: SwapSuccess
}

export type SwapResult = SwapSuccess | SwapFailure

/** QuoterV2's and V4Quoter's default limits */
export const DEFAULT_LIMIT_ZERO_FOR_ONE = MIN_SQRT_RATIO + 1n
export const DEFAULT_LIMIT_ONE_FOR_ZERO = MAX_SQRT_RATIO - 1n

const fail = (reason: SwapFailureReason, detail?: string, filled?: SwapSuccess): SwapFailure =>
  detail === undefined && filled === undefined ? { ok: false, reason } : { ok: false, reason, detail, filled }

// Prices of the ticks swaps stop at (initialized ticks and word boundaries) recur
// across quotes of the same pools; getSqrtRatioAtTick is the costliest part of a
// step, so its results are memoized. Bounded: cleared when it grows past the cap.
const SQRT_CACHE_CAP = 1 << 16
const sqrtCache = new Map<number, bigint>()
const sqrtRatioAtTick = (tick: number): bigint => {
  let p = sqrtCache.get(tick)
  if (p === undefined) {
    p = getSqrtRatioAtTick(tick)
    if (sqrtCache.size >= SQRT_CACHE_CAP) sqrtCache.clear()
    sqrtCache.set(tick, p)
  }
  return p
}

// ticks arrays already checked for order and alignment, per tick spacing
const checkedTicks = new WeakMap<readonly TickInfo[], number>()

/**
 * Checks what the swap loop relies on: an initialized price, a tick that
 * matches it (as slot0 stores it), liquidity within uint128, a tick spacing
 * within int16, sorted, unique ticks that are multiples of the spacing and
 * within [MIN_TICK, MAX_TICK]. Returns a description of the first problem,
 * or undefined. The fee is checked by the swap functions (V3 and V4 differ).
 */
export const checkConcentratedPool = (pool: ConcentratedPool): string | undefined => {
  const { tickSpacing, ticks } = pool
  if (!Number.isInteger(tickSpacing) || tickSpacing < 1 || tickSpacing > 32767) return `tickSpacing ${tickSpacing}`
  if (pool.sqrtPriceX96 < MIN_SQRT_RATIO || pool.sqrtPriceX96 > MAX_SQRT_RATIO) return `sqrtPriceX96 ${pool.sqrtPriceX96}`
  if (!Number.isInteger(pool.tick) || pool.tick < MIN_TICK - 1 || pool.tick > MAX_TICK) return `tick ${pool.tick}`
  if (pool.liquidity < 0n || pool.liquidity >= 1n << 128n) return `liquidity ${pool.liquidity}`
  // slot0.tick is getTickAtSqrtRatio(price), or one less when a leftward swap ended exactly on a tick
  const below = pool.tick >= MIN_TICK ? sqrtRatioAtTick(pool.tick) : 0n
  const above = pool.tick < MAX_TICK ? sqrtRatioAtTick(pool.tick + 1) : MAX_SQRT_RATIO + 1n
  if (!(below <= pool.sqrtPriceX96 && pool.sqrtPriceX96 <= above)) return `tick ${pool.tick} does not match sqrtPriceX96 ${pool.sqrtPriceX96}`
  if (checkedTicks.get(ticks) === tickSpacing) return undefined
  let prev = Number.NEGATIVE_INFINITY
  for (const t of ticks) {
    if (!Number.isInteger(t.tick) || t.tick % tickSpacing !== 0 || t.tick < MIN_TICK || t.tick > MAX_TICK) {
      return `tick ${t.tick} is not a usable multiple of ${tickSpacing}`
    }
    if (t.tick <= prev) return `ticks not strictly ascending at ${t.tick}`
    prev = t.tick
  }
  checkedTicks.set(ticks, tickSpacing)
  return undefined
}

/** Which pool contract's swap loop to run (see v4.ts for the differences). */
export type PoolKind = "v3" | "v4"

// One step result reused by every swap: the loop is synchronous, so one is enough.
const step: SwapStep = { sqrtRatioNextX96: 0n, amountIn: 0n, amountOut: 0n, feeAmount: 0n }

/** What the caller fixes: the input (exact input) or the output (exact output). */
export type TradeSide = "exactInput" | "exactOutput"

/**
 * The shared swap loop of UniswapV3Pool.swap and v4 Pool.swap, for both signs
 * of amountSpecified. `stepFn` is the version's computeSwapStep with its own
 * sign convention: v3 takes +remaining for exact input and -remaining for
 * exact output, v4 the opposite.
 */
export const simulateSwap = (
  kind: PoolKind,
  side: TradeSide,
  pool: ConcentratedPool,
  zeroForOne: boolean,
  amountSpecified: bigint,
  sqrtPriceLimitX96: bigint | undefined,
  stepFn: (
    out: SwapStep,
    current: bigint,
    target: bigint,
    liquidity: bigint,
    amountRemaining: bigint,
    feePips: bigint,
  ) => SwapStep,
): SwapResult => {
  if (amountSpecified <= 0n || amountSpecified > MAX_INT256) return fail("InvalidAmount")
  const problem = checkConcentratedPool(pool)
  if (problem !== undefined) return fail("InvalidPool", problem)
  const exactInput = side === "exactInput"
  const maxFee = kind === "v3" ? 999_999 : 1_000_000
  if (!Number.isInteger(pool.fee) || pool.fee < 0 || pool.fee > maxFee) return fail("InvalidPool", `fee ${pool.fee}`)
  // v4 Pool.swap: a 100% fee leaves nothing to buy an output with
  if (!exactInput && pool.fee >= 1_000_000) return fail("Reverted", "InvalidFeeForExactOut")

  const explicitLimit = sqrtPriceLimitX96 !== undefined
  const limit = sqrtPriceLimitX96 ?? (zeroForOne ? DEFAULT_LIMIT_ZERO_FOR_ONE : DEFAULT_LIMIT_ONE_FOR_ZERO)
  const price0 = pool.sqrtPriceX96
  if (zeroForOne ? !(limit < price0 && limit > MIN_SQRT_RATIO) : !(limit > price0 && limit < MAX_SQRT_RATIO)) {
    return fail("InvalidPriceLimit")
  }

  const { ticks, tickSpacing } = pool
  const n = ticks.length
  const fee = BigInt(pool.fee)
  // the ticks beyond which the list may be incomplete, and the price that a step
  // targeting past them must stay strictly inside of (see the check in the loop)
  const unknownBelow = pool.tickLower !== undefined && pool.tickLower > MIN_TICK ? pool.tickLower : undefined
  const unknownAbove = pool.tickUpper !== undefined && pool.tickUpper < MAX_TICK ? pool.tickUpper : undefined
  let guardPrice = -1n // computed on first use
  // the first search covers ticks <= tick (zeroForOne) or > tick: it must start inside the known range
  if (zeroForOne ? unknownAbove !== undefined && pool.tick > unknownAbove : unknownBelow !== undefined && pool.tick < unknownBelow - 1) {
    return fail("OutsideKnownTicks", `the price is outside [${pool.tickLower}, ${pool.tickUpper}]`)
  }

  let sqrtPriceX96 = price0
  let tick = pool.tick
  let liquidity = pool.liquidity
  // what is left of the specified amount, counted down; the step functions take
  // it signed as their pool's amountSpecifiedRemaining
  let left = amountSpecified
  const sign = (kind === "v3") === exactInput ? 1n : -1n
  // the other side: output of an exact input, input (fee included) of an exact output
  let calculated = 0n
  let ticksCrossed = 0
  // cursor: index of the first initialized tick > tick
  let cursor = upperBound(ticks, tick)
  // a step that ends between ticks ends the swap: the tick of its price is only computed when read
  let tickFromPrice = false

  try {
    while (left !== 0n && sqrtPriceX96 !== limit) {
      if (tickFromPrice) {
        tick = getTickAtSqrtRatio(sqrtPriceX96)
        tickFromPrice = false
      }
      const sqrtPriceStartX96 = sqrtPriceX96

      // nextInitializedTickWithinOneWord(tick, tickSpacing, zeroForOne)
      while (cursor > 0 && ticks[cursor - 1]!.tick > tick) cursor--
      while (cursor < n && ticks[cursor]!.tick <= tick) cursor++
      const compressed = compress(tick, tickSpacing)
      let tickNext: number
      let initializedIndex = -1
      if (zeroForOne) {
        const start = wordStartTick(compressed, tickSpacing)
        if (cursor > 0 && ticks[cursor - 1]!.tick >= start) {
          initializedIndex = cursor - 1
          tickNext = ticks[initializedIndex]!.tick
        } else tickNext = start
      } else {
        const end = wordEndTick(compressed + 1, tickSpacing)
        if (cursor < n && ticks[cursor]!.tick <= end) {
          initializedIndex = cursor
          tickNext = ticks[initializedIndex]!.tick
        } else tickNext = end
      }
      // the bitmap is not aware of the tick bounds
      if (tickNext < MIN_TICK) tickNext = MIN_TICK
      else if (tickNext > MAX_TICK) tickNext = MAX_TICK

      const sqrtPriceNextX96 = sqrtRatioAtTick(tickNext)
      const target = zeroForOne
        ? sqrtPriceNextX96 < limit
          ? limit
          : sqrtPriceNextX96
        : sqrtPriceNextX96 > limit
          ? limit
          : sqrtPriceNextX96

      stepFn(step, sqrtPriceX96, target, liquidity, sign * left, fee)
      sqrtPriceX96 = step.sqrtRatioNextX96

      // A step aimed past the known range is only trustworthy if it ends
      // strictly before the first unknown tick could be: then no unknown tick
      // could have been its target, and (not reaching its target) its result
      // does not depend on the target.
      if (zeroForOne) {
        if (unknownBelow !== undefined && tickNext < unknownBelow) {
          if (guardPrice < 0n) guardPrice = getSqrtRatioAtTick(unknownBelow - 1)
          if (!(sqrtPriceX96 > guardPrice)) return fail("OutsideKnownTicks", `below tick ${unknownBelow}`)
        }
      } else if (unknownAbove !== undefined && tickNext > unknownAbove) {
        if (guardPrice < 0n) guardPrice = getSqrtRatioAtTick(unknownAbove + 1)
        if (!(sqrtPriceX96 < guardPrice)) return fail("OutsideKnownTicks", `above tick ${unknownAbove}`)
      }

      if (exactInput) {
        left -= step.amountIn + step.feeAmount
        calculated += step.amountOut
      } else {
        left -= step.amountOut
        calculated += step.amountIn + step.feeAmount
      }

      if (sqrtPriceX96 === sqrtPriceNextX96) {
        // reached the next tick: cross it if initialized
        if (initializedIndex >= 0) {
          const net = ticks[initializedIndex]!.liquidityNet
          liquidity = addDelta(liquidity, zeroForOne ? -net : net)
          ticksCrossed++
        }
        tick = zeroForOne ? tickNext - 1 : tickNext
      } else if (sqrtPriceX96 !== sqrtPriceStartX96) {
        // recompute unless we're on a lower tick boundary (already transitioned) and haven't moved
        tickFromPrice = true
      }
    }
  } catch (e) {
    if (e instanceof AmmRevert) return fail("Reverted", e.message)
    throw e
  }

  const done = amountSpecified - left
  const finalTick = tick
  const result: SwapSuccess = {
    ok: true,
    amountIn: exactInput ? done : calculated,
    amountOut: exactInput ? calculated : done,
    sqrtPriceX96After: sqrtPriceX96,
    get tickAfter() {
      return tickFromPrice ? getTickAtSqrtRatio(sqrtPriceX96) : finalTick
    },
    liquidityAfter: liquidity,
    ticksCrossed,
  }
  if (left !== 0n && !explicitLimit) return fail("InsufficientLiquidity", undefined, result)
  return result
}

/**
 * Exact-input swap through a V3 pool, as UniswapV3Pool.swap computes it
 * (amountSpecified = amountIn > 0). Without `sqrtPriceLimitX96` the limit is
 * QuoterV2's default and a partial fill is reported as InsufficientLiquidity;
 * with it, a partial fill is a success whose amountIn is what was consumed.
 */
export const swapExactInput = (
  pool: ConcentratedPool,
  zeroForOne: boolean,
  amountIn: bigint,
  sqrtPriceLimitX96?: bigint,
): SwapResult => simulateSwap("v3", "exactInput", pool, zeroForOne, amountIn, sqrtPriceLimitX96, computeSwapStepInto)

/**
 * Exact-output swap through a V3 pool, as UniswapV3Pool.swap computes it
 * (amountSpecified = -amountOut): amountIn is what the pool takes, fee
 * included, for exactly amountOut. Without `sqrtPriceLimitX96` the limit is
 * QuoterV2's default, and a pool (or known tick range) that cannot pay the
 * whole output is InsufficientLiquidity (QuoterV2.quoteExactOutputSingle
 * reverts) or OutsideKnownTicks; with it, a partial fill is a success whose
 * amountOut is what was paid.
 */
export const swapExactOutput = (
  pool: ConcentratedPool,
  zeroForOne: boolean,
  amountOut: bigint,
  sqrtPriceLimitX96?: bigint,
): SwapResult => simulateSwap("v3", "exactOutput", pool, zeroForOne, amountOut, sqrtPriceLimitX96, computeSwapStepInto)

/**
 * The pool snapshot after a swap (price, tick and in-range liquidity move;
 * ticks and fee stay): for chaining swaps through the same pool.
 */
export const poolAfterSwap = (pool: ConcentratedPool, swap: SwapSuccess): ConcentratedPool => ({
  ...pool,
  sqrtPriceX96: swap.sqrtPriceX96After,
  tick: swap.tickAfter,
  liquidity: swap.liquidityAfter,
})
