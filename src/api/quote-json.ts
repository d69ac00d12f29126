// The /quote answer's JSON, written directly: the same text QuoteResponseJson
// encodes to (test/api/quote-json.test.ts holds them equal on generated answers),
// at a fraction of the cost of walking the Schema on every request. An answer the
// Schema would refuse (a field out of its range or of the wrong type) is not
// written here: `undefined` sends it through the Schema, which names the fault.
import type { QuoteResponse } from "../domain/index.ts"
import { pricedFits, pricedJson } from "./priced-json.ts"

/** The 200 body of POST /quote as QuoteResponseJson writes it, or undefined when the Schema must judge the answer. */
export const quoteJson = (q: QuoteResponse, quoteId: string, requestId: string): string | undefined => {
  if (!pricedFits(q) || typeof quoteId !== "string" || typeof requestId !== "string") return undefined
  return `{${pricedJson(q)},"quoteId":${JSON.stringify(quoteId)},"requestId":${JSON.stringify(requestId)}}`
}
