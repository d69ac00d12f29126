// The quote id: a quote's terms, signed. What it carries comes back whole; any
// change to it, another key, an expired or future id are refused, each with
// its own words.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { createHmac } from "node:crypto"
import { getAddress, type Address } from "viem"
import { decodeQuoteId, encodeQuoteId, priceChangeBps, priceChangeOf, QUOTE_ID_TTL_SECONDS, quoteIdKey, sameRequest, type QuotedTerms } from "../../src/swap/index.ts"

const KEY = quoteIdKey("a secret every instance shares, 32+ chars")
const OTHER_KEY = quoteIdKey("another deployment's secret, 32+ chars!")
const NOW = 1_800_000_000

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => getAddress(`0x${Buffer.from(b).toString("hex")}`) as Address)
const uint256 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n })
const terms: fc.Arbitrary<QuotedTerms> = fc.record({
  chainId: fc.constantFrom(5042, 5042002),
  tradeType: fc.constantFrom("exactInput" as const, "exactOutput" as const),
  tokenIn: address,
  tokenOut: address,
  amountIn: fc.bigInt({ min: 1n, max: (1n << 256n) - 1n }),
  feeBps: fc.integer({ min: 0, max: 100 }),
  feeRecipient: fc.option(address, { nil: null }),
  slippageBps: fc.integer({ min: 0, max: 2000 }),
  amountOut: uint256,
  blockNumber: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  issuedAtSeconds: fc.integer({ min: NOW - QUOTE_ID_TTL_SECONDS, max: NOW }),
})

const sample: QuotedTerms = {
  chainId: 5042002,
  tradeType: "exactInput",
  tokenIn: "0x3600000000000000000000000000000000000000",
  tokenOut: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  amountIn: 1_000_000_000n,
  feeBps: 30,
  feeRecipient: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
  slippageBps: 50,
  amountOut: 862_123_456n,
  blockNumber: 12_345_678n,
  issuedAtSeconds: NOW - 10,
}

