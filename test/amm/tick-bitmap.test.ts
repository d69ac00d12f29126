import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { nextInitializedTickWithinOneWord, type TickInfo } from "../../src/amm/tick-bitmap.ts"

const list = (ticks: number[]): TickInfo[] => [...ticks].sort((a, b) => a - b).map((tick) => ({ tick, liquidityNet: 0n }))

// vectors from v3-core test/TickBitmap.spec.ts (tick spacing 1)
describe("nextInitializedTickWithinOneWord (v3-core vectors)", () => {
  const base = [-200, -55, -4, 70, 78, 84, 139, 240, 535]
  const ticks = list(base)
  const check = (t: TickInfo[], tick: number, lte: boolean, next: number, initialized: boolean) =>
    expect(nextInitializedTickWithinOneWord(t, tick, 1, lte)).toEqual({ next, initialized })
  test("lte = false", () => {
    check(ticks, 78, false, 84, true)
    check(ticks, -55, false, -4, true)
    check(ticks, 77, false, 78, true)
    check(ticks, -56, false, -55, true)
    check(ticks, 255, false, 511, false)
    check(ticks, -257, false, -200, true)
    check(list([...base, 340]), 328, false, 340, true)
    check(ticks, 508, false, 511, false)
    check(ticks, 383, false, 511, false)
  })
  test("lte = true", () => {
    check(ticks, 78, true, 78, true)
    check(ticks, 79, true, 78, true)
    check(ticks, 258, true, 256, false)
    check(ticks, 256, true, 256, false)
    check(ticks, 72, true, 70, true)
    check(ticks, -257, true, -512, false)
    check(ticks, 1023, true, 768, false)
    check(ticks, 900, true, 768, false)
    check(list([...base, 329]), 456, true, 329, true)
  })
})

// An independent model: the bitmap itself (word -> 256-bit bigint) and the contract's
// mask / most-significant-bit / least-significant-bit search.
const model = (ticks: number[], tick: number, tickSpacing: number, lte: boolean) => {
  const words = new Map<number, bigint>()
  for (const t of ticks) {
    const c = t / tickSpacing
    const w = c >> 8
    words.set(w, (words.get(w) ?? 0n) | (1n << BigInt(c & 255)))
  }
  let compressed = Math.trunc(tick / tickSpacing)
  if (tick < 0 && tick % tickSpacing !== 0) compressed--
  const msb = (x: bigint) => x.toString(2).length - 1
  const lsb = (x: bigint) => msb(x & -x)
  if (lte) {
    const wordPos = compressed >> 8
    const bitPos = compressed & 255
    const mask = (1n << BigInt(bitPos)) - 1n + (1n << BigInt(bitPos))
    const masked = (words.get(wordPos) ?? 0n) & mask
    return masked !== 0n
      ? { next: (compressed - (bitPos - msb(masked))) * tickSpacing, initialized: true }
      : { next: (compressed - bitPos) * tickSpacing, initialized: false }
  }
  const c1 = compressed + 1
  const wordPos = c1 >> 8
  const bitPos = c1 & 255
  const mask = ((1n << 256n) - 1n) ^ ((1n << BigInt(bitPos)) - 1n)
  const masked = (words.get(wordPos) ?? 0n) & mask
  return masked !== 0n
    ? { next: (c1 + (lsb(masked) - bitPos)) * tickSpacing, initialized: true }
    : { next: (c1 + (255 - bitPos)) * tickSpacing, initialized: false }
}

describe("against a model of the bitmap words", () => {
  test("same next tick and initialized flag for any ticks, spacing and start", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 10, 60, 200),
        fc.uniqueArray(fc.integer({ min: -3000, max: 3000 }), { maxLength: 40 }),
        fc.integer({ min: -800_000, max: 800_000 }).chain((t) => fc.constantFrom(t, t % 200_000)),
        fc.boolean(),
        (spacing, cs, tick, lte) => {
          const ticks = cs.map((c) => c * spacing)
          const got = nextInitializedTickWithinOneWord(list(ticks), tick, spacing, lte)
          const want = model(ticks, tick, spacing, lte)
          return got.next === want.next && got.initialized === want.initialized
        },
      ),
      { numRuns: 3000 },
    )
  })
})
