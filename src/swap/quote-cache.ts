// Requests priced within a block: the same request against the same market
// snapshot prices the same, so its pricing (every candidate route, and the
// answer /quote gave) is kept until the next block. /quote answers from it, and
// /swap, priced again at the head, takes its candidates from it instead of
// searching the routes once more (clients are told to share one quote for a few
// seconds; this does it for them).
import { fixedAmount, type QuoteRequest, type QuoteResponse } from "../domain/index.ts"
import type { Priced } from "../pricer/index.ts"

/** A request's pricing at one block, and the best route's answer once /quote gave it. */
export interface CachedPricing {
  readonly priced: Priced
  response: QuoteResponse | undefined
}

export interface QuoteCache {
  /** the pricing of this request at this block, if any */
  readonly get: (blockNumber: bigint, request: QuoteRequest) => CachedPricing | undefined
  readonly set: (blockNumber: bigint, request: QuoteRequest, entry: CachedPricing) => void
}

const keyOf = (r: QuoteRequest): string =>
  `${r.tokenIn}|${r.tokenOut}|${r.tradeType}|${fixedAmount(r)}|${r.feeBps}|${r.feeRecipient ?? ""}|${r.slippageBps}${r.allowedSources === undefined ? "" : `|${[...r.allowedSources].sort().join(",")}`}`

export const makeQuoteCache = (maxEntries = 20_000): QuoteCache => {
  let block = -1n
  let entries = new Map<string, CachedPricing>()
  // a miss is followed by the same request's entry: its key is written once (requests are immutable)
  let lastRequest: QuoteRequest | undefined
  let lastKey = ""
  const keyFor = (request: QuoteRequest): string => {
    if (request !== lastRequest) {
      lastKey = keyOf(request)
      lastRequest = request
    }
    return lastKey
  }
  const at = (blockNumber: bigint) => {
    // a new block makes every earlier pricing stale
    if (blockNumber !== block) {
      block = blockNumber
      entries = new Map()
    }
    return entries
  }
  return {
    get: (blockNumber, request) => (blockNumber === block ? entries.get(keyFor(request)) : undefined),
    set: (blockNumber, request, entry) => {
      if (blockNumber < block) return
      const map = at(blockNumber)
      if (map.size >= maxEntries) map.clear()
      map.set(keyFor(request), entry)
    },
  }
}
