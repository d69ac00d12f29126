// RouteExecutor on the devnet: exact amounts for every party, native USDC in and out,
// multi-split multi-hop routes over V2, V3 and V4, and the executor left holding nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { decodeErrorResult, decodeEventLog, encodeFunctionData, zeroAddress, zeroHash, type TransactionReceipt } from "viem"
import { decodeExecutorError, encodeExecute, routeExecutorAbi, type ExecuteParams } from "../../src/chain/execute-call.ts"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { v2InitCodeHash, v3InitCodeHash } from "../../src/devnet/executor.ts"
import type { Route, RouteHop } from "../../src/chain/route-encoding.ts"
import { isStablePool } from "../../src/devnet/manifest.ts"
import { erc20Abi, freshAddress, NATIVE, revertData, SCALE, setupFixture, splitFees, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let bps: number
const user = users[0]!

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const gasCost = (r: TransactionReceipt) => r.gasUsed * r.effectiveGasPrice

/** Every ERC-20 the scenario has, plus the executor's native balance: all must be back where they were. */
const executorHoldings = async () => {
  const tokens = ["USDC", "EURC", "USDT", "WETH", "cirBTC", "WBTC"].map((s) => f.token(s))
  return [await f.native(f.executor), ...(await Promise.all(tokens.map((t) => f.balance(t, f.executor))))]
}

const base = async (p: Pick<ExecuteParams, "tokenIn" | "tokenOut" | "amountIn" | "route"> & Partial<ExecuteParams>): Promise<ExecuteParams> => ({
  minAmountOut: 0n,
  recipient: freshAddress(Math.floor(Math.random() * 1e9)),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: bps,
  ...p,
})

const one = (...hops: RouteHop[]): Route => [{ shareBps: 10_000, hops }]

describe("deployment", () => {
  test("constructor arguments: owner, fee collector, 25 bps; the devnet's venues registered with Uniswap's init code hashes", async () => {
    const read = (functionName: string, args: readonly unknown[] = []) => f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName, args })
    expect(await read("owner")).toBe(f.owner)
    expect(await read("feeCollector")).toBe(f.feeCollector)
    expect(await read("protocolFeeBps")).toBe(25)
    expect(await read("paused")).toBe(false)
    // the public constants of Uniswap's SDKs (INIT_CODE_HASH, POOL_INIT_CODE_HASH)
    const V2_HASH = "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f"
    const V3_HASH = "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54"
    expect(v2InitCodeHash()).toBe(V2_HASH)
    expect(v3InitCodeHash()).toBe(V3_HASH)
    // venue(id) = (kind, factory, initCodeHash, feeBps)
    expect([f.venueId("uniswap-v2"), f.venueId("uniswap-v3"), f.venueId("uniswap-v4")]).toEqual([1, 2, 3])
    expect(await read("venue", [1])).toEqual([1, f.dex.v2Factory, V2_HASH, 30])
    expect(await read("venue", [2])).toEqual([2, f.dex.v3Factory, V3_HASH, 0])
    expect(await read("venue", [3])).toEqual([3, f.dex.poolManager, zeroHash, 0])
    // no other id than the manifest's Uniswap venues
    expect(await read("venue", [0])).toEqual([0, zeroAddress, zeroHash, 0])
    expect(await read("venue", [f.venueIds.size + 1])).toEqual([0, zeroAddress, zeroHash, 0])
    // every stable pool of the manifest, with its coins in pool order
    for (const p of f.devnet.manifest.pools.filter(isStablePool)) {
      for (const [k, symbol] of p.tokens.entries()) expect(await read("stableCoinIndex", [p.pool, f.token(symbol)])).toBe(BigInt(k + 1))
    }
  })
})

