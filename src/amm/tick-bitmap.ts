// TickBitmap.nextInitializedTickWithinOneWord (v3-core/contracts/libraries/TickBitmap.sol,
// same semantics in v4-core/src/libraries/TickBitmap.sol) answered from a sorted
// list of initialized ticks instead of the bitmap words.
//
// The bitmap keeps one bit per compressed tick (tick / tickSpacing, rounded
// toward -infinity), 256 bits per word. The search never leaves the word:
//  - lte (zeroForOne): the greatest initialized tick <= the current one within
//    the word of compress(tick); if none, the word's FIRST tick, uninitialized.
//  - gt (oneForZero): the least initialized tick > the current one within the
//    word of compress(tick) + 1; if none, the word's LAST tick, uninitialized.
// The swap loop steps to that tick even when it is not initialized, and each
// step rounds on its own, so the result of a swap depends on these word
// boundaries; reproducing them is what makes the simulation exact.
//
// An initialized tick is one with liquidityGross > 0, even when its
// liquidityNet is 0: such ticks must be in the list, because the pool stops at
// them.

export interface TickInfo {
  readonly tick: number
  /** Tick.Info.liquidityNet as stored on chain (int128): added when crossed left to right */
  readonly liquidityNet: bigint
}

/** compress(tick, tickSpacing): tick / tickSpacing rounded toward negative infinity */
export const compress = (tick: number, tickSpacing: number): number => Math.floor(tick / tickSpacing)

/** Index of the first entry with .tick > tick (ticks sorted ascending). */
export const upperBound = (ticks: readonly TickInfo[], tick: number): number => {
  let lo = 0
  let hi = ticks.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (ticks[mid]!.tick <= tick) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The first tick of the bitmap word holding compress(tick) (for lte searches). */
export const wordStartTick = (compressed: number, tickSpacing: number): number =>
  Math.floor(compressed / 256) * 256 * tickSpacing

/** The last tick of the bitmap word holding `compressed` (for gt searches, called with compress(tick) + 1). */
export const wordEndTick = (compressed: number, tickSpacing: number): number =>
  (Math.floor(compressed / 256) * 256 + 255) * tickSpacing

export interface NextTick {
  readonly next: number
  readonly initialized: boolean
}

/**
 * TickBitmap.nextInitializedTickWithinOneWord over `ticks` (every initialized
 * tick, sorted ascending, each a multiple of tickSpacing). Does not clamp to
 * MIN_TICK/MAX_TICK (the pool does that afterwards).
 */
export const nextInitializedTickWithinOneWord = (
  ticks: readonly TickInfo[],
  tick: number,
  tickSpacing: number,
  lte: boolean,
): NextTick => {
  const hi = upperBound(ticks, tick)
  const compressed = compress(tick, tickSpacing)
  if (lte) {
    const start = wordStartTick(compressed, tickSpacing)
    const candidate = hi > 0 ? ticks[hi - 1]!.tick : undefined
    return candidate !== undefined && candidate >= start
      ? { next: candidate, initialized: true }
      : { next: start, initialized: false }
  }
  const end = wordEndTick(compressed + 1, tickSpacing)
  const candidate = hi < ticks.length ? ticks[hi]!.tick : undefined
  return candidate !== undefined && candidate <= end
    ? { next: candidate, initialized: true }
    : { next: end, initialized: false }
}
