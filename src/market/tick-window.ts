// Which initialized ticks of a concentrated pool the market keeps: every tick in
// whole tick-bitmap words around the current tick. Pure functions, laid out as
// Uniswap's TickBitmap lays out its words (compressed = floor(tick / spacing),
// word = compressed >> 8, bit = compressed & 255).
import { MAX_TICK, MIN_TICK } from "../amm/index.ts"

/**
 * Default half-width of the window, in ticks: 2^15 ticks is a price factor of
 * 1.0001^32768 ≈ 26.5 either way, far past any quote a sane price-impact limit allows.
 */
export const DEFAULT_TICK_WINDOW = 32_768

export interface TickWindow {
  /** first and last bitmap word read */
  readonly minWord: number
  readonly maxWord: number
  /**
   * the ticks those words cover, clamped to [MIN_TICK, MAX_TICK]: from the first word's first
   * tick to the tick just below the next word's first tick
   */
  readonly tickLower: number
  readonly tickUpper: number
}

/** floor(tick / spacing), as TickBitmap compresses ticks (rounding toward negative infinity). */
export const compress = (tick: number, tickSpacing: number): number => Math.floor(tick / tickSpacing)

/** The bitmap word holding `tick`. */
export const wordOf = (tick: number, tickSpacing: number): number => compress(tick, tickSpacing) >> 8

/** The words covering [tick - halfWidth, tick + halfWidth] and the tick range they cover. */
export const tickWindow = (tick: number, tickSpacing: number, halfWidth: number): TickWindow => {
  const minWord = wordOf(Math.max(MIN_TICK, tick - halfWidth), tickSpacing)
  const maxWord = wordOf(Math.min(MAX_TICK, tick + halfWidth), tickSpacing)
  return {
    minWord,
    maxWord,
    tickLower: Math.max(MIN_TICK, minWord * 256 * tickSpacing),
    tickUpper: Math.min(MAX_TICK, (maxWord + 1) * 256 * tickSpacing - 1),
  }
}

/** The initialized ticks a bitmap word marks, ascending. */
export const ticksInWord = (word: number, bitmap: bigint, tickSpacing: number): number[] => {
  const ticks: number[] = []
  for (let bit = 0; bitmap !== 0n; bit++, bitmap >>= 1n) {
    if ((bitmap & 1n) === 1n) ticks.push((word * 256 + bit) * tickSpacing)
  }
  return ticks
}

/**
 * True when the current tick has drifted into the outer quarter of its window on a side that
 * is not already the end of the tick range: the window is then read again around the tick.
 */
export const needsRecentering = (
  window: { readonly tickLower: number; readonly tickUpper: number },
  tick: number,
  halfWidth: number,
): boolean =>
  (window.tickLower > MIN_TICK && tick - window.tickLower < halfWidth / 2) ||
  (window.tickUpper < MAX_TICK && window.tickUpper - tick < halfWidth / 2)
