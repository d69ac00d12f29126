// The pricing of one request within one block, shared: a request asked again
// within its block is priced once more and its pricing kept, and from then on
// /quote and /swap (and the relayer's fee) read it from the per-block cache
// instead of searching the routes again; a request asked once leaves only its
// key; a new block prices afresh, and with external aggregators (whose answers
// may change within a block) nothing is kept.
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import type { Address } from "viem"
import type { QuoteRequest, World } from "../../src/domain/index.ts"
import type { PricingTokens } from "../../src/pricer/index.ts"
import { makeQuoteCache, termsHash } from "../../src/swap/quote-cache.ts"
import { pricedOn, quoteProgram, type QuoteServices } from "../../src/swap/quote.ts"
import { snapshotOf, token, USDC, v2 } from "../routing/helpers.ts"

const E6 = 10n ** 6n
const OUT = token(1)
const world = (blockNumber: bigint): World => ({
  ...snapshotOf([v2(USDC, OUT, 1_000_000n * E6, 1_000_000n * E6), v2(USDC, token(2), 10n ** 12n, 10n ** 12n), v2(token(2), OUT, 10n ** 12n, 10n ** 12n)]),
  blockNumber,
  executor: {
    address: "0x1111111111111111111111111111111111111111" as Address,
    protocolFeeBps: 0,
    paused: false,
    allowedRouters: new Set<string>(),
    venueIds: new Map([["uniswap-v2", 1]]),
  },
})
const tokens: PricingTokens = {
  tokenIn: { input: USDC, native: false, erc20Address: USDC, scale: 1n, decimals: 6, symbol: "USDC" },
  tokenOut: { input: OUT, native: false, erc20Address: OUT, scale: 1n, decimals: 6, symbol: "T" },
  routableIn: { routable: true },
  routableOut: { routable: true },
}
const request = (amountIn: bigint): QuoteRequest => ({
  chainId: 5042,
  tokenIn: USDC,
  tokenOut: OUT,
  tradeType: "exactInput",
  amountIn,
  feeBps: 0,
  feeRecipient: null,
  slippageBps: 50,
})

/** Services over a World that the test moves; `pricings` counts the requests actually priced (their tokens looked up). */
const servicesOn = (options: { readonly external: boolean }) => {
  let current = world(100n)
  let pricings = 0
  const market = new Proxy({ freshWorld: () => Effect.sync(() => current) }, {
    get: (target, key) => {
      if (key in target) return target[key as keyof typeof target]
      throw new Error(`the market was asked for ${String(key)}, which the test did not expect`)
    },
  }) as unknown as QuoteServices["market"]
  const services: QuoteServices = {
    market,
    // an aggregator that never answers: the own router's route wins, but nothing may be kept
    sources: options.external
      ? ([{ name: "never", quote: () => Effect.fail({ reason: "timeout", source: "never", message: "no answer" }) }] as unknown as QuoteServices["sources"])
      : [],
    tokensOf: () => Effect.sync(() => (pricings++, tokens)),
    quoteCache: options.external ? undefined : makeQuoteCache(),
    maxPriceImpactBps: 10_000,
  }
  return {
    services,
    pricings: () => pricings,
    moveTo: (blockNumber: bigint) => {
      current = world(blockNumber)
    },
    world: () => current,
  }
}

