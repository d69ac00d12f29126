// The tick window: whole TickBitmap words around the current tick, laid out as
// Uniswap's TickBitmap.position does (compressed = floor(tick / spacing), word = compressed >> 8).
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { MAX_TICK, MIN_TICK } from "../../src/amm/index.ts"
import { compress, needsRecentering, tickWindow, ticksInWord, wordOf } from "../../src/market/tick-window.ts"

describe("bitmap positions", () => {
  test("compression rounds toward negative infinity, as TickBitmap does", () => {
    expect(compress(-1, 60)).toBe(-1)
    expect(compress(-60, 60)).toBe(-1)
    expect(compress(-61, 60)).toBe(-2)
    expect(compress(59, 60)).toBe(0)
    expect(compress(0, 1)).toBe(0)
  })

  test("words: compressed ticks 0..255 are word 0, -256..-1 word -1", () => {
    expect(wordOf(0, 1)).toBe(0)
    expect(wordOf(255, 1)).toBe(0)
    expect(wordOf(256, 1)).toBe(1)
    expect(wordOf(-1, 1)).toBe(-1)
    expect(wordOf(-256, 1)).toBe(-1)
    expect(wordOf(-257, 1)).toBe(-2)
    // MIN_TICK and MAX_TICK at spacing 1: word -3466 (compressed -887272) and 3465
    expect(wordOf(MIN_TICK, 1)).toBe(-3466)
    expect(wordOf(MAX_TICK, 1)).toBe(3465)
  })

  test("the ticks a word marks", () => {
    expect(ticksInWord(0, 0n, 60)).toEqual([])
    expect(ticksInWord(0, 1n, 60)).toEqual([0])
    expect(ticksInWord(-1, 1n << 255n, 60)).toEqual([-60])
    expect(ticksInWord(-1, 1n, 10)).toEqual([-2560])
    expect(ticksInWord(2, 0b101n, 1)).toEqual([512, 514])
  })

  test("a tick set in its word's bit comes back from ticksInWord", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: MIN_TICK, max: MAX_TICK }), (spacing, raw) => {
        const tick = Math.trunc(raw / spacing) * spacing || 0 // no -0
        const compressed = compress(tick, spacing)
        const bit = BigInt(compressed & 255)
        expect(ticksInWord(wordOf(tick, spacing), 1n << bit, spacing)).toEqual([tick])
      }),
    )
  })
})

describe("the window", () => {
  test("covers [tick - W, tick + W] with whole words, within the tick range", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: MIN_TICK, max: MAX_TICK }),
        fc.integer({ min: 1, max: 200_000 }),
        (spacing, tick, half) => {
          const w = tickWindow(tick, spacing, half)
          expect(w.tickLower).toBe(Math.max(MIN_TICK, w.minWord * 256 * spacing))
          expect(w.tickUpper).toBe(Math.min(MAX_TICK, (w.maxWord + 1) * 256 * spacing - 1))
          expect(w.tickLower <= Math.max(MIN_TICK, tick - half)).toBe(true)
          expect(w.tickUpper >= Math.min(MAX_TICK, tick + half)).toBe(true)
          // no more than one word of slack on either side
          expect(Math.max(MIN_TICK, tick - half) - w.tickLower < 256 * spacing).toBe(true)
          expect(w.tickUpper - Math.min(MAX_TICK, tick + half) < 256 * spacing).toBe(true)
          // a freshly read window is never due for recentering
          expect(needsRecentering(w, tick, half)).toBe(false)
        },
      ),
    )
  })

  test("the default-scenario shapes: spacing 1 reads 257 words, spacing 60 reads 5", () => {
    expect(tickWindow(0, 1, 32_768)).toEqual({ minWord: -128, maxWord: 128, tickLower: -32_768, tickUpper: 33_023 })
    expect(tickWindow(0, 60, 32_768)).toEqual({ minWord: -3, maxWord: 2, tickLower: -46_080, tickUpper: 46_079 })
    const w = tickWindow(-68_777, 60, 32_768)
    expect(w.maxWord - w.minWord + 1).toBe(5)
  })

  test("recentering once the tick is within half the half-width of an edge that is not the range's end", () => {
    const w = { tickLower: -1000, tickUpper: 1000 }
    expect(needsRecentering(w, 0, 1000)).toBe(false)
    expect(needsRecentering(w, -500, 1000)).toBe(false)
    expect(needsRecentering(w, -501, 1000)).toBe(true)
    expect(needsRecentering(w, 501, 1000)).toBe(true)
    expect(needsRecentering({ tickLower: MIN_TICK, tickUpper: MIN_TICK + 400 }, MIN_TICK + 1, 1000)).toBe(true)
    expect(needsRecentering({ tickLower: MIN_TICK, tickUpper: MIN_TICK + 5000 }, MIN_TICK + 1, 1000)).toBe(false)
  })
})
