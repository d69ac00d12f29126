// The route's choice weighs gas at the chain's price: two devnets identical
// but for their base fee floor (Arc's 20 gwei, and 8 wei), two equal V2 pairs
// of EURC/USDC, a trade small enough that splitting it over both pairs gains
// less than the extra split's gas costs at 20 gwei and more than it costs at
// 8 wei. Each expectation is worked out from V2's getAmountOut on the pairs'
// reserves and the routing gas model, at the gas price the node asks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { GAS } from "../../src/routing/gas.ts"
import { startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

/** whole tokens in each pair, on each side */
const RESERVE = 1_000_000n
const UNIT = 10n ** 6n
/** the trade: 40 EURC into USDC */
const AMOUNT_IN = 40n * UNIT

const scenario = (baseFeeGwei: number | string) =>
  JSON.stringify({
    baseFeeGwei,
    dexes: [{ name: "arcade-v2", kind: "uniswap-v2" }],
    tokens: [{ symbol: "EURC", decimals: 6 }],
    priceFeeds: { USDC: "1", EURC: "1" },
    pools: [
      { dex: "uniswap-v2", tokens: ["EURC", "USDC"], reserves: [RESERVE.toString(), RESERVE.toString()] },
      { dex: "arcade-v2", tokens: ["EURC", "USDC"], reserves: [RESERVE.toString(), RESERVE.toString()] },
    ],
    balances: [{ account: 0, amounts: { USDC: "1000", EURC: "1000" } }],
  })

/** Uniswap V2's getAmountOut: 0.3% fee, rounded down */
const v2Out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint) =>
  (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)

const reserve = RESERVE * UNIT
const single = v2Out(AMOUNT_IN, reserve, reserve)
// for two equal pairs the best split is half and half (the output is concave in the share)
const halves = 2n * v2Out(AMOUNT_IN / 2n, reserve, reserve)
/** gas of a route of `splits` one-hop V2 splits, as the gas model counts it */
const v2RouteGas = (splits: number) => BigInt(GAS.base + splits * (GAS.perSplit + GAS.v2Hop))

let arc: SwapOnDevnet
let cheap: SwapOnDevnet
beforeAll(async () => {
  arc = await startSwapOnDevnet({ scenarioText: scenario(20) })
  cheap = await startSwapOnDevnet({ scenarioText: scenario("0.000000008") })
}, 120_000)
afterAll(async () => {
  await Promise.all([arc?.stop(), cheap?.stop()])
})

/** the gas price the route is weighed at: the quoted block's base fee and the node's priority fee */
const gasPriceOf = async (s: SwapOnDevnet, blockNumber: string) => {
  const block = await s.devnet.client.getBlock({ blockNumber: BigInt(blockNumber) })
  const priority = BigInt((await s.devnet.client.request({ method: "eth_maxPriorityFeePerGas" } as never)) as string)
  return { baseFee: block.baseFeePerGas!, gasPrice: block.baseFeePerGas! + priority }
}

const quote = (s: SwapOnDevnet) => s.post("quote", { tokenIn: s.token("EURC"), tokenOut: s.token("USDC"), amountIn: AMOUNT_IN.toString() })

describe("a split over a second pair, worth less than its gas at Arc's floor", () => {
  test("the scenarios differ only in the floor, and the split's gain lies between its gas cost at each", async () => {
    expect(arc.manifest.baseFeeFloorWei).toBe("20000000000")
    expect(cheap.manifest.baseFeeFloorWei).toBe("8")
    const extraGas = v2RouteGas(2) - v2RouteGas(1)
    const gain = halves - single
    expect(gain).toBeGreaterThan(0n)
    const [a, c] = await Promise.all([quote(arc), quote(cheap)])
    const [atArc, atCheap] = await Promise.all([gasPriceOf(arc, a.body.blockNumber), gasPriceOf(cheap, c.body.blockNumber)])
    expect(atArc.baseFee).toBe(20_000_000_000n)
    expect(atCheap.baseFee).toBe(8n)
    // tokenOut is the ERC-20 USDC: wei / 10^12
    expect((extraGas * atArc.gasPrice) / 10n ** 12n).toBeGreaterThan(gain)
    expect((extraGas * atCheap.gasPrice) / 10n ** 12n).toBeLessThan(gain)
  })

  test("at 20 gwei the route takes one pair: the single swap's output and gas", async () => {
    const res = await quote(arc)
    expect(res.status).toBe(200)
    expect(res.body.route).toHaveLength(1)
    expect(res.body.route[0].shareBps).toBe(10000)
    expect(res.body.route[0].hops).toHaveLength(1)
    expect(BigInt(res.body.grossAmountOut)).toBe(single)
    expect(BigInt(res.body.gasEstimate)).toBe(v2RouteGas(1))
    const { baseFee } = await gasPriceOf(arc, res.body.blockNumber)
    expect(BigInt(res.body.gasCost.native)).toBe(v2RouteGas(1) * baseFee)
    expect(BigInt(res.body.gasCost.usdc)).toBeGreaterThan(0n)
  })

  test("at 8 wei the route splits half and half over both pairs: the halves' output and the two splits' gas", async () => {
    const res = await quote(cheap)
    expect(res.status).toBe(200)
    expect(res.body.route.map((s: { shareBps: number }) => s.shareBps)).toEqual([5000, 5000])
    expect(new Set(res.body.route.map((s: { hops: { dex: string }[] }) => s.hops[0]!.dex))).toEqual(new Set(["uniswap-v2", "arcade-v2"]))
    expect(BigInt(res.body.grossAmountOut)).toBe(halves)
    expect(BigInt(res.body.gasEstimate)).toBe(v2RouteGas(2))
    const { baseFee } = await gasPriceOf(cheap, res.body.blockNumber)
    expect(BigInt(res.body.gasCost.native)).toBe(v2RouteGas(2) * baseFee)
  })
})
