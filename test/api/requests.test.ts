// The request tables and rules, field by field: what is accepted (typed, with
// defaults) and what is refused (400, the message naming the field).
import { describe, expect, test } from "bun:test"
import { Either } from "effect"
import fc from "fast-check"
import { getAddress } from "viem"
import { decodeQuoteRequest, decodeSwapRequest, exactIntegerOf, JsonNumber, parseAddress, parseJson } from "../../src/api/index.ts"
import type { SwapRequest } from "../../src/swap/index.ts"
import type { QuoteRequest } from "../../src/domain/index.ts"

const EXECUTOR = "0x5E1eC7eD00000000000000000000000000000001" as const
const NOW = 1_800_000_000
const SOURCES = new Set(["uniswap-v2", "arcade-v2", "uniswap-v3", "xylonet", "kyberswap"])
const rules = { chainId: 5042, executor: EXECUTOR, nowSeconds: NOW, sourceNames: SOURCES } as const

const TOKEN_A = "0x00000000000000000000000000000000000000A1"
const TOKEN_B = "0x00000000000000000000000000000000000000b2"
const SENDER = "0x1111111111111111111111111111111111111111"
const RECIPIENT = "0x2222222222222222222222222222222222222222"
const base = { tokenIn: TOKEN_A, tokenOut: TOKEN_B, amountIn: "1000" }
const swapBase = { ...base, sender: SENDER }

const quote = (over: Record<string, unknown>) => decodeQuoteRequest({ ...base, ...over }, rules)
const swap = (over: Record<string, unknown>) => decodeSwapRequest({ ...swapBase, ...over }, rules)
/** the answer, its amount read whichever side it is on (undefined on the other) */
const ok = <A, E>(e: Either.Either<A, E>): A & { readonly amountIn?: bigint; readonly amountOut?: bigint } => {
  if (Either.isLeft(e)) throw new Error(`refused: ${JSON.stringify(e.left)}`)
  return e.right as A & { readonly amountIn?: bigint; readonly amountOut?: bigint }
}
const refused = (e: Either.Either<unknown, { readonly message: string; readonly _tag: string }>): string => {
  if (Either.isRight(e)) throw new Error("accepted")
  expect(e.left._tag).toBe("InvalidRequest")
  return e.left.message
}

// EIP-55's own test vectors (eips.ethereum.org/EIPS/eip-55)
const EIP55: string[] = [
  "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
  "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
  "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
  "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
]

describe("quote request: accepted", () => {
  test("defaults: feeBps 0, no fee recipient, slippage 50, chain 5042", () => {
    expect(ok(quote({}))).toEqual({
      chainId: 5042,
      tokenIn: "0x00000000000000000000000000000000000000A1",
      tokenOut: "0x00000000000000000000000000000000000000b2",
      tradeType: "exactInput",
      amountIn: 1000n,
      feeBps: 0,
      feeRecipient: null,
      slippageBps: 50,
    } satisfies QuoteRequest)
  })
  test("every field given", () => {
    expect(ok(quote({ feeBps: 100, feeRecipient: RECIPIENT, slippageBps: 2000, chainId: 5042, amountIn: 7 }))).toEqual({
      chainId: 5042, tokenIn: TOKEN_A, tokenOut: TOKEN_B, tradeType: "exactInput", amountIn: 7n, feeBps: 100, feeRecipient: RECIPIENT, slippageBps: 2000,
    })
  })
  test("optional fields sent as null count as not sent", () => {
    expect(ok(quote({ feeBps: null, feeRecipient: null, slippageBps: null, chainId: null }))).toEqual(ok(quote({})))
  })
  test("a fee recipient with feeBps 0 is checked but carries no fee", () => {
    expect(ok(quote({ feeBps: 0, feeRecipient: RECIPIENT })).feeRecipient).toBeNull()
    expect(refused(quote({ feeBps: 0, feeRecipient: EXECUTOR }))).toBe("feeRecipient: cannot be the route executor")
  })
  test("slippage and fee bounds are inclusive", () => {
    expect(ok(quote({ slippageBps: 0 })).slippageBps).toBe(0)
    expect(ok(quote({ feeBps: 1, feeRecipient: RECIPIENT })).feeBps).toBe(1)
  })
})

