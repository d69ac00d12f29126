// The pricer on synthetic Worlds: the venues a request allows are honoured by
// the search itself (no narrowed copy of the World per set of names), and a
// route that moves the price too far from the reference prices is refused.
import { describe, expect, test } from "bun:test"
import type { Address } from "viem"
import type { PoolState } from "../../src/amm/index.ts"
import { price, type Priced, type Refusal, type SourceRoute } from "../../src/pricer/index.ts"
import { snapshotOf, token, USDC, v2, v2Out } from "../routing/helpers.ts"
import type { World, QuoteRequest } from "../../src/domain/index.ts"

const E6 = 10n ** 6n
const executor = (venues: readonly string[]) => ({
  address: "0x1111111111111111111111111111111111111111" as Address,
  protocolFeeBps: 0,
  paused: false,
  allowedRouters: new Set<string>(),
  venueIds: new Map(venues.map((v, i) => [v, i + 1])),
})
const pricing = (tokenOut: Address, decimalsOut = 6) => ({
  tokenIn: { input: USDC, native: false, erc20Address: USDC, scale: 1n, decimals: 6, symbol: "USDC" },
  tokenOut: { input: tokenOut, native: false, erc20Address: tokenOut, scale: 1n, decimals: decimalsOut, symbol: "T" },
  routableIn: { routable: true } as const,
  routableOut: { routable: true } as const,
})
const request = (tokenOut: Address, amountIn: bigint, allowed?: ReadonlySet<string>): QuoteRequest => ({
  chainId: 5042,
  tokenIn: USDC,
  tokenOut,
  tradeType: "exactInput",
  amountIn,
  feeBps: 0,
  feeRecipient: null,
  slippageBps: 50,
  ...(allowed !== undefined ? { allowedSources: allowed } : {}),
})
const priced = (r: Priced | Refusal): Priced => {
  if ("kind" in r) throw new Error(`refused: ${r.kind}`)
  return r
}

/** A map that counts every read of its entries: how much of the World one request touches. */
class CountingMap<K, V> extends Map<K, V> {
  reads = 0
  override get(key: K) {
    this.reads++
    return super.get(key)
  }
  override has(key: K) {
    this.reads++
    return super.has(key)
  }
  override *entries(): MapIterator<[K, V]> {
    for (const entry of super.entries()) {
      this.reads++
      yield entry
    }
  }
  override *values(): MapIterator<V> {
    for (const [, value] of this.entries()) yield value
  }
  override *keys(): MapIterator<K> {
    for (const [key] of this.entries()) yield key
  }
  override [Symbol.iterator]() {
    return this.entries()
  }
  override forEach(f: (value: V, key: K, map: Map<K, V>) => void) {
    for (const [key, value] of this.entries()) f(value, key, this)
  }
}

describe("includeSources / excludeSources", () => {
  // ten venues, each with a USDC pool for every token, and a chain of pools between the tokens
  const VENUES = ["uniswap-v2", "arcade-v2", "v-a", "v-b", "v-c", "v-d", "v-e", "v-f", "v-g", "v-h"]
  const TOKENS = 60
  const pools: PoolState[] = []
  for (let t = 1; t <= TOKENS; t++) {
    VENUES.forEach((venue, i) => pools.push(v2(USDC, token(t), BigInt(1_000_000 + 10_000 * i) * E6, 1_000_000n * E6, undefined, venue)))
    if (t > 1) pools.push(v2(token(t - 1), token(t), 10n ** 12n, 10n ** 12n, undefined, VENUES[t % VENUES.length]))
  }
  const snapshot = snapshotOf(pools)
  const counted = new CountingMap(snapshot.pools)
  const world: World = { ...snapshot, pools: counted, executor: executor(VENUES) }
  const out = token(7)
  const ask = (allowed?: ReadonlySet<string>) => {
    counted.reads = 0
    const answer = priced(price(world, pricing(out), request(out, 5_000n * E6, allowed)))
    return { answer, reads: counted.reads }
  }
  // every set of two or more venues: what a client cycling through sets would send
  const everySet: Set<string>[] = []
  for (let m = 0; m < 1 << VENUES.length; m++) {
    const set = new Set(VENUES.filter((_, i) => (m & (1 << i)) !== 0))
    if (set.size >= 2) everySet.push(set)
  }

  test("the route uses only the allowed venues, and is the one a World of only their pools gives", () => {
    for (const allowed of [new Set(["uniswap-v2", "arcade-v2"]), new Set(["v-c"]), new Set(["v-h", "v-a", "v-e"])]) {
      const { answer } = ask(allowed)
      const best = answer.respond(answer.candidates[0]!)
      expect(best.route.flatMap((r) => r.hops.map((h) => h.dex)).every((dex) => allowed.has(dex))).toBe(true)
      const alone: World = { ...snapshotOf(pools.filter((p) => allowed.has(p.venue))), executor: executor(VENUES) }
      const expected = priced(price(alone, pricing(out), request(out, 5_000n * E6)))
      expect(best).toEqual(expected.respond(expected.candidates[0]!))
    }
  })

  test("a request naming venues reads none of the World's pools, and a client cycling through every set leaves another client's cost as it was", () => {
    ask() // the World's one routing graph, built once for every request
    const mine = new Set(["arcade-v2", "v-b"])
    const first = ask(mine)
    expect(first.reads).toBe(0)
    let most = 0
    for (const set of everySet) most = Math.max(most, ask(set).reads)
    expect([everySet.length, most]).toEqual([1013, 0])
    const again = ask(mine)
    expect(again.reads).toBe(0)
    expect(again.answer.respond(again.answer.candidates[0]!)).toEqual(first.answer.respond(first.answer.candidates[0]!))
  })
})