describe("quote id", () => {
  test("carries the terms whole, compact and URL-safe", () => {
    fc.assert(
      fc.property(terms, (t) => {
        const id = encodeQuoteId(KEY, t)
        expect(id).toMatch(/^[A-Za-z0-9_-]+$/)
        expect(id.length).toBeLessThanOrEqual(256)
        expect(decodeQuoteId(KEY, id, NOW)).toEqual({ ok: true, terms: t })
      }),
      { numRuns: 300 },
    )
    expect(encodeQuoteId(KEY, sample).length).toBeLessThan(142)
  })

  test("any flipped bit is refused: altered, or not readable", () => {
    const bytes = Buffer.from(encodeQuoteId(KEY, sample), "base64url")
    for (let i = 0; i < bytes.length * 8; i++) {
      const altered = Buffer.from(bytes)
      altered[i >> 3] = altered[i >> 3]! ^ (1 << (i & 7))
      const answer = decodeQuoteId(KEY, altered.toString("base64url"), NOW)
      expect(answer.ok).toBe(false)
      if (!answer.ok) expect(answer.problem).toMatch(/^(was not issued by this service or was altered|is malformed \(unknown version \d+\))$/)
    }
  })

  test("signed with HMAC-SHA256 under keys of any length: read back under node's own HMAC, refused under another key", () => {
    for (const length of [0, 1, 32, 63, 64, 65, 100, 200]) {
      const key = new Uint8Array(Array.from({ length }, (_, i) => (i * 37 + length) & 255))
      const id = encodeQuoteId(key, sample)
      expect(decodeQuoteId(key, id, NOW)).toEqual({ ok: true, terms: sample })
      const bytes = Buffer.from(id, "base64url")
      const tag = createHmac("sha256", key).update(bytes.subarray(0, bytes.length - 16)).digest().subarray(0, 16)
      expect(bytes.subarray(bytes.length - 16)).toEqual(tag)
      expect(decodeQuoteId(KEY, id, NOW)).toEqual({ ok: false, problem: "was not issued by this service or was altered" })
    }
  })

  test("made under another key: not issued by this service", () => {
    expect(decodeQuoteId(KEY, encodeQuoteId(OTHER_KEY, sample), NOW)).toEqual({ ok: false, problem: "was not issued by this service or was altered" })
  })

  test("valid for its time to live, inclusive; refused after it, and from too far in the future", () => {
    const at = (issuedAtSeconds: number) => encodeQuoteId(KEY, { ...sample, issuedAtSeconds })
    expect(decodeQuoteId(KEY, at(NOW - 300), NOW).ok).toBe(true)
    expect(decodeQuoteId(KEY, at(NOW - 301), NOW)).toEqual({ ok: false, problem: "expired 1 s ago (a quote id is valid for 300 s; ask /quote again)" })
    expect(decodeQuoteId(KEY, at(NOW + 30), NOW).ok).toBe(true)
    expect(decodeQuoteId(KEY, at(NOW + 31), NOW)).toEqual({ ok: false, problem: `was issued in the future (at ${NOW + 31}, now is ${NOW})` })
  })

  test("malformed ids, each in its own words", () => {
    const problem = (id: string) => {
      const answer = decodeQuoteId(KEY, id, NOW)
      return answer.ok ? "accepted" : answer.problem
    }
    expect(problem("")).toBe("is malformed (not a quote id: base64url of at most 256 characters)")
    expect(problem("abc+/=")).toBe("is malformed (not a quote id: base64url of at most 256 characters)")
    expect(problem("A".repeat(257))).toBe("is malformed (not a quote id: base64url of at most 256 characters)")
    expect(problem("AQID")).toBe("is malformed (too short to be a quote id)")
    const v4 = Buffer.from(encodeQuoteId(KEY, sample), "base64url")
    v4[0] = 4
    expect(problem(v4.toString("base64url"))).toBe("is malformed (unknown version 4)")
    const truncated = encodeQuoteId(KEY, sample).slice(0, -4)
    expect(problem(truncated)).toBe("was not issued by this service or was altered")
  })

  test("is for the same trade: the first field that differs is named", () => {
    const request = { chainId: 5042002, tokenIn: sample.tokenIn.toLowerCase(), tokenOut: sample.tokenOut, tradeType: "exactInput" as const, amountIn: sample.amountIn, feeBps: 30, feeRecipient: sample.feeRecipient!.toLowerCase() }
    expect(sameRequest(sample, request)).toBeUndefined()
    expect(sameRequest(sample, { ...request, chainId: 5042 })).toBe("chainId")
    expect(sameRequest(sample, { ...request, tokenIn: "0x0000000000000000000000000000000000000000" })).toBe("tokenIn")
    expect(sameRequest(sample, { ...request, tokenOut: sample.tokenIn })).toBe("tokenOut")
    expect(sameRequest(sample, { ...request, amountIn: 999_999_999n })).toBe("amountIn")
    expect(sameRequest(sample, { ...request, feeBps: 0, feeRecipient: null })).toBe("feeBps")
    expect(sameRequest(sample, { ...request, feeRecipient: "0x0000000000000000000000000000000000000001" })).toBe("feeRecipient")
  })

  test("an exact-output quote is for the same amountOut, and never for an exact input of any amount", () => {
    const quoted: QuotedTerms = { ...sample, tradeType: "exactOutput", amountIn: 1_000_300n, amountOut: 900_000n }
    const { amountIn: _, ...rest } = { chainId: 5042002, tokenIn: sample.tokenIn, tokenOut: sample.tokenOut, amountIn: 0n, feeBps: 30, feeRecipient: sample.feeRecipient }
    expect(sameRequest(quoted, { ...rest, tradeType: "exactOutput", amountOut: 900_000n })).toBeUndefined()
    expect(sameRequest(quoted, { ...rest, tradeType: "exactOutput", amountOut: 900_001n })).toBe("amountOut")
    expect(sameRequest(quoted, { ...rest, tradeType: "exactInput", amountIn: 1_000_300n })).toBe("amountIn")
    expect(sameRequest(sample, { ...rest, tradeType: "exactOutput", amountOut: sample.amountOut })).toBe("amountOut")
    const decoded = decodeQuoteId(KEY, encodeQuoteId(KEY, quoted), NOW)
    expect(decoded).toEqual({ ok: true, terms: quoted })
  })
})