describe("one request's pricing within a block", () => {
  test("/quote, then /swap's pricing at the same block: priced again and kept; every later asking reads it", async () => {
    const s = servicesOn({ external: false })
    const quote = await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))
    expect(s.pricings()).toBe(1)
    const priced = await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), { sender: USDC }))
    expect(s.pricings()).toBe(2)
    expect(priced.respond(priced.candidates[0]!)).toEqual(quote)
    // the same pricing again, and /quote's answer from it, kept with it
    expect(await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))).toBe(priced)
    const again = await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))
    expect(again).toEqual(quote)
    expect(await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))).toBe(again)
    expect(s.pricings()).toBe(2)
    // another amount is priced on its own
    await Effect.runPromise(quoteProgram(s.services, request(7_000n * E6)))
    expect(s.pricings()).toBe(3)
  })

  test("/swap first, then /quote at the same block: the quote is priced again, then answers from the kept pricing", async () => {
    const s = servicesOn({ external: false })
    const priced = await Effect.runPromise(pricedOn(s.services, s.world(), request(3_000n * E6), { sender: USDC }))
    const quote = await Effect.runPromise(quoteProgram(s.services, request(3_000n * E6)))
    expect(s.pricings()).toBe(2)
    expect(quote).toEqual(priced.respond(priced.candidates[0]!))
    expect(await Effect.runPromise(quoteProgram(s.services, request(3_000n * E6)))).toBe(quote)
    expect(s.pricings()).toBe(2)
  })

  test("requests asked once keep nothing: each asked once more is priced once more", async () => {
    const s = servicesOn({ external: false })
    for (let i = 1n; i <= 5n; i++) await Effect.runPromise(quoteProgram(s.services, request(i * 1_000n * E6)))
    expect(s.pricings()).toBe(5)
    for (let i = 1n; i <= 5n; i++) await Effect.runPromise(quoteProgram(s.services, request(i * 1_000n * E6)))
    expect(s.pricings()).toBe(10)
    for (let i = 1n; i <= 5n; i++) await Effect.runPromise(quoteProgram(s.services, request(i * 1_000n * E6)))
    expect(s.pricings()).toBe(10)
  })

  test("a new block prices afresh", async () => {
    const s = servicesOn({ external: false })
    await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))
    const first = await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))
    expect(s.pricings()).toBe(2)
    s.moveTo(101n)
    // asked twice at the new block: both priced (what was kept at 100 is stale), the second kept
    const next = await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))
    expect(next).not.toBe(first)
    expect(next.world.blockNumber).toBe(101n)
    await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))
    expect(s.pricings()).toBe(4)
    expect((await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))).blockNumber).toBe(101n)
    expect(s.pricings()).toBe(4)
  })

  test("with an external aggregator nothing is kept: every pricing asks again", async () => {
    const s = servicesOn({ external: true })
    await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))
    await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))
    await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))
    expect(s.pricings()).toBe(3)
  })
})

