// RouteExecutor.executeExactOutput through an external router (hop kind 7), on the devnet with
// the devnet aggregator's own router: Uniswap's SwapRouter over the aggregator's V3 factory,
// called with exactOutputSingle calldata that buys exactly the split's gross output for the
// executor. The input it needs is the aggregator's QuoterV2 quoteExactOutputSingle at the block
// the transaction runs on. Every case checks, to the wei, the sender, the recipient, the fee
// collector, the partner and the executor, and that no allowance is left.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { encodeFunctionData, getAddress, type Abi, type Address, type Hex } from "viem"
import { encodeExecuteExactOutput, type ExactOutputParams } from "../../src/chain/exact-output-call.ts"
import { encodeExecute } from "../../src/chain/execute-call.ts"
import { encodeRoute, type Route } from "../../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { grossForNet, splitFees } from "../../src/pricer/index.ts"
import { freshAddress, NATIVE, SCALE, setupFixture, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let router: Address
let quoter: Address
let pool: { readonly fee: number }
const user = users[0]!
const routerAbi = uniswapArtifact("SwapRouter").abi as Abi
const quoterAbi = uniswapArtifact("QuoterV2").abi as Abi
const BIG = 10n ** 40n
let seed = 0
const fresh = () => freshAddress(9_000 + ++seed)

beforeAll(async () => {
  f = await setupFixture()
  const dex = f.devnet.manifest.aggregatorDex!
  router = getAddress(dex.router)
  quoter = getAddress(dex.quoter)
  pool = dex.pools.find((p) => p.tokens.includes("WETH") && p.tokens.includes("USDT")) as { fee: number }
  expect((await f.ownerWrite("setRouterAllowed", [router, true])).status).toBe("success")
  await f.mint("WETH", user, 10n ** 24n)
  await f.approve(user, f.token("WETH"), BIG)
}, 180_000)
afterAll(async () => {
  await f?.stop()
})

/** What the aggregator's pool needs for exactly `amountOut` (QuoterV2, at the latest block). */
const quoteInput = async (tokenIn: Address, tokenOut: Address, amountOut: bigint): Promise<bigint> => {
  const { result } = await f.client.simulateContract({
    address: quoter,
    abi: quoterAbi,
    functionName: "quoteExactOutputSingle",
    args: [{ tokenIn, tokenOut, amount: amountOut, fee: pool.fee, sqrtPriceLimitX96: 0n }],
  })
  return (result as readonly bigint[])[0]!
}

/** SwapRouter.exactOutputSingle: exactly `amountOut` to the executor for at most `amountInMaximum`. */
const buyData = async (tokenIn: Address, tokenOut: Address, amountOut: bigint, amountInMaximum: bigint): Promise<Hex> =>
  encodeFunctionData({
    abi: routerAbi,
    functionName: "exactOutputSingle",
    args: [{ tokenIn, tokenOut, fee: pool.fee, recipient: f.executor, deadline: await f.deadline(), amountOut, amountInMaximum, sqrtPriceLimitX96: 0n }],
  })

const externalRoute = (tokenIn: Address, tokenOut: Address, maxAmountIn: bigint, data: Hex, to: Address = router): Route => [
  { shareBps: 10_000, hops: [{ kind: "externalExactOutput", tokenIn, tokenOut, router: to, maxAmountIn, data }] },
]

const WETH_TO_USDT = 3_000n * 10n ** 6n

/** An exact-output WETH → USDT payment through the aggregator's router, and what it should cost. */
const setup = async (options: { readonly feeBps?: number; readonly buy?: (gross: bigint) => bigint; readonly slack?: bigint } = {}) => {
  const weth = f.token("WETH")
  const usdt = f.token("USDT")
  const protocolFeeBps = await f.protocolFeeBps()
  const feeBps = options.feeBps ?? 0
  const gross = grossForNet(WETH_TO_USDT, { protocolBps: protocolFeeBps, partnerBps: feeBps })
  const need = await quoteInput(weth, usdt, gross)
  // the aggregator's ceiling: its slippage over what it needs
  const ceiling = need + (options.slack ?? need / 100n)
  const data = await buyData(weth, usdt, options.buy?.(gross) ?? gross, ceiling)
  const recipient = fresh()
  const partner = fresh()
  const params: ExactOutputParams = {
    tokenIn: weth,
    tokenOut: usdt,
    amountOut: WETH_TO_USDT,
    maxAmountIn: ceiling,
    recipient,
    deadline: await f.deadline(),
    feeBps,
    ...(feeBps > 0 ? { feeRecipient: partner } : {}),
    protocolFeeBps,
    route: externalRoute(weth, usdt, ceiling, data),
  }
  return { params, gross, need, ceiling, weth, usdt, recipient, partner, protocolFeeBps, feeBps }
}

const balances = async (tokens: readonly Address[], holders: readonly Address[]) =>
  Promise.all(tokens.flatMap((t) => holders.map((h) => f.balance(t, h))))

describe("executeExactOutput through an allowlisted router (kind 7)", () => {
  test("buys exactly amountOut net of both fees; the sender pays exactly what the router took, the unspent ceiling comes back; no allowance, nothing kept", async () => {
    const s = await setup({ feeBps: 30 })
    const holders = [user, s.recipient, s.partner, f.feeCollector, f.executor, router]
    const before = await balances([s.weth, s.usdt], holders)
    // the eth_call's return value is the amount the sender pays
    expect(await f.simulateExactOutput(user, s.params)).toBe(s.need)
    const receipt = await f.executeExactOutput(user, s.params)
    expect(receipt.status).toBe("success")
    const after = await balances([s.weth, s.usdt], holders)
    const d = after.map((a, i) => a - before[i]!)
    const fees = splitFees(s.gross, { protocolBps: s.protocolFeeBps, partnerBps: s.feeBps })
    expect(fees.amountOut).toBe(WETH_TO_USDT)
    // WETH: sender, recipient, partner, collector, executor, router
    expect(d.slice(0, 6)).toEqual([-s.need, 0n, 0n, 0n, 0n, 0n])
    // USDT
    expect(d.slice(6)).toEqual([0n, WETH_TO_USDT, fees.partnerAmount, fees.protocolAmount, 0n, 0n])
    expect(s.ceiling).toBeGreaterThan(s.need)
    expect(await f.allowance(s.weth, f.executor, router)).toBe(0n)
    console.log(`executeExactOutput, one external hop (SwapRouter.exactOutputSingle), 30 bps partner fee: ${receipt.gasUsed} gas`)
  })

  test("a ceiling above what is left of maxAmountIn: Slippage(ceiling, maxAmountIn) before the router is called", async () => {
    const s = await setup()
    expect(await f.executeExactOutputError(user, { ...s.params, maxAmountIn: s.ceiling - 1n })).toEqual({
      name: "Slippage",
      args: [s.ceiling, s.ceiling - 1n],
      reason: "Slippage",
    })
  })

  test("a router that delivers less than the split's output: Slippage(received, needed)", async () => {
    const s = await setup({ buy: (gross) => gross - 1n })
    expect(await f.executeExactOutputError(user, s.params)).toEqual({ name: "Slippage", args: [s.gross - 1n, s.gross], reason: "Slippage" })
  })

  test("a router that delivers more: the recipient gets exactly amountOut, the sender the surplus, the executor nothing", async () => {
    const surplus = 5_000n
    const s = await setup({ buy: (gross) => gross + surplus, slack: 10n ** 16n })
    const holders = [user, s.recipient, f.feeCollector, f.executor]
    const before = await balances([s.weth, s.usdt], holders)
    const need = await quoteInput(s.weth, s.usdt, s.gross + surplus)
    expect((await f.executeExactOutput(user, s.params)).status).toBe("success")
    const after = await balances([s.weth, s.usdt], holders)
    const fees = splitFees(s.gross, { protocolBps: s.protocolFeeBps, partnerBps: 0 })
    expect(after.map((a, i) => a - before[i]!)).toEqual([-need, 0n, 0n, 0n, surplus, WETH_TO_USDT, fees.protocolAmount, 0n])
    expect(await f.allowance(s.weth, f.executor, router)).toBe(0n)
  })

  test("a router the owner has not allowlisted, or a token as router: InvalidRoute(RouterNotAllowed)", async () => {
    const s = await setup()
    const hop = (s.params.route as Route)[0]!.hops[0]!
    if (hop.kind !== "externalExactOutput") throw new Error("not an external hop")
    for (const other of [fresh(), s.weth, s.usdt]) {
      const route = externalRoute(s.weth, s.usdt, s.ceiling, hop.data, other)
      expect(await f.executeExactOutputError(user, { ...s.params, route })).toMatchObject({ name: "InvalidRoute", fault: "RouterNotAllowed" })
    }
  })

  test("the router's own failure (more needed than its ceiling) reverts the swap with the router's reason", async () => {
    const s = await setup({ slack: 0n })
    const tight = await buyData(s.weth, s.usdt, s.gross, s.need - 1n)
    const call = f.client.call({ account: user, to: f.executor, data: encodeExecuteExactOutput({ ...s.params, route: externalRoute(s.weth, s.usdt, s.ceiling, tight) }) })
    await expect(call).rejects.toThrow("Too much requested")
  })

  test("kind 7 in an exact-input route: InvalidRoute(Malformed)", async () => {
    const s = await setup()
    // the codec refuses it; the bytes are built as an exact-output route and handed to execute
    const bytes = encodeRoute(s.params.route as Route, "exactOutput")
    const data = encodeExecute({ tokenIn: s.weth, tokenOut: s.usdt, amountIn: s.need, minAmountOut: 1n, recipient: s.recipient, deadline: s.params.deadline, feeBps: 0, protocolFeeBps: s.protocolFeeBps, route: bytes })
    expect(await f.callError(user, data)).toMatchObject({ name: "InvalidRoute", fault: "Malformed" })
  })

  describe("a router that takes its whole ceiling and pays back the rest (as 0x settles an exact buy)", () => {
    let mock: Address
    const mockAbi = ownArtifact("MockAggregatorRouter").abi
    const SPEND_LESS = 1_000n
    beforeAll(async () => {
      mock = await f.deploy("MockAggregatorRouter")
      expect((await f.ownerWrite("setRouterAllowed", [mock, true])).status).toBe("success")
      await f.mint("EURC", mock, 10n ** 30n)
      await f.mint("EURC", user, 10n ** 24n)
      await f.approve(user, f.token("EURC"), BIG)
    })
    const buyCall = (tokenIn: Address, tokenOut: Address, maxIn: bigint, spend: bigint, amountOut: bigint): Hex =>
      encodeFunctionData({ abi: mockAbi, functionName: "exactBuy", args: [tokenIn, tokenOut, maxIn, spend, amountOut, f.executor] })

    test("ERC-20 input: the sender pays exactly what the router kept, not its ceiling", async () => {
      const protocolFeeBps = await f.protocolFeeBps()
      const amountOut = 500n * 10n ** 6n
      const gross = grossForNet(amountOut, { protocolBps: protocolFeeBps, partnerBps: 0 })
      const ceiling = 600n * 10n ** 6n
      const spend = ceiling - SPEND_LESS
      const recipient = fresh()
      const usdt = f.token("USDT")
      const eurc = f.token("EURC")
      await f.mint("USDT", user, 10n ** 12n)
      await f.approve(user, usdt, BIG)
      const route = externalRoute(usdt, eurc, ceiling, buyCall(usdt, eurc, ceiling, spend, gross), mock)
      const holders = [user, recipient, f.executor, mock]
      const before = await balances([usdt, eurc], holders)
      const receipt = await f.executeExactOutput(user, { tokenIn: usdt, tokenOut: eurc, amountOut, maxAmountIn: ceiling, recipient, deadline: await f.deadline(), feeBps: 0, protocolFeeBps, route })
      expect(receipt.status).toBe("success")
      const after = await balances([usdt, eurc], holders)
      expect(after.map((a, i) => a - before[i]!)).toEqual([-spend, 0n, 0n, spend, 0n, amountOut, 0n, -gross])
      expect(await f.allowance(usdt, f.executor, mock)).toBe(0n)
    })

    test("native input: msg.value is maxAmountIn; the router takes ERC-20 USDC from the executor, and the sender gets back everything but what it kept, in the same transaction", async () => {
      const protocolFeeBps = await f.protocolFeeBps()
      const amountOut = 500n * 10n ** 6n
      const gross = grossForNet(amountOut, { protocolBps: protocolFeeBps, partnerBps: 0 })
      const ceiling = 600n * 10n ** 6n
      const spend = ceiling - SPEND_LESS
      const maxAmountIn = ceiling * SCALE + 123n
      const recipient = fresh()
      const eurc = f.token("EURC")
      const route = externalRoute(USDC, eurc, ceiling, buyCall(USDC, eurc, ceiling, spend, gross), mock)
      const params: ExactOutputParams = { tokenIn: NATIVE, tokenOut: eurc, amountOut, maxAmountIn, recipient, deadline: await f.deadline(), feeBps: 0, protocolFeeBps, route }
      expect(await f.simulateExactOutput(user, params)).toBe(spend * SCALE)
      const nativeBefore = await Promise.all([f.native(user), f.native(f.executor), f.native(mock)])
      const eurcBefore = await f.balance(eurc, recipient)
      const receipt = await f.executeExactOutput(user, params)
      expect(receipt.status).toBe("success")
      const nativeAfter = await Promise.all([f.native(user), f.native(f.executor), f.native(mock)])
      const gas = receipt.gasUsed * receipt.effectiveGasPrice
      expect(nativeAfter.map((a, i) => a - nativeBefore[i]!)).toEqual([-(spend * SCALE) - gas, 0n, spend * SCALE])
      expect((await f.balance(eurc, recipient)) - eurcBefore).toBe(amountOut)
      expect(await f.allowance(USDC, f.executor, mock)).toBe(0n)
      // the ceiling above what maxAmountIn allows: Slippage, in wei
      expect(await f.executeExactOutputError(user, { ...params, maxAmountIn: ceiling * SCALE - 1n })).toMatchObject({ name: "Slippage", args: [ceiling * SCALE, ceiling * SCALE - 1n] })
    })
  })
})