describe("ERC-20 in, ERC-20 out", () => {
  test("single V3 hop with a partner fee: exact amounts to recipient, fee recipient and fee collector", async () => {
    const EURC = f.token("EURC")
    const amountIn = 1_234_567_891n
    const route = one(f.hop("uniswap-v3", "EURC", "USDC", 500))
    const gross = await f.quoteRoute(route, amountIn)
    const feeBps = 37
    const { protocolAmount, partnerAmount, amountOut } = splitFees(gross, bps, feeBps)
    // hand check of the formulas on this gross: floor(g*25/10000), floor(g*37/10000), the rest
    expect(protocolAmount).toBe((gross * 25n) / 10_000n)
    expect(amountOut + protocolAmount + partnerAmount).toBe(gross)

    const recipient = freshAddress(11)
    const feeRecipient = freshAddress(12)
    await f.approve(user, EURC, amountIn)
    const collectorBefore = await f.balance(USDC, f.feeCollector)
    const userEurcBefore = await f.balance(EURC, user)
    const holdings = await executorHoldings()
    const params = await base({ tokenIn: EURC, tokenOut: USDC, amountIn, route, recipient, feeBps, feeRecipient, minAmountOut: amountOut })
    expect(await f.simulate(user, params)).toBe(amountOut)
    const receipt = await f.execute(user, params)
    expect(receipt.status).toBe("success")

    expect(await f.balance(USDC, recipient)).toBe(amountOut)
    expect(await f.balance(USDC, feeRecipient)).toBe(partnerAmount)
    expect((await f.balance(USDC, f.feeCollector)) - collectorBefore).toBe(protocolAmount)
    expect(userEurcBefore - (await f.balance(EURC, user))).toBe(amountIn)
    // the exact approval is used up; the executor holds what it held before and approves no one
    expect(await f.allowance(EURC, user, f.executor)).toBe(0n)
    expect(await executorHoldings()).toEqual(holdings)

    // one Swap event with the amounts
    const swaps = receipt.logs
      .filter((l) => l.address.toLowerCase() === f.executor.toLowerCase())
      .map((l) => decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics }) as { eventName: string; args: unknown })
    expect(swaps).toHaveLength(1)
    expect(swaps[0]!.eventName).toBe("Swap")
    expect(swaps[0]!.args).toEqual({
      sender: user,
      recipient,
      tokenIn: EURC,
      tokenOut: USDC,
      amountIn,
      amountOut,
      protocolAmount,
      partnerAmount,
    })
  })

  test("minAmountOut equal to the output passes, one more reverts Slippage", async () => {
    const EURC = f.token("EURC")
    const amountIn = 5_000_000n
    const route = one(f.hop("uniswap-v2", "EURC", "USDC"))
    const { amountOut } = splitFees(await f.quoteRoute(route, amountIn), bps, 0)
    await f.approve(user, EURC, amountIn)
    const params = await base({ tokenIn: EURC, tokenOut: USDC, amountIn, route, minAmountOut: amountOut + 1n })
    const error = await f.executeError(user, params)
    expect(error.name).toBe("Slippage")
    expect(error.args).toEqual([amountOut, amountOut + 1n])
    expect(await f.simulate(user, { ...params, minAmountOut: amountOut })).toBe(amountOut)
  })

  test("multi-split, multi-hop route mixing V2, V3 and V4 (USDT -> USDC over three splits)", async () => {
    const USDT = f.token("USDT")
    const amountIn = 2_500_000_000n // 2500 USDT
    const route: Route = [
      // V2 then V3
      { shareBps: 4_000, hops: [f.hop("uniswap-v2", "USDT", "WETH"), f.hop("uniswap-v3", "WETH", "USDC", 500)] },
      // V4 then V2
      { shareBps: 3_500, hops: [f.hop("uniswap-v4", "USDT", "EURC"), f.hop("uniswap-v2", "EURC", "USDC")] },
      // V3 alone
      { shareBps: 2_500, hops: [f.hop("uniswap-v3", "USDT", "USDC", 100)] },
    ]
    const gross = await f.quoteRoute(route, amountIn)
    const feeBps = 100
    const { protocolAmount, partnerAmount, amountOut } = splitFees(gross, bps, feeBps)
    const recipient = freshAddress(21)
    const feeRecipient = freshAddress(22)
    await f.approve(user, USDT, amountIn)
    const collectorBefore = await f.balance(USDC, f.feeCollector)
    const holdings = await executorHoldings()
    const receipt = await f.execute(user, await base({ tokenIn: USDT, tokenOut: USDC, amountIn, route, recipient, feeBps, feeRecipient, minAmountOut: amountOut }))
    expect(receipt.status).toBe("success")
    expect(await f.balance(USDC, recipient)).toBe(amountOut)
    expect(await f.balance(USDC, feeRecipient)).toBe(partnerAmount)
    expect((await f.balance(USDC, f.feeCollector)) - collectorBefore).toBe(protocolAmount)
    expect(await f.allowance(USDT, user, f.executor)).toBe(0n)
    expect(await executorHoldings()).toEqual(holdings)
  })

  test("consecutive V4 hops run in one unlock (WETH -> cirBTC -> USDC)", async () => {
    const WETH = f.token("WETH")
    const amountIn = 10n ** 17n
    const route = one(f.hop("uniswap-v4", "WETH", "cirBTC"), f.hop("uniswap-v4", "cirBTC", "USDC"))
    const { amountOut } = splitFees(await f.quoteRoute(route, amountIn), bps, 0)
    const recipient = freshAddress(31)
    await f.approve(user, WETH, amountIn)
    const holdings = await executorHoldings()
    const receipt = await f.execute(user, await base({ tokenIn: WETH, tokenOut: USDC, amountIn, route, recipient }))
    expect(receipt.status).toBe("success")
    expect(await f.balance(USDC, recipient)).toBe(amountOut)
    // one unlock: the PoolManager settled WETH once and paid USDC once, nothing in cirBTC
    const poolManager = f.dex.poolManager
    const cirBTC = f.token("cirBTC")
    const cirTransfers = receipt.logs.filter((l) => l.address.toLowerCase() === cirBTC.toLowerCase())
    expect(cirTransfers).toHaveLength(0)
    const toManager = receipt.logs.filter((l) => l.address.toLowerCase() === WETH.toLowerCase() && l.topics[2]?.toLowerCase().endsWith(poolManager.slice(2).toLowerCase()))
    expect(toManager).toHaveLength(1)
    expect(await executorHoldings()).toEqual(holdings)
  })

  test("a hop followed by a V2 hop pays straight into the pair (USDC -V2-> USDT -V2-> WETH, EURC -V3-> USDC -V2-> USDT)", async () => {
    const amountIn = 3_000_000_000n
    const chained = one(f.hop("uniswap-v2", "USDC", "USDT"), f.hop("uniswap-v2", "USDT", "WETH"))
    const { amountOut } = splitFees(await f.quoteRoute(chained, amountIn), bps, 0)
    const recipient = freshAddress(41)
    await f.approve(user, USDC, amountIn)
    const holdings = await executorHoldings()
    const receipt = await f.execute(user, await base({ tokenIn: USDC, tokenOut: f.token("WETH"), amountIn, route: chained, recipient }))
    expect(await f.balance(f.token("WETH"), recipient)).toBe(amountOut)
    // USDT went pair to pair: no USDT Transfer touches the executor
    const USDT = f.token("USDT")
    const executorTopic = f.executor.slice(2).toLowerCase()
    expect(receipt.logs.filter((l) => l.address.toLowerCase() === USDT.toLowerCase() && l.topics.some((t) => t?.toLowerCase().endsWith(executorTopic)))).toHaveLength(0)

    const v3ThenV2 = one(f.hop("uniswap-v3", "EURC", "USDC", 500), f.hop("uniswap-v2", "USDC", "USDT"))
    const amountIn2 = 777_000_000n
    const out2 = splitFees(await f.quoteRoute(v3ThenV2, amountIn2), bps, 0).amountOut
    await f.approve(user, f.token("EURC"), amountIn2)
    const recipient2 = freshAddress(42)
    await f.execute(user, await base({ tokenIn: f.token("EURC"), tokenOut: USDT, amountIn: amountIn2, route: v3ThenV2, recipient: recipient2 }))
    expect(await f.balance(USDT, recipient2)).toBe(out2)
    expect(await executorHoldings()).toEqual(holdings)
  })
})