describe("MAX_PRICE_IMPACT_BPS", () => {
  // one USDC/A pair, 1,000 of each; both at one dollar; B has no reference price
  const [A, B] = [token(1), token(2)]
  const pair = v2(USDC, A, 1_000n * E6, 1_000n * E6)
  const pairB = v2(USDC, B, 1_000n * E6, 1_000n * E6)
  const dollar = { answer: 100_000_000n, decimals: 8, updatedAt: 0n }
  const world: World = { ...snapshotOf([pair, pairB]), executor: executor(["uniswap-v2"]), prices: new Map([[A.toLowerCase(), dollar]]) }
  /** the impact the pair gives amountIn, from Uniswap's own formula: (in − out) / in at one dollar each, in bps rounded half up */
  const impactOf = (amountIn: bigint) => Number(((amountIn - v2Out(amountIn, 1_000n * E6, 1_000n * E6)) * 20_000n + amountIn) / (2n * amountIn))

  test("a route over the limit is refused with its impact and the limit; at or under it, it is priced", () => {
    // 400 USDC: out = 400·997·1000/(1000·1000 + 400·997) = 285.10…, 2,872 bps
    const under = 400n * E6
    expect(impactOf(under)).toBe(2872)
    const answer = priced(price(world, pricing(A), request(A, under), [], { maxPriceImpactBps: 3000 }))
    expect(answer.respond(answer.candidates[0]!).priceImpactBps).toBe(2872)
    expect("kind" in price(world, pricing(A), request(A, under), [], { maxPriceImpactBps: 2872 })).toBe(false)
    expect(price(world, pricing(A), request(A, under), [], { maxPriceImpactBps: 2871 })).toEqual({ kind: "price-impact", impactBps: 2872, limitBps: 2871 })
    // 1,000 USDC: out 499.24…, 5,008 bps
    expect(price(world, pricing(A), request(A, 1_000n * E6), [], { maxPriceImpactBps: 3000 })).toEqual({ kind: "price-impact", impactBps: impactOf(1_000n * E6), limitBps: 3000 })
    expect(impactOf(1_000n * E6)).toBe(5008)
  })

  test("each route is held to the limit, and answered, with its own impact", () => {
    const amountIn = 400n * E6
    const ownOut = v2Out(amountIn, 1_000n * E6, 1_000n * E6)
    // aggregators' answers for the same input: one a little worse than the pair (still under the limit), one far worse
    const external = (amountOut: bigint, source: string): SourceRoute => ({
      source,
      amountOut,
      gasEstimate: 0n,
      netAmountOut: amountOut,
      route: [],
      display: [{ shareBps: 10_000, hops: [{ dex: source, pool: null, tokenIn: USDC, tokenOut: A }] }],
    })
    const near = external(280n * E6, "near")
    const far = external(100n * E6, "far")
    const impact = (out: bigint) => Number(((amountIn - out) * 20_000n + amountIn) / (2n * amountIn))
    const p = priced(price(world, pricing(A), request(A, amountIn), [far, near], { maxPriceImpactBps: 3000 }))
    expect(p.candidates.map((c) => c.source)).toEqual(["router", "near"])
    expect(p.candidates.map((c) => p.respond(c).priceImpactBps)).toEqual([impact(ownOut), impact(280n * E6)])
    expect(impact(ownOut)).toBe(2872)
    expect(impact(280n * E6)).toBe(3000)
    // under a limit only the pair meets, the far route's impact is not what refuses anything
    const tight = priced(price(world, pricing(A), request(A, amountIn), [far, near], { maxPriceImpactBps: 2999 }))
    expect(tight.candidates.map((c) => c.source)).toEqual(["router"])
  })

  test("a token without a reference price is priced whatever the route's output", () => {
    const answer = priced(price(world, pricing(B), request(B, 5_000n * E6), [], { maxPriceImpactBps: 0 }))
    expect(answer.respond(answer.candidates[0]!).priceImpactBps).toBeNull()
  })

  test("without a limit, every route is priced", () => {
    const answer = priced(price(world, pricing(A), request(A, 1_000n * E6)))
    expect(answer.respond(answer.candidates[0]!).priceImpactBps).toBe(5008)
  })
})

