// Requests priced within a block: the same request against the same market
// snapshot prices the same, so a request asked again within its block is
// answered from its pricing (every candidate route, and the answer /quote gave)
// instead of searching the routes once more: /quote from its answer, /swap,
// priced again at the head, from its candidates (clients are told to share one
// quote for a few seconds; this does it for them).
//
// A pricing is kept from its request's second asking on; the first leaves only
// the request's key. Most requests are asked once (an integrator quoting a range
// of amounts), and keeping every pricing until the next block cost each of them
// more than a search: the objects a pricing holds outlive the collector's young
// generation, and the allocations of every later request fall between them
// (measured: 85-91 µs of CPU per fresh /quote over HTTP against 97-114 µs). A
// /swap right after its /quote searches the routes once more, some tens of
// microseconds beside its simulation's milliseconds, and keeps the pricing.
//
// Keys are kept in two generations of GENERATION_SIZE: when the newer one is
// full it becomes the older and the older is dropped, so the latest requests
// of a busy block are still found. A key is the request's terms hashed to a
// 32-bit number, not a string of them: no string is built, hashed and kept per
// request (measured over HTTP: string keys cost fresh /quotes a tenth of their
// throughput, against no cache at all). Hashes may collide: a kept pricing is
// answered only to a request with its very terms, and a collision otherwise
// costs no more than a search (or a pricing kept on its first asking).
import { fixedAmount, type QuoteRequest, type QuoteResponse } from "../domain/index.ts"
import type { Priced } from "../pricer/index.ts"

/** A request's pricing at one block, and the best route's answer once /quote gave it. */
export interface CachedPricing {
  readonly priced: Priced
  response: QuoteResponse | undefined
}

export interface QuoteCache {
  /** the pricing of this request at this block, if kept */
  readonly get: (blockNumber: bigint, request: QuoteRequest) => CachedPricing | undefined
  /** the pricing of this request at this block, kept when the request was asked before within the block */
  readonly set: (blockNumber: bigint, request: QuoteRequest, entry: CachedPricing) => void
}

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193
const TWO_32 = 2 ** 32
const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

const mixNumber = (h: number, n: number): number => Math.imul(h ^ n, FNV_PRIME)
const mixString = (h: number, s: string): number => {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME)
  return mixNumber(h, s.length)
}
const mixAmount = (h: number, a: bigint): number => {
  if (a > SAFE) return mixString(h, a.toString())
  const n = Number(a)
  return mixNumber(mixNumber(h, n % TWO_32), Math.floor(n / TWO_32))
}

/** The terms a pricing depends on, hashed to 32 bits (FNV-1a). */
export const termsHash = (r: QuoteRequest): number => {
  let h = mixString(mixString(FNV_OFFSET, r.tokenIn), r.tokenOut)
  h = mixNumber(h, r.tradeType === "exactInput" ? 1 : 2)
  h = mixAmount(h, fixedAmount(r))
  h = mixString(mixNumber(h, r.feeBps), r.feeRecipient ?? "")
  h = mixNumber(h, r.slippageBps)
  if (r.allowedSources !== undefined) for (const name of [...r.allowedSources].sort()) h = mixString(h, name)
  return h
}

/** Whether two requests have the same terms (those termsHash reads). */
const sameTerms = (a: QuoteRequest, b: QuoteRequest): boolean =>
  a.tokenIn === b.tokenIn &&
  a.tokenOut === b.tokenOut &&
  a.tradeType === b.tradeType &&
  fixedAmount(a) === fixedAmount(b) &&
  a.feeBps === b.feeBps &&
  a.feeRecipient === b.feeRecipient &&
  a.slippageBps === b.slippageBps &&
  (a.allowedSources === b.allowedSources ||
    (a.allowedSources !== undefined && b.allowedSources !== undefined && a.allowedSources.size === b.allowedSources.size && [...a.allowedSources].every((n) => b.allowedSources!.has(n))))

/** the mark of a request asked once within the block: its key alone is kept */
const ASKED_ONCE = Symbol("asked once")

/** a pricing kept, with the request it answers */
interface Kept {
  readonly request: QuoteRequest
  readonly entry: CachedPricing
}

/** keys per generation: between 10,000 and 20,000 of a block's latest requests are known */
export const GENERATION_SIZE = 10_000

/** `hashOf` is the key of a request's terms (replaced in tests, to make keys collide). */
export const makeQuoteCache = (generationSize = GENERATION_SIZE, hashOf: (request: QuoteRequest) => number = termsHash): QuoteCache => {
  let block = -1n
  let current = new Map<number, Kept | typeof ASKED_ONCE>()
  let previous = new Map<number, Kept | typeof ASKED_ONCE>()
  // a miss is followed by the same request's entry: its key is made once (requests are immutable)
  let lastRequest: QuoteRequest | undefined
  let lastKey = 0
  const keyFor = (request: QuoteRequest): number => {
    if (request !== lastRequest) {
      lastKey = hashOf(request)
      lastRequest = request
    }
    return lastKey
  }
  const found = (key: number) => current.get(key) ?? previous.get(key)
  return {
    get: (blockNumber, request) => {
      if (blockNumber !== block) return undefined
      const kept = found(keyFor(request))
      return kept === undefined || kept === ASKED_ONCE || !sameTerms(kept.request, request) ? undefined : kept.entry
    },
    set: (blockNumber, request, entry) => {
      if (blockNumber < block) return
      // a new block makes every earlier pricing stale
      if (blockNumber !== block) {
        block = blockNumber
        current = new Map()
        previous = new Map()
      }
      const key = keyFor(request)
      // a key met before within the block (this request's, or one it collides with) keeps the pricing
      const asked = found(key) !== undefined
      // a new key in a full generation starts the next one
      if (!current.has(key) && current.size >= generationSize) {
        previous = current
        current = new Map()
      }
      current.set(key, asked ? { request, entry } : ASKED_ONCE)
    },
  }
}