describe("quote id and chain", () => {
  test("names the chain it was issued on: an id from Arc testnet reads as such, and is not for a request on Arc", () => {
    const arc = encodeQuoteId(KEY, { ...sample, chainId: 5042 })
    const testnet = encodeQuoteId(KEY, sample)
    expect(arc).not.toBe(testnet)
    const decoded = decodeQuoteId(KEY, testnet, NOW)
    expect(decoded).toEqual({ ok: true, terms: sample })
    if (decoded.ok) expect(sameRequest(decoded.terms, { ...sample, chainId: 5042 })).toBe("chainId")
  })

  test("an id of version 1 (before ids named their chain) reads as Arc's", () => {
    // version 1's layout: version 1 | tokenIn 20 | tokenOut 20 | feeBps 1 | slippageBps 2 | flag 1 [+ 20] |
    // issuedAt 5 | amountIn, amountOut, blockNumber as len+bytes | HMAC-SHA256 tag, 16 bytes
    const integer = (n: bigint) => {
      const hex = n.toString(16).padStart(2, "0")
      const even = hex.length % 2 === 1 ? `0${hex}` : hex
      return `${(even.length / 2).toString(16).padStart(2, "0")}${even}`
    }
    const body = Buffer.from(
      "01" + sample.tokenIn.slice(2) + sample.tokenOut.slice(2) + "1e" + "0032" + "01" + sample.feeRecipient!.slice(2) +
        sample.issuedAtSeconds.toString(16).padStart(10, "0") + integer(sample.amountIn) + integer(sample.amountOut) + integer(sample.blockNumber),
      "hex",
    )
    const tag = createHmac("sha256", KEY).update(body).digest().subarray(0, 16)
    const id = Buffer.concat([body, tag]).toString("base64url")
    expect(decodeQuoteId(KEY, id, NOW)).toEqual({ ok: true, terms: { ...sample, chainId: 5042 } })
  })

  test("an id of version 2 (before exact output) reads as an exact input", () => {
    const integer = (n: bigint) => {
      const hex = n.toString(16)
      const even = hex.length % 2 === 1 ? `0${hex}` : hex
      return `${(even.length / 2).toString(16).padStart(2, "0")}${even}`
    }
    const body = Buffer.from(
      "02" + "004cef52" + sample.tokenIn.slice(2) + sample.tokenOut.slice(2) + "1e" + "0032" + "01" + sample.feeRecipient!.slice(2) +
        sample.issuedAtSeconds.toString(16).padStart(10, "0") + integer(sample.amountIn) + integer(sample.amountOut) + integer(sample.blockNumber),
      "hex",
    )
    const tag = createHmac("sha256", KEY).update(body).digest().subarray(0, 16)
    const id = Buffer.concat([body, tag]).toString("base64url")
    expect(decodeQuoteId(KEY, id, NOW)).toEqual({ ok: true, terms: { ...sample, tradeType: "exactInput" } })
  })
})

describe("priceChangeOf", () => {
  test("exact input: the output's change; exact output: the input's, negative when the swap costs more", () => {
    const quotedIn: QuotedTerms = { ...sample, tradeType: "exactInput", amountIn: 1_000_000n, amountOut: 10_000n }
    expect(priceChangeOf(quotedIn, { amountIn: 1_000_000n, amountOut: 9_999n })).toBe(-1)
    expect(priceChangeOf(quotedIn, { amountIn: 1_000_000n, amountOut: 10_003n })).toBe(3)
    const quotedOut: QuotedTerms = { ...sample, tradeType: "exactOutput", amountIn: 10_000n, amountOut: 1_000_000n }
    expect(priceChangeOf(quotedOut, { amountIn: 10_001n, amountOut: 1_000_000n })).toBe(-1)
    expect(priceChangeOf(quotedOut, { amountIn: 9_990n, amountOut: 1_000_000n })).toBe(10)
    expect(priceChangeOf(quotedOut, { amountIn: 10_000n, amountOut: 1_000_000n })).toBe(0)
    // three times the quoted input: -20000 bps (an exact output has no floor at -10000)
    expect(priceChangeOf(quotedOut, { amountIn: 30_000n, amountOut: 1_000_000n })).toBe(-20_000)
  })
})

describe("priceChangeBps", () => {
  test("signed basis points of the quoted amount, rounded toward zero", () => {
    expect(priceChangeBps(10_000n, 10_000n)).toBe(0)
    expect(priceChangeBps(10_000n, 10_001n)).toBe(1)
    expect(priceChangeBps(10_000n, 9_999n)).toBe(-1)
    expect(priceChangeBps(3n, 2n)).toBe(-3333)
    expect(priceChangeBps(3n, 4n)).toBe(3333)
    expect(priceChangeBps(1_000_000n, 999_950n)).toBe(0)
    expect(priceChangeBps(1_000_000n, 2_000_000n)).toBe(10_000)
    expect(priceChangeBps(1_000_000n, 0n)).toBe(-10_000)
    // a rise too large for a JSON integer is reported as the largest
    expect(priceChangeBps(1n, 10n ** 30n)).toBe(Number.MAX_SAFE_INTEGER)
  })
  test("is the exact quotient truncated toward zero, for any amounts", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 30n }), (quoted, out) => {
        fc.pre(out <= quoted * 10n ** 11n)
        const got = BigInt(priceChangeBps(quoted, out))
        const scaled = (out - quoted) * 10_000n
        // |got| × quoted ≤ |scaled| < (|got| + 1) × quoted, with got's sign that of the change
        const abs = (n: bigint) => (n < 0n ? -n : n)
        expect(abs(got) * quoted <= abs(scaled)).toBe(true)
        expect(abs(scaled) < (abs(got) + 1n) * quoted).toBe(true)
        expect(got === 0n || got < 0n === scaled < 0n).toBe(true)
      }),
    )
  })
})
