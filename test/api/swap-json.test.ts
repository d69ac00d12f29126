// The /swap answer written directly is the text the response Schema encodes to:
// on generated answers (in range and out of it, with and without a permit to sign,
// the sender's issues and a price change), whenever swapJson writes a body it is
// SwapResponseJson's, and whenever the Schema refuses an answer swapJson leaves it
// to the Schema.
import { describe, expect, test } from "bun:test"
import { Either, Schema } from "effect"
import fc from "fast-check"
import { swapJson, SwapResponseJson } from "../../src/api/index.ts"
import { priceChange, swapAnswer } from "../support/answer-arbitraries.ts"

const encode = Schema.encodeEither(SwapResponseJson)

describe("the /swap answer's JSON", () => {
  test("is SwapResponseJson's text whenever it is written, and left to the Schema whenever the Schema refuses", () => {
    let written = 0
    let withPermit = 0
    let refused = 0
    fc.assert(
      fc.property(swapAnswer, priceChange, fc.string(), (s, priceChangeBps, requestId) => {
        const mine = swapJson(s, priceChangeBps, requestId)
        const schema = encode({ ...s, priceChangeBps, requestId })
        if (Either.isLeft(schema)) {
          refused++
          expect(mine).toBeUndefined()
        } else if (mine !== undefined) {
          written++
          if (s.permit !== null) withPermit++
          expect(mine).toBe(JSON.stringify(schema.right))
        }
      }),
      { numRuns: 3_000 },
    )
    // every side was exercised
    expect(written).toBeGreaterThan(100)
    expect(withPermit).toBeGreaterThan(50)
    expect(refused).toBeGreaterThan(100)
  })
})