describe("native USDC", () => {
  test("native input: amountIn / 1e12 units go down the route, the dust comes back in the same transaction", async () => {
    const EURC = f.token("EURC")
    const units = 1_500_000_000n // 1500 USDC
    const dust = 123_456_789_012n % SCALE
    const amountIn = units * SCALE + dust
    const route = one(f.hop("uniswap-v3", "USDC", "EURC", 500))
    const { amountOut } = splitFees(await f.quoteRoute(route, units), bps, 0)
    const recipient = freshAddress(51)
    const before = await f.native(user)
    const holdings = await executorHoldings()
    const receipt = await f.execute(user, await base({ tokenIn: NATIVE, tokenOut: EURC, amountIn, route, recipient }), amountIn)
    expect(receipt.status).toBe("success")
    expect(await f.balance(EURC, recipient)).toBe(amountOut)
    // the sender paid exactly units * 1e12 plus gas: the dust was refunded
    expect(before - (await f.native(user))).toBe(units * SCALE + gasCost(receipt))
    expect(await executorHoldings()).toEqual(holdings)
  })

  test("the 0xEeee…EeeE placeholder is native too", async () => {
    const amountIn = 10n ** 18n
    const route = one(f.hop("uniswap-v2", "USDC", "EURC"))
    const { amountOut } = splitFees(await f.quoteRoute(route, amountIn / SCALE), bps, 0)
    const params = await base({ tokenIn: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", tokenOut: f.token("EURC"), amountIn, route })
    expect(await f.simulate(user, params, amountIn)).toBe(amountOut)
  })

  test("native output: the gross in wei is the route's ERC-20 output x 1e12; every party is paid natively", async () => {
    const EURC = f.token("EURC")
    const amountIn = 2_000_000_000n
    const route = one(f.hop("uniswap-v3", "EURC", "USDC", 500))
    const gross6 = await f.quoteRoute(route, amountIn)
    const gross = gross6 * SCALE
    const feeBps = 55
    const { protocolAmount, partnerAmount, amountOut } = splitFees(gross, bps, feeBps)
    // the fee formulas on the wei amount are exact: no rounding at all
    expect(protocolAmount).toBe(gross6 * BigInt(bps) * 10n ** 8n)
    expect(partnerAmount).toBe(gross6 * 55n * 10n ** 8n)
    const recipient = freshAddress(61)
    const feeRecipient = freshAddress(62)
    await f.approve(user, EURC, amountIn)
    const collectorBefore = await f.native(f.feeCollector)
    const holdings = await executorHoldings()
    const params = await base({ tokenIn: EURC, tokenOut: NATIVE, amountIn, route, recipient, feeBps, feeRecipient, minAmountOut: amountOut })
    expect(await f.simulate(user, params)).toBe(amountOut)
    await f.execute(user, params)
    expect(await f.native(recipient)).toBe(amountOut)
    expect(await f.native(feeRecipient)).toBe(partnerAmount)
    expect((await f.native(f.feeCollector)) - collectorBefore).toBe(protocolAmount)
    expect(await executorHoldings()).toEqual(holdings)
    // Slippage is judged in wei too
    await f.approve(user, EURC, amountIn)
    const slip = await f.executeError(user, { ...params, minAmountOut: amountOut + 1n })
    expect(slip.name).toBe("Slippage")
  })

  test("native output to a contract that cannot receive it reverts NativeTransferFailed (recipient and fee recipient)", async () => {
    const rejecter = await f.deploy("NativeRejectingCaller")
    const EURC = f.token("EURC")
    const amountIn = 10_000_000n
    await f.approve(user, EURC, amountIn)
    const route = one(f.hop("uniswap-v3", "EURC", "USDC", 500))
    const toRejecter = await f.executeError(user, await base({ tokenIn: EURC, tokenOut: NATIVE, amountIn, route, recipient: rejecter }))
    expect(toRejecter.reason).toBe("NativeTransferFailed")
    expect(toRejecter.args).toEqual([rejecter])
    const feeToRejecter = await f.executeError(user, await base({ tokenIn: EURC, tokenOut: NATIVE, amountIn, route, feeBps: 10, feeRecipient: rejecter }))
    expect(feeToRejecter.reason).toBe("NativeTransferFailed")
    // the ERC-20 form of the same output is fine
    expect(await f.simulate(user, await base({ tokenIn: EURC, tokenOut: USDC, amountIn, route, recipient: rejecter }))).toBeGreaterThan(0n)
  })

  test("a sender that cannot take its dust back reverts NativeTransferFailed; without dust it succeeds", async () => {
    const rejecter = await f.deploy("NativeRejectingCaller")
    await f.client.setBalance({ address: rejecter, value: 10n ** 24n })
    const route = one(f.hop("uniswap-v2", "USDC", "EURC"))
    const withDust = await base({ tokenIn: NATIVE, tokenOut: f.token("EURC"), amountIn: 10n ** 18n + 1n, route })
    const abi = ownArtifact("NativeRejectingCaller").abi
    const viaRejecter = (params: ExecuteParams) =>
      f.client.call({ account: user, to: rejecter, value: params.amountIn, data: encodeFunctionData({ abi, functionName: "forward", args: [f.executor, encodeExecute(params)] }) })
    const failure = await viaRejecter(withDust).then(
      () => undefined,
      (e) => decodeExecutorError(revertData(e)!),
    )
    expect(failure).toEqual({ name: "NativeTransferFailed", args: [rejecter], reason: "NativeTransferFailed" })
    await viaRejecter({ ...withDust, amountIn: 10n ** 18n })
  })
})

describe("external routers", () => {
  test("an allowlisted router gets an exact approval, reset to zero; its output is measured as a balance change", async () => {
    const router = await f.deploy("MockAggregatorRouter")
    const EURC = f.token("EURC")
    const routerAbi = ownArtifact("MockAggregatorRouter").abi
    // the router's inventory of USDC
    await f.send(f.owner, USDC, encodeFunctionData({ abi: ownArtifact("TestToken").abi, functionName: "transfer", args: [router, 50_000_000_000n] }))
    const allow = await f.ownerWrite("setRouterAllowed", [router, true])
    expect(allow.status).toBe("success")

    const amountIn = 1_000_000_000n
    const share = 6_000n
    const viaRouter = (amountIn * share) / 10_000n
    const routerOut = 700_000_000n // the router's own price, whatever it is
    const swapData = encodeFunctionData({ abi: routerAbi, functionName: "swap", args: [EURC, USDC, viaRouter, routerOut, f.executor] })
    const external: RouteHop = { kind: "external", tokenIn: EURC, tokenOut: USDC, router, data: swapData }
    const v3 = f.hop("uniswap-v3", "EURC", "USDC", 500)
    const route: Route = [{ shareBps: 6_000, hops: [external] }, { shareBps: 4_000, hops: [v3] }]
    const gross = routerOut + (await f.quoteHop(v3, amountIn - viaRouter))
    const { amountOut, protocolAmount } = splitFees(gross, bps, 0)
    const recipient = freshAddress(71)
    await f.approve(user, EURC, amountIn)
    const collectorBefore = await f.balance(USDC, f.feeCollector)
    const holdings = await executorHoldings()
    await f.execute(user, await base({ tokenIn: EURC, tokenOut: USDC, amountIn, route, recipient, minAmountOut: amountOut }))
    expect(await f.balance(USDC, recipient)).toBe(amountOut)
    expect((await f.balance(USDC, f.feeCollector)) - collectorBefore).toBe(protocolAmount)
    expect(await f.balance(EURC, router)).toBe(viaRouter)
    expect(await f.allowance(EURC, f.executor, router)).toBe(0n)
    expect(await executorHoldings()).toEqual(holdings)

    // a router that takes less than it was given leaves input behind: refused
    const stingy = { ...external, data: encodeFunctionData({ abi: routerAbi, functionName: "swap", args: [EURC, USDC, viaRouter - 1n, routerOut, f.executor] }) }
    await f.approve(user, EURC, amountIn)
    const partial = await f.executeError(user, await base({ tokenIn: EURC, tokenOut: USDC, amountIn, route: [{ shareBps: 6_000, hops: [stingy] }, { shareBps: 4_000, hops: [v3] }] }))
    expect(partial).toMatchObject({ name: "InvalidRoute", fault: "PartialFill" })
    // a router that wants more than the exact approval fails inside the token
    const greedy = { ...external, data: encodeFunctionData({ abi: routerAbi, functionName: "greedy", args: [EURC, viaRouter] }) }
    const greedyError = await f.client
      .call({ account: user, to: f.executor, data: encodeExecute(await base({ tokenIn: EURC, tokenOut: USDC, amountIn, route: [{ shareBps: 6_000, hops: [greedy] }, { shareBps: 4_000, hops: [v3] }] })) })
      .then(
        () => "succeeded",
        (e) => decodeErrorResult({ abi: erc20Abi, data: revertData(e)! }),
      )
    expect(greedyError).toMatchObject({ errorName: "ERC20InsufficientAllowance", args: [router, viaRouter, viaRouter + 1n] })

    // off the allowlist: refused before any call
    await f.ownerWrite("setRouterAllowed", [router, false])
    const refused = await f.executeError(user, await base({ tokenIn: EURC, tokenOut: USDC, amountIn, route }))
    expect(refused).toMatchObject({ name: "InvalidRoute", fault: "RouterNotAllowed" })
  })
})
