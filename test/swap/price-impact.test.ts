// MAX_PRICE_IMPACT_BPS on a devnet: the pools the service reads are checked
// against the reference price feeds, and a route that moves the price further
// than the limit is refused on /quote and /swap alike (422 NO_ROUTE saying
// why); a token without a feed is priced as before.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer } from "effect"
import { startApiServer, type RunningApi } from "../../src/api/index.ts"
import { livePrograms } from "../../src/swap/live.ts"
import { startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"
import { v2Out } from "../routing/helpers.ts"

// one pool per token, 1,000 of each side; USDC and AAA at one dollar, NOF without a feed
const SCENARIO = JSON.stringify({
  tokens: [{ symbol: "AAA", decimals: 6 }, { symbol: "NOF", decimals: 6 }],
  priceFeeds: { USDC: "1", AAA: "1" },
  pools: [
    { dex: "uniswap-v2", tokens: ["USDC", "AAA"], reserves: ["1000", "1000"] },
    { dex: "uniswap-v2", tokens: ["USDC", "NOF"], reserves: ["1000", "1000"] },
  ],
  balances: [{ account: 0, amounts: { USDC: "10000" } }],
})
const E6 = 10n ** 6n
const RESERVE = 1_000n * E6

/** (in − out) / in in bps, rounded half up: both tokens at one dollar, 6 decimals each */
const impactOf = (amountIn: bigint) => Number(((amountIn - v2Out(amountIn, RESERVE, RESERVE)) * 20_000n + amountIn) / (2n * amountIn))

let s: SwapOnDevnet
beforeAll(async () => {
  s = await startSwapOnDevnet({ scenarioText: SCENARIO })
}, 120_000)
afterAll(async () => {
  await s?.stop()
})

const trade = (symbol: string, amountIn: bigint) => ({ tokenIn: s.token("USDC"), tokenOut: s.token(symbol), amountIn: amountIn.toString() })
const sender = () => s.manifest.accounts[0]!.address
const refusal = (impact: number, limit: number) =>
  `amountIn: the best route's price impact is ${impact} bps against the reference prices, over this service's limit of ${limit} bps; try a smaller amount`

describe("the default limit, 3000 bps", () => {
  test("under it: quoted and swapped, with the impact the pool's own formula gives", async () => {
    const amountIn = 400n * E6
    expect(impactOf(amountIn)).toBe(2872)
    const quote = await s.post("quote", trade("AAA", amountIn))
    expect(quote.status).toBe(200)
    expect(quote.body.priceImpactBps).toBe(2872)
    const swap = await s.post("swap", { ...trade("AAA", amountIn), sender: sender() })
    expect(swap.status).toBe(200)
    expect(swap.body.priceImpactBps).toBe(2872)
  })

  test("over it: 422 NO_ROUTE naming the impact and the limit, on /quote and on /swap", async () => {
    const amountIn = 1_000n * E6
    expect(impactOf(amountIn)).toBe(5008)
    for (const [path, body] of [["quote", trade("AAA", amountIn)], ["swap", { ...trade("AAA", amountIn), sender: sender() }]] as const) {
      const res = await s.post(path, body)
      expect([res.status, res.body.error]).toEqual([422, { code: "NO_ROUTE", message: refusal(5008, 3000) }])
    }
  })

  test("a token without a reference price is not affected: priced, priceImpactBps null", async () => {
    const quote = await s.post("quote", trade("NOF", 1_000n * E6))
    expect(quote.status).toBe(200)
    expect(quote.body.priceImpactBps).toBeNull()
    expect(BigInt(quote.body.grossAmountOut)).toBe(v2Out(1_000n * E6, RESERVE, RESERVE))
  })
})

describe("a limit set by MAX_PRICE_IMPACT_BPS", () => {
  let api: RunningApi
  let key: string
  const post = async (path: string, body: object) => {
    const res = await fetch(`${api.baseUrl}/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) })
    return { status: res.status, body: (await res.json()) as any }
  }
  beforeAll(async () => {
    const settings = { ...s.settings, maxPriceImpactBps: 6000 }
    api = await startApiServer({ programs: livePrograms(settings).pipe(Layer.orDie), env: { PORT: "0", DATABASE_URL: ":memory:", LOG_LEVEL: "error" } })
    ;({ key } = await Effect.runPromise(api.keys.create({ name: "limit 6000" })))
  }, 60_000)
  afterAll(async () => {
    await api?.stop()
  })

  test("6000: the 5008 bps trade is quoted; a larger one is refused against 6000", async () => {
    const quote = await post("quote", trade("AAA", 1_000n * E6))
    expect([quote.status, quote.body.priceImpactBps]).toEqual([200, 5008])
    const larger = 2_000n * E6
    const refused = await post("swap", { ...trade("AAA", larger), sender: sender() })
    expect([refused.status, refused.body.error]).toEqual([422, { code: "NO_ROUTE", message: refusal(impactOf(larger), 6000) }])
    expect(impactOf(larger)).toBeGreaterThan(6000)
  })
})
