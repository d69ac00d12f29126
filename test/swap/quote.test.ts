// The pricing of one request within one block, shared: /quote and /swap (and
// the relayer's fee) read it from the per-block cache instead of searching the
// routes again, a new block prices afresh, and with external aggregators (whose
// answers may change within a block) nothing is kept.
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import type { Address } from "viem"
import type { QuoteRequest, World } from "../../src/domain/index.ts"
import type { PricingTokens } from "../../src/pricer/index.ts"
import { makeQuoteCache } from "../../src/swap/quote-cache.ts"
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
  test("/quote, then /swap's pricing at the same block: the routes are searched once", async () => {
    const s = servicesOn({ external: false })
    const quote = await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))
    const priced = await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), { sender: USDC }))
    expect(s.pricings()).toBe(1)
    expect(priced.respond(priced.candidates[0]!)).toEqual(quote)
    // the same pricing again, and /quote's answer from it
    expect(await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))).toBe(priced)
    expect(await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))).toBe(quote)
    expect(s.pricings()).toBe(1)
    // another amount is priced on its own
    await Effect.runPromise(quoteProgram(s.services, request(7_000n * E6)))
    expect(s.pricings()).toBe(2)
  })

  test("/swap first, then /quote at the same block: the quote answers from the swap's pricing", async () => {
    const s = servicesOn({ external: false })
    const priced = await Effect.runPromise(pricedOn(s.services, s.world(), request(3_000n * E6), { sender: USDC }))
    const quote = await Effect.runPromise(quoteProgram(s.services, request(3_000n * E6)))
    expect(s.pricings()).toBe(1)
    expect(quote).toEqual(priced.respond(priced.candidates[0]!))
  })

  test("a new block prices afresh", async () => {
    const s = servicesOn({ external: false })
    const first = await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))
    s.moveTo(101n)
    const next = await Effect.runPromise(pricedOn(s.services, s.world(), request(5_000n * E6), {}))
    expect(s.pricings()).toBe(2)
    expect(next).not.toBe(first)
    expect(next.world.blockNumber).toBe(101n)
    expect((await Effect.runPromise(quoteProgram(s.services, request(5_000n * E6)))).blockNumber).toBe(101n)
    expect(s.pricings()).toBe(2)
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
  test("requests looked up and kept in any order each find their own entry, and only it", () => {
    const cache = makeQuoteCache()
    const entry = (tag: string) => ({ priced: tag as never, response: undefined })
    const [a, b, c] = [request(1_000n * E6), request(2_000n * E6), { ...request(1_000n * E6), slippageBps: 100 }]
    const [ea, eb] = [entry("a"), entry("b")]
    // looked up both, then kept in the other order
    expect(cache.get(100n, a)).toBeUndefined()
    expect(cache.get(100n, b)).toBeUndefined()
    cache.set(100n, a, ea)
    cache.set(100n, b, eb)
    expect(cache.get(100n, b)).toBe(eb)
    expect(cache.get(100n, a)).toBe(ea)
    // an equal request (another object) finds the same entry; one field apart, none
    expect(cache.get(100n, request(2_000n * E6))).toBe(eb)
    expect(cache.get(100n, c)).toBeUndefined()
    expect(cache.get(101n, a)).toBeUndefined()
  })
})