describe("the quote cache's keys", () => {
  const entry = (tag: string) => ({ priced: tag as never, response: undefined })
  /** a request's pricing kept: asked (missed and set) once, then set again */
  const keep = (cache: ReturnType<typeof makeQuoteCache>, block: bigint, r: QuoteRequest, e: ReturnType<typeof entry>) => {
    cache.set(block, r, entry("first asking"))
    cache.set(block, r, e)
  }

  test("requests looked up and kept in any order each find their own entry, and only it", () => {
    const cache = makeQuoteCache()
    const [a, b, c] = [request(1_000n * E6), request(2_000n * E6), { ...request(1_000n * E6), slippageBps: 100 }]
    const [ea, eb] = [entry("a"), entry("b")]
    // looked up both, then asked once each: nothing kept yet
    expect(cache.get(100n, a)).toBeUndefined()
    expect(cache.get(100n, b)).toBeUndefined()
    cache.set(100n, a, entry("a once"))
    cache.set(100n, b, entry("b once"))
    expect(cache.get(100n, a)).toBeUndefined()
    expect(cache.get(100n, b)).toBeUndefined()
    // asked again, in the other order: kept
    cache.set(100n, b, eb)
    cache.set(100n, a, ea)
    expect(cache.get(100n, b)).toBe(eb)
    expect(cache.get(100n, a)).toBe(ea)
    // an equal request (another object) finds the same entry; one field apart, none
    expect(cache.get(100n, request(2_000n * E6))).toBe(eb)
    expect(cache.get(100n, c)).toBeUndefined()
    expect(cache.get(101n, a)).toBeUndefined()
  })

  test("keys that collide: a kept pricing answers only its own request's terms", () => {
    // every request the same key
    const cache = makeQuoteCache(10, () => 7)
    const [a, b] = [request(1_000n * E6), { ...request(1_000n * E6), feeBps: 10, feeRecipient: "0x1111111111111111111111111111111111111111" as Address }]
    const [ea, eb] = [entry("a"), entry("b")]
    keep(cache, 100n, a, ea)
    expect(cache.get(100n, a)).toBe(ea)
    expect(cache.get(100n, b)).toBeUndefined()
    // b met a's key: its pricing is kept at once, in a's place
    cache.set(100n, b, eb)
    expect(cache.get(100n, b)).toBe(eb)
    expect(cache.get(100n, a)).toBeUndefined()
    // equal terms in another object (the sources as another set, in another order) find the entry
    const withSources = (names: string[]) => ({ ...request(3_000n * E6), allowedSources: new Set(names) })
    const es = entry("sources")
    keep(cache, 100n, withSources(["uniswap-v3", "curve"]), es)
    expect(cache.get(100n, withSources(["curve", "uniswap-v3"]))).toBe(es)
    expect(cache.get(100n, withSources(["curve"]))).toBeUndefined()
    expect(cache.get(100n, request(3_000n * E6))).toBeUndefined()
  })

  test("requests one term apart hash apart; equal terms hash alike", () => {
    const amountIn = 1_000n * E6
    const base = { ...request(amountIn), tradeType: "exactInput" as const, amountIn }
    const { amountIn: _, ...terms } = base
    const other: QuoteRequest[] = [
      { ...base, tokenIn: OUT, tokenOut: USDC },
      { ...terms, tradeType: "exactOutput", amountOut: amountIn },
      { ...base, amountIn: base.amountIn + 1n },
      { ...base, amountIn: base.amountIn + 2n ** 32n },
      { ...base, amountIn: 10n ** 30n },
      { ...base, amountIn: 10n ** 30n + 1n },
      { ...base, feeBps: 1 },
      { ...base, feeBps: 1, feeRecipient: "0x1111111111111111111111111111111111111111" as Address },
      { ...base, slippageBps: 51 },
      { ...base, allowedSources: new Set(["curve"]) },
      { ...base, allowedSources: new Set(["curve", "uniswap-v2"]) },
    ]
    const hashes = [base, ...other].map(termsHash)
    expect(new Set(hashes).size).toBe(hashes.length)
    expect(termsHash({ ...base })).toBe(termsHash(base))
    expect(termsHash({ ...base, allowedSources: new Set(["uniswap-v2", "curve"]) })).toBe(hashes[hashes.length - 1]!)
  })

  test("two generations of keys: a block's latest requests are found, the oldest are let go", () => {
    const cache = makeQuoteCache(3)
    const rs = Array.from({ length: 8 }, (_, i) => request(BigInt(i + 1) * E6))
    const es = rs.map((_, i) => entry(String(i)))
    // 0..2 fill the first generation, 3..5 the second, 6 starts a third: 0..2 are dropped
    for (const [i, r] of rs.slice(0, 7).entries()) keep(cache, 100n, r, es[i]!)
    for (let i = 0; i < 3; i++) expect(cache.get(100n, rs[i]!)).toBeUndefined()
    for (let i = 3; i < 7; i++) expect(cache.get(100n, rs[i]!)).toBe(es[i])
    // a request whose key was dropped counts as asked for the first time
    cache.set(100n, rs[0]!, es[0]!)
    expect(cache.get(100n, rs[0]!)).toBeUndefined()
    cache.set(100n, rs[0]!, es[0]!)
    expect(cache.get(100n, rs[0]!)).toBe(es[0])
    // a new block forgets every key
    cache.set(101n, rs[7]!, es[7]!)
    expect(cache.get(101n, rs[7]!)).toBeUndefined()
    expect(cache.get(101n, rs[6]!)).toBeUndefined()
  })
})
