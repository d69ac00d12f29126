// The /quote answer written directly is the text the response Schema encodes to:
// on generated answers (in range and out of it), whenever quoteJson writes a body it
// is QuoteResponseJson's, and whenever the Schema refuses an answer quoteJson leaves
// it to the Schema.
import { describe, expect, test } from "bun:test"
import { Either, Schema } from "effect"
import fc from "fast-check"
import { quoteJson, QuoteResponseJson } from "../../src/api/index.ts"
import type { QuoteResponse } from "../../src/domain/index.ts"

const encode = Schema.encodeEither(QuoteResponseJson)
const hexDigit = fc.constantFrom(..."0123456789abcdefABCDEF".split(""))
const address = fc.array(hexDigit, { minLength: 40, maxLength: 40 }).map((d) => `0x${d.join("")}` as `0x${string}`)
const amount = fc.oneof(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), fc.constantFrom(0n, 1n, -1n))
/** mostly in range, now and then just outside it */
const bps = (min: number, max: number) => fc.oneof({ arbitrary: fc.integer({ min, max }), weight: 9 }, { arbitrary: fc.constantFrom(min - 1, max + 1, min + 0.5), weight: 1 })

const answer: fc.Arbitrary<QuoteResponse> = fc.record({
  chainId: fc.oneof({ arbitrary: fc.constantFrom(5042, 5042002), weight: 9 }, { arbitrary: fc.constant(1), weight: 1 }),
  tokenIn: address,
  tokenOut: address,
  tradeType: fc.constantFrom("exactInput", "exactOutput"),
  amountIn: amount,
  maxAmountIn: amount,
  amountOut: amount,
  minAmountOut: amount,
  slippageBps: bps(0, 2_000),
  grossAmountOut: amount,
  fees: fc.record({
    token: address,
    protocolBps: bps(0, 10_000),
    protocolAmount: amount,
    partnerBps: bps(0, 100),
    partnerAmount: amount,
    partnerRecipient: fc.option(address, { nil: null }),
  }),
  priceImpactBps: fc.oneof(fc.constant(null), fc.integer({ min: -10_000, max: 10_000 }), fc.constant(1.5)),
  gasEstimate: fc.option(amount, { nil: null }),
  gasCost: fc.option(fc.record({ native: amount, usdc: amount, tokenOut: fc.option(amount, { nil: null }) }), { nil: null }),
  route: fc.array(
    fc.record({
      shareBps: bps(1, 10_000),
      hops: fc.array(fc.record({ dex: fc.string(), pool: fc.option(fc.string(), { nil: null }), tokenIn: address, tokenOut: address }), { maxLength: 3 }),
    }),
    { maxLength: 3 },
  ),
  blockNumber: amount,
}) as fc.Arbitrary<QuoteResponse>

describe("the /quote answer's JSON", () => {
  test("is QuoteResponseJson's text whenever it is written, and left to the Schema whenever the Schema refuses", () => {
    let written = 0
    let refused = 0
    fc.assert(
      fc.property(answer, fc.string(), fc.string(), (q, quoteId, requestId) => {
        const mine = quoteJson(q, quoteId, requestId)
        const schema = encode({ ...q, quoteId, requestId })
        if (Either.isLeft(schema)) {
          refused++
          expect(mine).toBeUndefined()
        } else if (mine !== undefined) {
          written++
          expect(mine).toBe(JSON.stringify(schema.right))
        }
      }),
      { numRuns: 2_000 },
    )
    // both sides were exercised
    expect(written).toBeGreaterThan(100)
    expect(refused).toBeGreaterThan(100)
  })
})