describe("exact output with aggregators competing", () => {
  // one V2 pool USDC → T at 1:1 (0.3% fee), and what an aggregator answers for the same gross output
  const out = token(1)
  const world: World = { ...snapshotOf([v2(USDC, out, 1_000_000n * E6, 1_000_000n * E6)]), executor: executor(["uniswap-v2"]) }
  const buy = (amountOut: bigint, slippageBps = 50): QuoteRequest => ({
    chainId: 5042,
    tokenIn: USDC,
    tokenOut: out,
    tradeType: "exactOutput",
    amountOut,
    feeBps: 0,
    feeRecipient: null,
    slippageBps,
  })
  const own = () => priced(price(world, pricing(out), buy(1_000n * E6))).candidates[0]!
  const aggregator = (amountIn: bigint, fields: Partial<SourceRoute> = {}): SourceRoute => ({
    source: "agg",
    amountOut: 1_000n * E6,
    amountIn,
    maxAmountIn: (amountIn * 10_050n + 9_999n) / 10_000n,
    costIn: amountIn + 30_000n,
    gasEstimate: 300_000n,
    netAmountOut: 1_000n * E6,
    route: [{ shareBps: 10_000, hops: [{ kind: "externalExactOutput", tokenIn: USDC, tokenOut: out, router: USDC, maxAmountIn: (amountIn * 10_050n + 9_999n) / 10_000n, data: "0x12345678" }] }],
    display: [{ shareBps: 10_000, hops: [{ dex: "agg", pool: null, tokenIn: USDC, tokenOut: out }] }],
    ...fields,
  })

  test("the least input plus gas in tokenIn wins; the answer's amountIn, maxAmountIn and route follow the winner", () => {
    const mine = own()
    expect(mine.source).toBe("router")
    const cheaper = aggregator(mine.costIn! - 30_001n)
    const dearer = aggregator(mine.costIn! - 29_999n)
    const p = priced(price(world, pricing(out), buy(1_000n * E6), [dearer, cheaper]))
    expect(p.candidates.map((c) => c.amountIn)).toEqual([cheaper.amountIn, mine.amountIn, dearer.amountIn])
    const answer = p.respond(p.candidates[0]!)
    expect(answer.amountIn).toBe(cheaper.amountIn!)
    expect(answer.maxAmountIn).toBe((cheaper.amountIn! * 10_050n + 9_999n) / 10_000n)
    expect(answer.amountOut).toBe(1_000n * E6)
    expect(answer.route).toEqual(cheaper.display)
  })

  test("left out: another amount delivered, no input, or a ceiling above the request's slippage over its input; an aggregator alone can answer", () => {
    const mine = own()
    const cheap = mine.amountIn! / 2n
    const others = [
      aggregator(cheap, { amountOut: 1_000n * E6 - 1n }),
      aggregator(cheap, { amountIn: undefined }),
      aggregator(cheap, { maxAmountIn: (cheap * 10_050n + 9_999n) / 10_000n + 1n }),
    ]
    expect(priced(price(world, pricing(out), buy(1_000n * E6), others)).candidates.map((c) => c.source)).toEqual(["router"])
    // more than the pool can pay: the own router cannot, the aggregator can
    const big = 2_000_000n * E6
    expect(price(world, pricing(out), buy(big))).toEqual({ kind: "cannot-deliver", symbol: "T" })
    const alone = priced(price(world, pricing(out), buy(big), [aggregator(3_000_000n * E6, { amountOut: big })]))
    expect(alone.candidates.map((c) => c.source)).toEqual(["agg"])
  })
})