describe("addresses", () => {
  test("EIP-55 vectors: checksummed and all-lowercase accepted, answered checksummed", () => {
    for (const address of EIP55) {
      expect<string>(ok(parseAddress(address))).toBe(address)
      expect<string>(ok(parseAddress(address.toLowerCase()))).toBe(address)
    }
  })
  test("mixed case with a wrong checksum is refused, naming the field", () => {
    // the first vector with one letter's case flipped (A → a)
    expect(refused(quote({ tokenIn: "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }))).toBe(
      "tokenIn: mixed-case address with a wrong checksum: 0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed (send it all-lowercase or checksummed as 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed)",
    )
    expect(refused(quote({ tokenIn: "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED" }))).toMatch(/^tokenIn: mixed-case address with a wrong checksum/)
  })
  test("the native placeholder is accepted in any letter case", () => {
    for (const form of ["0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "0xEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE", "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", "0xeEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE"]) {
      expect(ok(quote({ tokenIn: form })).tokenIn).toBe("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")
    }
  })
  test("malformed addresses name the field", () => {
    expect(refused(quote({ tokenOut: "0x1234" }))).toBe('tokenOut: must be 0x followed by 40 hex digits, got "0x1234"')
    expect(refused(quote({ tokenOut: "0X00000000000000000000000000000000000000b2" }))).toBe('tokenOut: must be 0x followed by 40 hex digits, got "0X00000000000000000000000000000000000000b2"')
    expect(refused(quote({ tokenOut: ` ${TOKEN_B}` }))).toMatch(/^tokenOut: must be 0x followed by 40 hex digits/)
    expect(refused(quote({ tokenOut: 12 }))).toBe("tokenOut: must be an address string, got 12")
    expect(refused(swap({ sender: "0xzz11111111111111111111111111111111111111" }))).toMatch(/^sender: must be 0x followed by 40 hex digits/)
    expect(refused(quote({ feeBps: 5, feeRecipient: "nope" }))).toBe('feeRecipient: must be 0x followed by 40 hex digits, got "nope"')
  })
  test("property: lowercase and checksummed forms accepted; any single case flip refused", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.nat(), (bytes, pick) => {
        const lower = `0x${Buffer.from(bytes).toString("hex")}`
        const checksummed = getAddress(lower)
        expect(ok(parseAddress(lower))).toBe(checksummed)
        expect(ok(parseAddress(checksummed))).toBe(checksummed)
        const letters = [...checksummed].map((c, i) => (i >= 2 && /[a-fA-F]/.test(c) ? i : -1)).filter((i) => i >= 0)
        if (letters.length === 0 || lower === "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee") return
        const i = letters[pick % letters.length]!
        const c = checksummed[i]!
        const flipped = checksummed.slice(0, i) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + checksummed.slice(i + 1)
        if (flipped === lower) return // flipping the only capital gives the lowercase form, which is allowed
        expect(Either.isLeft(parseAddress(flipped))).toBe(true)
      }),
      { numRuns: 500 },
    )
  })
})

describe("amountOut (exact output)", () => {
  const { amountIn: _, ...noAmount } = base
  const exact = (over: Record<string, unknown>) => decodeQuoteRequest({ ...noAmount, ...over }, rules)
  test("instead of amountIn: an exact-output request, read as amountIn is", () => {
    expect(ok(exact({ amountOut: "250000000" }))).toEqual({
      chainId: 5042, tokenIn: TOKEN_A, tokenOut: TOKEN_B, tradeType: "exactOutput", amountOut: 250_000_000n, feeBps: 0, feeRecipient: null, slippageBps: 50,
    })
    expect(ok(exact({ amountOut: 1e6 })).amountOut).toBe(1_000_000n)
    expect(ok(decodeSwapRequest({ ...noAmount, sender: SENDER, amountOut: "5" }, rules))).toMatchObject({ tradeType: "exactOutput", amountOut: 5n, sender: SENDER })
  })
  test("both, or neither, is refused naming them", () => {
    expect(refused(exact({ amountOut: "5", amountIn: "5" }))).toBe("amountOut: send either amountIn (exact input) or amountOut (exact output), not both")
    expect(refused(exact({}))).toBe("amountIn: is required (or amountOut, for an exact output)")
    expect(refused(exact({ amountIn: null, amountOut: null }))).toBe("amountIn: is required (or amountOut, for an exact output)")
  })
  test("refused forms name amountOut", () => {
    expect(refused(exact({ amountOut: "0" }))).toBe("amountOut: must be greater than 0")
    expect(refused(exact({ amountOut: "1.5" }))).toMatch(/^amountOut: must be a whole number/)
    expect(refused(exact({ amountOut: (1n << 256n).toString() }))).toBe("amountOut: must be below 2^256")
  })
  test("a JSON number amountOut is read from its literal, as amountIn is", () => {
    const text = (literal: string) => parseJson(`{"tokenIn":"${TOKEN_A}","tokenOut":"${TOKEN_B}","amountOut":${literal}}`)
    expect(ok(decodeQuoteRequest(text("9007199254740992"), rules)).amountOut).toBe(2n ** 53n)
    expect(refused(decodeQuoteRequest(text("9007199254740993"), rules))).toBe("amountOut: JSON numbers are accepted only up to 2^53; send the amount as a string")
  })
})

describe("amountIn", () => {
  test("integer strings of any size up to uint256, and numbers below 2^53", () => {
    expect(ok(quote({ amountIn: "1" })).amountIn).toBe(1n)
    expect(ok(quote({ amountIn: "007" })).amountIn).toBe(7n)
    expect(ok(quote({ amountIn: ((1n << 256n) - 1n).toString() })).amountIn).toBe((1n << 256n) - 1n)
    expect(ok(quote({ amountIn: 9_007_199_254_740_991 })).amountIn).toBe(9_007_199_254_740_991n)
    expect(ok(quote({ amountIn: 1e6 })).amountIn).toBe(1_000_000n)
  })
  test("refused forms name the field", () => {
    const digits = "amountIn: must be a whole number of the token's smallest unit, as a string of digits, got"
    expect(refused(quote({ amountIn: "1.5" }))).toBe(`${digits} "1.5"`)
    expect(refused(quote({ amountIn: "-1" }))).toBe(`${digits} "-1"`)
    expect(refused(quote({ amountIn: "+1" }))).toBe(`${digits} "+1"`)
    expect(refused(quote({ amountIn: " 1" }))).toBe(`${digits} " 1"`)
    expect(refused(quote({ amountIn: "1e6" }))).toBe(`${digits} "1e6"`)
    expect(refused(quote({ amountIn: "0x10" }))).toBe(`${digits} "0x10"`)
    expect(refused(quote({ amountIn: "" }))).toBe(`${digits} ""`)
    expect(refused(quote({ amountIn: "0" }))).toBe("amountIn: must be greater than 0")
    expect(refused(quote({ amountIn: 0 }))).toBe("amountIn: must be greater than 0")
    expect(refused(quote({ amountIn: (1n << 256n).toString() }))).toBe("amountIn: must be below 2^256")
    expect(refused(quote({ amountIn: 1.5 }))).toBe("amountIn: must be a whole number of the token's smallest unit, got 1.5")
    // a number without its literal (not read from a body) may already have lost digits
    expect(refused(quote({ amountIn: 9_007_199_254_740_992 }))).toBe("amountIn: JSON numbers are accepted only up to 2^53; send the amount as a string")
    expect(refused(quote({ amountIn: -5 }))).toBe("amountIn: must be greater than 0")
    expect(refused(quote({ amountIn: true }))).toBe("amountIn: must be an integer string, got true")
    expect(refused(quote({ amountIn: null }))).toBe("amountIn: is required (or amountOut, for an exact output)")
  })
})

describe("amountIn as a JSON number in a body: taken by its literal", () => {
  const TWO_53 = 9_007_199_254_740_992n // 2^53
  const body = (amountLiteral: string, key = '"amountIn"') =>
    `{"tokenIn":"${TOKEN_A}","tokenOut":"${TOKEN_B}",${key}:${amountLiteral}}`
  const fromJson = (text: string) => decodeQuoteRequest(parseJson(text), rules)
  const tooLarge = "amountIn: JSON numbers are accepted only up to 2^53; send the amount as a string"

  test("2^53 as a JSON number is the same amount as the string", () => {
    expect(ok(fromJson(body("9007199254740992"))).amountIn).toBe(TWO_53)
    expect(ok(fromJson(body("9007199254740992")))).toEqual(ok(fromJson(body('"9007199254740992"'))))
    expect(ok(fromJson(body("9007199254740991"))).amountIn).toBe(TWO_53 - 1n)
  })
  test("a literal above 2^53 is refused, also when it parses to the same double as 2^53", () => {
    // 2^53 + 1 cannot be held by a double: JSON.parse gives 2^53 for it
    expect(JSON.parse("9007199254740993")).toBe(JSON.parse("9007199254740992"))
    expect(refused(fromJson(body("9007199254740993")))).toBe(tooLarge)
    expect(refused(fromJson(body("9007199254740994")))).toBe(tooLarge)
    expect(refused(fromJson(body("18014398509481984")))).toBe(tooLarge)
    expect(refused(fromJson(body("1e400")))).toBe(tooLarge)
    expect(refused(fromJson(body("-9007199254740993")))).toBe("amountIn: JSON numbers are accepted only up to 2^53; send a non-negative amount")
  })
  test("exponent and decimal-point forms of an integer are accepted; fractions are refused by their literal", () => {
    expect(ok(fromJson(body("1e3"))).amountIn).toBe(1000n)
    expect(ok(fromJson(body("1000.0"))).amountIn).toBe(1000n)
    expect(ok(fromJson(body("9.007199254740992e15"))).amountIn).toBe(TWO_53)
    expect(ok(fromJson(body("90071992547409920E-1"))).amountIn).toBe(TWO_53)
    expect(refused(fromJson(body("1.5")))).toBe("amountIn: must be a whole number of the token's smallest unit, got 1.5")
    // parses to exactly 1, but says more than 1
    expect(refused(fromJson(body("1.0000000000000001")))).toBe("amountIn: must be a whole number of the token's smallest unit, got 1.0000000000000001")
    expect(refused(fromJson(body("9007199254740992.5")))).toBe("amountIn: must be a whole number of the token's smallest unit, got 9007199254740992.5")
    expect(refused(fromJson(body("9.0071992547409925e15")))).toMatch(/^amountIn: must be a whole number/)
    expect(refused(fromJson(body("0")))).toBe("amountIn: must be greater than 0")
    expect(refused(fromJson(body("-0")))).toBe("amountIn: must be greater than 0")
  })
  test("the literal of the top-level amountIn is the one read: whitespace, escaped key, duplicates, nested decoys", () => {
    expect(ok(fromJson(`{ "tokenIn" : "${TOKEN_A}" ,\n\t"tokenOut":"${TOKEN_B}", "amountIn" :\r\n 9007199254740992 \n}`)).amountIn).toBe(TWO_53)
    // the key spelt with an escape is the same key
    expect(refused(fromJson(body("9007199254740993", '"amount\\u0049n"')))).toBe(tooLarge)
    // JSON.parse keeps the last of duplicate keys; so does the literal
    expect(ok(fromJson(body('9007199254740993,"amountIn":9007199254740992'))).amountIn).toBe(TWO_53)
    expect(refused(fromJson(body('9007199254740992,"amountIn":9007199254740993')))).toBe(tooLarge)
    // an amountIn inside another value is not the body's amountIn (that field is refused on its own)
    expect(refused(fromJson(`{"x":{"amountIn":9007199254740993},"tokenIn":"${TOKEN_A}","tokenOut":"${TOKEN_B}","amountIn":9007199254740992}`))).toBe("x: unknown field")
    expect(refused(fromJson(`{"x":{"amountIn":5},"tokenIn":"${TOKEN_A}","tokenOut":"${TOKEN_B}","amountIn":9007199254740993}`))).toBe(tooLarge)
    // strings and keys that spell the field elsewhere are not it
    const decoys = parseJson('{"tokenIn":"amountIn","x":["amountIn",{"amountIn":7}],"y":"\\"amountIn\\": 8","amountIn": 9007199254740993}') as Record<string, unknown>
    expect((decoys.amountIn as JsonNumber).source).toBe("9007199254740993")
    expect((decoys.x as unknown[])[1]).toEqual({ amountIn: 7 })
  })
  test("parseJson: only a number amountIn is kept with its literal; everything else is JSON.parse's", () => {
    const text = body("9007199254740993")
    const parsed = parseJson(text) as Record<string, unknown>
    expect(parsed.amountIn).toBeInstanceOf(JsonNumber)
    expect((parsed.amountIn as JsonNumber).source).toBe("9007199254740993")
    expect({ ...parsed, amountIn: (parsed.amountIn as JsonNumber).value }).toEqual(JSON.parse(text))
    for (const other of [body('"5"'), body("null"), "[1,2]", "5", "null", '"x"', '{"a":{"amountIn":1}}']) expect(parseJson(other)).toEqual(JSON.parse(other))
    expect(() => parseJson("{")).toThrow()
  })
  test("exactIntegerOf: the integer a literal says, or undefined for a fraction", () => {
    const cases: Array<[string, bigint | undefined]> = [
      ["0", 0n], ["-0", 0n], ["7", 7n], ["1E+2", 100n], ["100e-2", 1n], ["0.5e1", 5n], ["12.340e2", 1234n],
      ["0.1", undefined], ["1e-400", undefined], ["12.345e2", undefined], ["01", undefined], ["", undefined], ["1.", undefined],
    ]
    for (const [literal, expected] of cases) expect([literal, exactIntegerOf(literal)]).toEqual([literal, expected])
  })
})

describe("fees, slippage, chain", () => {
  test("feeBps is an integer 0-100", () => {
    for (const v of [101, -1, 1.5, "10", true]) {
      expect(refused(quote({ feeBps: v, feeRecipient: RECIPIENT }))).toBe(`feeBps: must be an integer from 0 to 100, got ${typeof v === "string" ? `"${v}"` : v}`)
    }
  })
  test("feeRecipient: required with a fee, never the zero address or the executor", () => {
    expect(refused(quote({ feeBps: 10 }))).toBe("feeRecipient: is required when feeBps is greater than 0")
    expect(refused(quote({ feeBps: 10, feeRecipient: null }))).toBe("feeRecipient: is required when feeBps is greater than 0")
    expect(refused(quote({ feeBps: 10, feeRecipient: "0x0000000000000000000000000000000000000000" }))).toBe("feeRecipient: cannot be the zero address")
    expect(refused(quote({ feeBps: 10, feeRecipient: EXECUTOR.toLowerCase() }))).toBe("feeRecipient: cannot be the route executor")
  })
  test("feeRecipient: never the native-token placeholder 0xEeee…EEeE, in any case, on /quote and /swap, with a fee or without", () => {
    const placeholder = "cannot be the native-token placeholder 0xEeee…EEeE"
    for (const address of ["0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "0xEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE"]) {
      expect(refused(quote({ feeBps: 10, feeRecipient: address }))).toBe(`feeRecipient: ${placeholder}`)
      expect(refused(quote({ feeBps: 0, feeRecipient: address }))).toBe(`feeRecipient: ${placeholder}`)
      expect(refused(swap({ feeBps: 10, feeRecipient: address }))).toBe(`feeRecipient: ${placeholder}`)
    }
  })
  test("slippageBps is an integer 0-2000", () => {
    for (const v of [2001, -1, 0.5, "50"]) {
      expect(refused(quote({ slippageBps: v }))).toBe(`slippageBps: must be an integer from 0 to 2000, got ${typeof v === "string" ? `"${v}"` : v}`)
    }
  })
  test("chainId, when sent, must be the chain served: both are named otherwise", () => {
    expect(ok(quote({ chainId: 5042 })).chainId).toBe(5042)
    expect(refused(quote({ chainId: 5042002 }))).toBe("chainId: this service serves chain 5042 (Arc), the request names 5042002")
    expect(refused(quote({ chainId: 1 }))).toBe("chainId: this service serves chain 5042 (Arc), the request names 1")
    expect(refused(quote({ chainId: "5042" }))).toBe('chainId: must be a chain id (an integer) when sent, got "5042"')
    expect(refused(quote({ chainId: 5042.5 }))).toBe("chainId: must be a chain id (an integer) when sent, got 5042.5")
  })
  test("the chain served comes from the rules: on Arc testnet, 5042002 is taken and 5042 refused", () => {
    const testnet = { ...rules, chainId: 5042002 } as const
    expect(ok(decodeQuoteRequest(base, testnet)).chainId).toBe(5042002)
    expect(ok(decodeQuoteRequest({ ...base, chainId: 5042002 }, testnet)).chainId).toBe(5042002)
    expect(ok(decodeSwapRequest({ ...swapBase, chainId: 5042002 }, testnet)).chainId).toBe(5042002)
    const other = "chainId: this service serves chain 5042002 (Arc testnet), the request names 5042"
    expect(refused(decodeQuoteRequest({ ...base, chainId: 5042 }, testnet))).toBe(other)
    expect(refused(decodeSwapRequest({ ...swapBase, chainId: 5042 }, testnet))).toBe(other)
    // another chain is named before what else is wrong with the trade
    expect(refused(decodeQuoteRequest({ ...base, tokenOut: TOKEN_A, chainId: 5042 }, testnet))).toBe(other)
  })
})

describe("USDC to USDC is refused in every form", () => {
  const forms = [
    "0x0000000000000000000000000000000000000000",
    "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
    "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
    "0x3600000000000000000000000000000000000000",
  ]
  for (const tokenIn of forms) {
    for (const tokenOut of forms) {
      test(`${tokenIn} → ${tokenOut}`, () => {
        expect(refused(quote({ tokenIn, tokenOut }))).toBe("tokenOut: USDC to USDC is nothing to swap (native and ERC-20 USDC are one balance)")
        expect(refused(swap({ tokenIn, tokenOut }))).toBe("tokenOut: USDC to USDC is nothing to swap (native and ERC-20 USDC are one balance)")
      })
    }
  }
  test("a token to itself is refused too", () => {
    expect(refused(quote({ tokenOut: TOKEN_A.toLowerCase() }))).toBe("tokenOut: must differ from tokenIn")
  })
  test("USDC to another token, either way, is fine", () => {
    expect(ok(quote({ tokenIn: forms[0], tokenOut: TOKEN_A })).tokenIn).toBe("0x0000000000000000000000000000000000000000")
    expect(ok(quote({ tokenIn: TOKEN_A, tokenOut: forms[3] })).tokenOut).toBe("0x3600000000000000000000000000000000000000")
  })
})

describe("shape", () => {
  test("missing fields, in table order", () => {
    expect(refused(decodeQuoteRequest({}, rules))).toBe("tokenIn: is required")
    expect(refused(decodeQuoteRequest({ tokenIn: TOKEN_A }, rules))).toBe("tokenOut: is required")
    expect(refused(decodeQuoteRequest({ tokenIn: TOKEN_A, tokenOut: TOKEN_B }, rules))).toBe("amountIn: is required (or amountOut, for an exact output)")
    expect(refused(decodeSwapRequest(base, rules))).toBe("sender: is required")
  })
  test("several problems: the first in table order is reported", () => {
    expect(refused(decodeQuoteRequest({ slippageBps: 9999, amountIn: "x", tokenIn: TOKEN_A }, rules))).toBe("tokenOut: is required")
  })
  test("unknown fields are refused (a misspelt optional field would otherwise be ignored)", () => {
    expect(refused(quote({ feebps: 10 }))).toBe("feebps: unknown field")
    expect(refused(quote({ sender: SENDER }))).toBe("sender: unknown field")
  })
  test("the body must be a JSON object", () => {
    expect(refused(decodeQuoteRequest([], rules))).toBe("body: must be a JSON object, got an array")
    expect(refused(decodeQuoteRequest("x", rules))).toBe('body: must be a JSON object, got "x"')
    expect(refused(decodeQuoteRequest(null, rules))).toBe("body: must be a JSON object, got null")
    expect(refused(decodeQuoteRequest(5, rules))).toBe("body: must be a JSON object, got 5")
  })
})

describe("swap request", () => {
  test("defaults: recipient is the sender, deadline now + 20 minutes", () => {
    expect(ok(swap({}))).toEqual({
      chainId: 5042, tokenIn: TOKEN_A, tokenOut: TOKEN_B, tradeType: "exactInput", amountIn: 1000n, feeBps: 0, feeRecipient: null, slippageBps: 50,
      sender: SENDER, recipient: SENDER, deadline: NOW + 1200,
    } satisfies SwapRequest)
  })
  const ZERO = "0x0000000000000000000000000000000000000000"
  const PLACEHOLDER_FORMS = ["0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", "0xEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE"]
  test("recipient: never the zero address, the executor or the native placeholder", () => {
    expect(ok(swap({ recipient: RECIPIENT })).recipient).toBe(RECIPIENT)
    expect(refused(swap({ recipient: ZERO }))).toBe("recipient: cannot be the zero address")
    expect(refused(swap({ recipient: EXECUTOR }))).toBe("recipient: cannot be the route executor")
    expect(refused(swap({ recipient: EXECUTOR.toLowerCase() }))).toBe("recipient: cannot be the route executor")
    for (const form of PLACEHOLDER_FORMS) expect(refused(swap({ recipient: form }))).toBe("recipient: cannot be the native-token placeholder 0xEeee…EEeE")
  })
  test("sender: the same rules, checked whether or not a recipient is sent, and before the recipient", () => {
    for (const recipient of [undefined, null, RECIPIENT]) {
      const over = recipient === undefined ? {} : { recipient }
      expect(refused(swap({ ...over, sender: ZERO }))).toBe("sender: cannot be the zero address")
      expect(refused(swap({ ...over, sender: EXECUTOR }))).toBe("sender: cannot be the route executor")
      expect(refused(swap({ ...over, sender: EXECUTOR.toLowerCase() }))).toBe("sender: cannot be the route executor")
      for (const form of PLACEHOLDER_FORMS) expect(refused(swap({ ...over, sender: form }))).toBe("sender: cannot be the native-token placeholder 0xEeee…EEeE")
    }
    // both bad: the sender is named
    expect(refused(swap({ sender: ZERO, recipient: EXECUTOR }))).toBe("sender: cannot be the zero address")
    // a good sender with a bad recipient: the recipient is named
    expect(refused(swap({ sender: RECIPIENT, recipient: ZERO }))).toBe("recipient: cannot be the zero address")
  })
  test("the executor comes from the rules, not from a fixed address", () => {
    const other = "0x3333333333333333333333333333333333333333"
    expect(ok(decodeSwapRequest({ ...swapBase, sender: EXECUTOR }, { ...rules, executor: other })).sender).toBe(EXECUTOR)
    expect(refused(decodeSwapRequest({ ...swapBase, sender: other }, { ...rules, executor: other }))).toBe("sender: cannot be the route executor")
  })
  test("deadline: in the future, at most one hour ahead", () => {
    expect(ok(swap({ deadline: NOW + 1 })).deadline).toBe(NOW + 1)
    expect(ok(swap({ deadline: NOW + 3600 })).deadline).toBe(NOW + 3600)
    expect(refused(swap({ deadline: NOW }))).toBe(`deadline: must be in the future (now is ${NOW})`)
    expect(refused(swap({ deadline: NOW - 100 }))).toBe(`deadline: must be in the future (now is ${NOW})`)
    expect(refused(swap({ deadline: NOW + 3601 }))).toBe(`deadline: must be at most one hour ahead (at most ${NOW + 3600})`)
    expect(refused(swap({ deadline: String(NOW + 60) }))).toBe(`deadline: must be an integer number of Unix seconds, got "${NOW + 60}"`)
    expect(refused(swap({ deadline: NOW + 0.5 }))).toBe(`deadline: must be an integer number of Unix seconds, got ${NOW + 0.5}`)
  })
  test("sender may be any other address", () => {
    expect<string>(ok(swap({ sender: EIP55[0]!.toLowerCase() })).sender).toBe(EIP55[0]!)
  })
})

describe("sources", () => {
  test("includeSources: only the sources named; excludeSources: all but the named", () => {
    expect([...ok(quote({ includeSources: ["arcade-v2", "kyberswap"] })).allowedSources!].sort()).toEqual(["arcade-v2", "kyberswap"])
    expect([...ok(quote({ excludeSources: ["kyberswap", "xylonet"] })).allowedSources!].sort()).toEqual(["arcade-v2", "uniswap-v2", "uniswap-v3"])
    expect([...ok(quote({ includeSources: ["arcade-v2", "uniswap-v3"], excludeSources: ["kyberswap"] })).allowedSources!].sort()).toEqual(["arcade-v2", "uniswap-v3"])
    expect(ok(quote({})).allowedSources).toBeUndefined()
    expect(ok(quote({ includeSources: null })).allowedSources).toBeUndefined()
    expect([...ok(swap({ excludeSources: ["uniswap-v2"] })).allowedSources!].length).toBe(4)
  })
  test("an unknown name is refused, naming the field and the sources there are", () => {
    expect(refused(quote({ includeSources: ["sushi"] }))).toBe("includeSources: no source is named sushi (the sources: uniswap-v2, arcade-v2, uniswap-v3, xylonet, kyberswap)")
    expect(refused(quote({ excludeSources: ["uniswap-v2", "Uniswap-V3"] }))).toStartWith("excludeSources: no source is named Uniswap-V3")
  })
  test("malformed lists are refused", () => {
    expect(refused(quote({ includeSources: [] }))).toBe("includeSources: must name at least one source")
    expect(refused(quote({ includeSources: "uniswap-v2" }))).toBe('includeSources: must be an array of source names, got "uniswap-v2"')
    expect(refused(quote({ excludeSources: ["xylonet", "xylonet"] }))).toBe("excludeSources: names xylonet twice")
    expect(refused(quote({ excludeSources: [7] }))).toBe("excludeSources: must hold source names (see POST /sources), got 7")
    expect(refused(quote({ includeSources: Array.from({ length: 65 }, (_, i) => `s${i}`) }))).toBe("includeSources: must name at most 64 sources")
  })
  test("a name in both lists, or no source left, is refused", () => {
    expect(refused(quote({ includeSources: ["xylonet"], excludeSources: ["xylonet"] }))).toBe("excludeSources: names xylonet, which includeSources names too")
    expect(refused(quote({ excludeSources: [...SOURCES] }))).toBe("excludeSources: leaves no source to route with")
  })
})

describe("quoteId", () => {
  test("passed on with the swap request when sent; malformed ids refused by the field", () => {
    expect(ok(swap({ quoteId: "AbC-_9" })).quoteId).toBe("AbC-_9")
    expect("quoteId" in ok(swap({}))).toBe(false)
    expect(refused(swap({ quoteId: "not base64url!" }))).toBe('quoteId: must be a quoteId returned by POST /quote, got "not base64url!"')
    expect(refused(swap({ quoteId: "" }))).toBe('quoteId: must be a quoteId returned by POST /quote, got ""')
    expect(refused(quote({ quoteId: "AbC" }))).toBe("quoteId: unknown field")
  })
})
