// A symbol from the chain cleaned for clients: control, bidi and other
// invisible characters dropped, at most 32 characters, pairs never split.
import { describe, expect, test } from "bun:test"
import { cleanSymbol } from "../../src/tokens/symbol-text.ts"

describe("cleanSymbol", () => {
  test("ordinary symbols pass unchanged", () => {
    for (const symbol of ["USDC", "cirBTC", "EURC", "WETH.e", "ARC-LP", "Ünï", "币安", "🦄UNI"]) expect(cleanSymbol(symbol)).toBe(symbol)
  })

  test("bidi embeddings, overrides, isolates and marks are dropped", () => {
    // U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C
    expect(cleanSymbol("\u202EDSU\u202C")).toBe("DSU")
    expect(cleanSymbol("\u202AU\u202BS\u202CD\u202DC\u202E")).toBe("USDC")
    expect(cleanSymbol("\u2066U\u2067S\u2068D\u2069C")).toBe("USDC")
    expect(cleanSymbol("U\u200ES\u200FD\u061CC")).toBe("USDC")
  })

  test("C0 and C1 controls, DEL, zero-width characters, BOM, line separators are dropped", () => {
    expect(cleanSymbol("US\u0000DC")).toBe("USDC")
    expect(cleanSymbol("\u0007U\u001bS\u007fD\nC\r\t")).toBe("USDC")
    expect(cleanSymbol("U\u0080S\u0085D\u009fC")).toBe("USDC")
    expect(cleanSymbol("\uFEFFU\u200BS\u200CD\u200DC\u2060")).toBe("USDC")
    expect(cleanSymbol("US\u2028DC\u2029")).toBe("USDC")
    // a surrogate half without its pair
    expect(cleanSymbol("US\uD800DC\uDC00")).toBe("USDC")
  })

  test("at most 32 characters, counted as code points: a pair is never cut in two", () => {
    expect(cleanSymbol("A".repeat(40))).toBe("A".repeat(32))
    expect(cleanSymbol("B".repeat(32))).toBe("B".repeat(32))
    // 31 letters then emoji: 33 code points, 35 UTF-16 units
    const cut = cleanSymbol(`${"C".repeat(31)}🦄🦄`)
    expect(cut).toBe(`${"C".repeat(31)}🦄`)
    expect(Array.from(cut).length).toBe(32)
    // dropped characters do not count
    expect(cleanSymbol("\u202E".repeat(50) + "D".repeat(32))).toBe("D".repeat(32))
  })

  test("spaces at the ends are trimmed, also where the cut falls; nothing left is empty", () => {
    expect(cleanSymbol("  USDC \u0000 ")).toBe("USDC")
    expect(cleanSymbol(`${"E".repeat(31)} F`)).toBe("E".repeat(31))
    expect(cleanSymbol("\u202E\u0000\u200F")).toBe("")
  })
})
