// Quotes shared within a block: the same request against the same market
import { fixedAmount, type QuoteRequest, type QuoteResponse } from "../domain/index.ts"
// snapshot prices the same, so its answer is kept until the next block
// (clients are told to share one quote for a few seconds; this does it for them).

export interface QuoteCache {
  /** the answer given to this request at this block, if any */
  readonly get: (blockNumber: bigint, request: QuoteRequest) => QuoteResponse | undefined
  readonly set: (blockNumber: bigint, request: QuoteRequest, response: QuoteResponse) => void
}

const keyOf = (r: QuoteRequest): string =>
  `${r.tokenIn}|${r.tokenOut}|${r.tradeType}|${fixedAmount(r)}|${r.feeBps}|${r.feeRecipient ?? ""}|${r.slippageBps}${r.allowedSources === undefined ? "" : `|${[...r.allowedSources].sort().join(",")}`}`

export const makeQuoteCache = (maxEntries = 20_000): QuoteCache => {
  let block = -1n
  let entries = new Map<string, QuoteResponse>()
  const at = (blockNumber: bigint) => {
    // a new block makes every earlier answer stale
    if (blockNumber !== block) {
      block = blockNumber
      entries = new Map()
    }
    return entries
  }
  return {
    get: (blockNumber, request) => (blockNumber === block ? entries.get(keyOf(request)) : undefined),
    set: (blockNumber, request, response) => {
      if (blockNumber < block) return
      const map = at(blockNumber)
      if (map.size >= maxEntries) map.clear()
      map.set(keyOf(request), response)
    },
  }
}
