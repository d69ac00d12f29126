// The /quote answer written directly is the text the response Schema encodes to:
// on generated answers (in range and out of it), whenever quoteJson writes a body it
// is QuoteResponseJson's, and whenever the Schema refuses an answer quoteJson leaves
// it to the Schema.
import { describe, expect, test } from "bun:test"
import { Either, Schema } from "effect"
import fc from "fast-check"
import { quoteJson, QuoteResponseJson } from "../../src/api/index.ts"
import { quoteAnswer } from "../support/answer-arbitraries.ts"

const encode = Schema.encodeEither(QuoteResponseJson)

describe("the /quote answer's JSON", () => {
  test("is QuoteResponseJson's text whenever it is written, and left to the Schema whenever the Schema refuses", () => {
    let written = 0
    let refused = 0
    fc.assert(
      fc.property(quoteAnswer, fc.string(), fc.string(), (q, quoteId, requestId) => {
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
