// Every custom error of RouteExecutor, triggered on the devnet, with its arguments.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { concatHex, decodeErrorResult, decodeEventLog, encodeDeployData, encodeFunctionData, getAddress, parseAbi, zeroAddress, type Address, type Hex } from "viem"
import { decodeExecutorError, encodeExecute, routeExecutorAbi, type ExecuteParams, type ExecutorError } from "../../src/chain/execute-call.ts"
import { encodeRoute, type Route, type RouteHop } from "../../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { testAccounts } from "../../src/devnet/accounts.ts"
import { routeExecutorConstructorArgs } from "../../src/devnet/executor.ts"
import { erc20Abi, freshAddress, NATIVE, revertData, SCALE, setupFixture, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let bps: number
const user = users[1]!
const stranger = getAddress(testAccounts[5]!.address)

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  for (const s of ["EURC", "USDC", "TAX", "REB", "USDT"]) await f.approve(user, f.token(s), 10n ** 40n)
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const one = (...hops: RouteHop[]): Route => [{ shareBps: 10_000, hops }]
const eurcToUsdc = (): Route => one(f.hop("uniswap-v3", "EURC", "USDC", 500))

const params = async (p: Partial<ExecuteParams> = {}): Promise<ExecuteParams> => ({
  tokenIn: f.token("EURC"),
  tokenOut: USDC,
  amountIn: 1_000_000n,
  minAmountOut: 0n,
  recipient: freshAddress(1),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: bps,
  route: eurcToUsdc(),
  ...p,
})

const error = (p: ExecuteParams, value?: bigint): Promise<ExecutorError> => f.executeError(user, p, value)

/** The revert of a transaction sent from `from` to the executor (eth_call). */
const adminError = async (from: Address, functionName: string, args: readonly unknown[]): Promise<ExecutorError> => {
  try {
    await f.client.call({ account: from, to: f.executor, data: encodeFunctionData({ abi: routeExecutorAbi, functionName, args }) })
  } catch (e) {
    return decodeExecutorError(revertData(e)!)!
  }
  throw new Error(`${functionName} did not revert`)
}

describe("checks before the route", () => {
  test("Expired: a deadline in the past; the deadline second itself still passes", async () => {
    const now = (await f.client.getBlock()).timestamp
    expect(await error(await params({ deadline: now - 1n }))).toEqual({ name: "Expired", args: [now - 1n], reason: "Expired" })
  })

  test("Paused, while paused only", async () => {
    expect((await f.ownerWrite("pause", [])).status).toBe("success")
    expect(await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "paused" })).toBe(true)
    expect(await error(await params())).toEqual({ name: "Paused", args: [], reason: "Paused" })
    await f.ownerWrite("unpause", [])
    expect(await f.simulate(user, await params())).toBeGreaterThan(0n)
  })

  test("StaleFeeConfig: the quote's protocol fee rate is not the live one", async () => {
    expect(await error(await params({ protocolFeeBps: bps + 1 }))).toEqual({ name: "StaleFeeConfig", args: [bps + 1, bps], reason: "StaleFeeConfig" })
    // after the owner changes the rate, quotes at the old one are stale
    await f.ownerWrite("setProtocolFeeBps", [40])
    expect(await error(await params())).toMatchObject({ name: "StaleFeeConfig", args: [bps, 40] })
    expect(await f.simulate(user, await params({ protocolFeeBps: 40 }))).toBeGreaterThan(0n)
    await f.ownerWrite("setProtocolFeeBps", [bps])
  })

  test("InvalidConfig: partner fee above 100, bad recipient, bad fee recipient", async () => {
    expect(await error(await params({ feeBps: 101, feeRecipient: freshAddress(2) }))).toEqual({ name: "InvalidConfig", args: [0], reason: "InvalidConfig", fault: "PartnerFee" })
    expect(await f.simulate(user, await params({ feeBps: 100, feeRecipient: freshAddress(2) }))).toBeGreaterThan(0n)
    expect(await error(await params({ recipient: zeroAddress }))).toMatchObject({ name: "InvalidConfig", fault: "Recipient" })
    expect(await error(await params({ recipient: f.executor }))).toMatchObject({ name: "InvalidConfig", fault: "Recipient" })
    expect(await error(await params({ feeBps: 1, feeRecipient: zeroAddress }))).toMatchObject({ name: "InvalidConfig", fault: "FeeRecipient" })
    expect(await error(await params({ feeBps: 1, feeRecipient: f.executor }))).toMatchObject({ name: "InvalidConfig", fault: "FeeRecipient" })
    // without a partner fee the fee recipient is ignored
    expect(await f.simulate(user, await params({ feeBps: 0, feeRecipient: zeroAddress }))).toBeGreaterThan(0n)
  })

  test("InvalidValue: value with ERC-20 input, value not matching native input, nothing to swap", async () => {
    const native = await params({ tokenIn: NATIVE, tokenOut: f.token("EURC"), amountIn: 10n ** 18n, route: one(f.hop("uniswap-v3", "USDC", "EURC", 500)) })
    expect(await error(native, 10n ** 18n - 1n)).toEqual({ name: "InvalidValue", args: [10n ** 18n, 10n ** 18n - 1n], reason: "InvalidValue" })
    expect(await error(native, 0n)).toMatchObject({ name: "InvalidValue", args: [10n ** 18n, 0n] })
    expect(await error(await params(), 1n)).toEqual({ name: "InvalidValue", args: [1_000_000n, 1n], reason: "InvalidValue" })
    expect(await error(await params({ amountIn: 0n }))).toMatchObject({ name: "InvalidValue" })
    // native input below one ERC-20 unit
    expect(await error({ ...native, amountIn: SCALE - 1n }, SCALE - 1n)).toMatchObject({ name: "InvalidValue", args: [SCALE - 1n, SCALE - 1n] })
  })
})

describe("InvalidRoute", () => {
  const raw = async (route: Hex) => error(await params({ route }))
  const fault = async (route: Hex) => (await raw(route)).fault

  test("Malformed: empty, truncated, trailing bytes, unknown kind, no splits, no hops", async () => {
    const good = encodeRoute(eurcToUsdc())
    expect(await f.simulate(user, await params({ route: good }))).toBeGreaterThan(0n)
    expect(await fault("0x")).toBe("Malformed")
    expect(await fault(good.slice(0, -2) as Hex)).toBe("Malformed")
    expect(await fault(concatHex([good, "0x00"]))).toBe("Malformed")
    expect(await fault("0x00")).toBe("Malformed") // zero splits
    expect(await fault("0x01271000")).toBe("Malformed") // a split with no hops
    // kind 9 does not exist
    expect(await fault(`0x01271001${"09"}${USDC.slice(2)}`)).toBe("Malformed")
    // an external hop whose data length runs past the end
    expect(await fault(`0x01271001${"04"}${USDC.slice(2)}${freshAddress(3).slice(2)}000010`)).toBe("Malformed")
  })

  test("Shares: a zero share, shares under or over 10000", async () => {
    const hop = f.hop("uniswap-v3", "EURC", "USDC", 500)
    const v2 = f.hop("uniswap-v2", "EURC", "USDC")
    expect((await raw(`0x010000${encodeRoute(one(hop)).slice(8)}`)).fault).toBe("Shares")
    const twoSplits = (a: number, b: number) =>
      `0x02${a.toString(16).padStart(4, "0")}01${encodeRoute(one(hop)).slice(10)}${b.toString(16).padStart(4, "0")}01${encodeRoute(one(v2)).slice(10)}` as Hex
    expect(await fault(twoSplits(5_000, 4_999))).toBe("Shares")
    expect(await fault(twoSplits(5_000, 5_001))).toBe("Shares")
    expect(await f.simulate(user, await params({ route: twoSplits(5_000, 5_000) }))).toBeGreaterThan(0n)
  })

  test("TokenChain: a split not ending in tokenOut, a hop to its own input, tokenIn == tokenOut", async () => {
    // ends in USDT, not USDC
    // (encodeExecute refuses such a Route, so the bytes go in already encoded)
    expect(await fault(encodeRoute(one(f.hop("uniswap-v3", "EURC", "USDC", 500), f.hop("uniswap-v2", "USDC", "USDT"))))).toBe("TokenChain")
    // EURC -> EURC
    expect(await fault(`0x01271001${"02"}${f.token("EURC").slice(2)}0001f4`)).toBe("TokenChain")
    // native USDC in, ERC-20 USDC out: the same token
    const usdcToUsdc = encodeRoute(one(f.hop("uniswap-v2", "USDC", "EURC"), f.hop("uniswap-v3", "EURC", "USDC", 500)))
    expect((await error(await params({ tokenIn: NATIVE, amountIn: 10n ** 18n, route: usdcToUsdc }), 10n ** 18n)).fault).toBe("TokenChain")
    // a zero token
    expect(await fault(`0x01271001${"01"}${zeroAddress.slice(2)}`)).toBe("TokenChain")
  })

  test("UnknownPool: no V2 pair, no V3 pool at that fee, an uninitialized V4 pool", async () => {
    const [v2, v3, v4] = [f.venueId("uniswap-v2"), f.venueId("uniswap-v3"), f.venueId("uniswap-v4")]
    expect((await error(await params({ tokenOut: f.token("WBTC"), route: one({ kind: "v2", venue: v2, tokenIn: f.token("EURC"), tokenOut: f.token("WBTC") }) }))).fault).toBe("UnknownPool")
    expect((await error(await params({ route: one({ kind: "v3", venue: v3, tokenIn: f.token("EURC"), tokenOut: USDC, fee: 10_000 }) }))).fault).toBe("UnknownPool")
    expect((await error(await params({ route: one({ kind: "v4", venue: v4, tokenIn: f.token("EURC"), tokenOut: USDC, fee: 3000, tickSpacing: 60, hooks: zeroAddress }) }))).fault).toBe("UnknownPool")
  })

  test("RouterNotAllowed: an external router off the allowlist, or a token as router", async () => {
    const router = await f.deploy("MockAggregatorRouter")
    const external: RouteHop = { kind: "external", tokenIn: f.token("EURC"), tokenOut: USDC, router, data: "0x" }
    expect((await error(await params({ route: one(external) }))).fault).toBe("RouterNotAllowed")
    // even an allowlisted address is never called as a hop's token
    await f.ownerWrite("setRouterAllowed", [f.token("EURC"), true])
    expect((await error(await params({ route: one({ ...external, router: f.token("EURC") }) }))).fault).toBe("RouterNotAllowed")
    await f.ownerWrite("setRouterAllowed", [f.token("EURC"), false])
  })

  test("PartialFill: a V3 pool that runs out of liquidity before taking the whole input", async () => {
    // far more EURC than the USDC/EURC 0.05% pool's ranges can absorb
    const huge = 10n ** 20n
    await f.mint("EURC", user, huge)
    expect((await error(await params({ amountIn: huge }))).fault).toBe("PartialFill")
    // the V4 pool's single range: likewise
    const v4 = one(f.hop("uniswap-v4", "EURC", "USDC"))
    expect((await error(await params({ amountIn: huge, route: v4 }))).fault).toBe("PartialFill")
  })

  test("ZeroAmount: a hop that would move nothing", async () => {
    // 1 wei of WETH into the WETH/USDT pair gives 0 USDT
    await f.approve(user, f.token("WETH"), 1n)
    const p = await params({ tokenIn: f.token("WETH"), tokenOut: f.token("USDT"), amountIn: 1n, route: one(f.hop("uniswap-v2", "WETH", "USDT")) })
    expect((await error(p)).fault).toBe("ZeroAmount")
  })
})

describe("UnsupportedToken: input that arrives short", () => {
  test("a fee-on-transfer token into a V2 pair", async () => {
    const TAX = f.token("TAX")
    const p = await params({ tokenIn: TAX, amountIn: 10n ** 18n, route: one(f.hop("uniswap-v2", "TAX", "USDC")) })
    expect(await error(p)).toEqual({ name: "UnsupportedToken", args: [TAX], reason: "UnsupportedToken" })
  })

  test("a rebasing token that delivers a unit short", async () => {
    await f.client.increaseTime({ seconds: 86_400 * 30 })
    await f.client.mine({ blocks: 1 })
    const REB = f.token("REB")
    // a transfer of v moves floor(v·1e18 / index) shares; the receiver's balance then grows by v, or by
    // v - 1 when the remainder v·1e18 mod index is at least 1e18, whatever it held before (the index is
    // above 1e18 once time has passed): an amount with such a remainder always arrives a unit short
    const index = (await f.client.readContract({ address: REB, abi: parseAbi(["function index() view returns (uint256)"]), functionName: "index" })) as bigint
    expect(index).toBeGreaterThan(10n ** 18n)
    let short = 10n ** 18n
    while ((short * 10n ** 18n) % index < 10n ** 18n) short++
    const shortBy = await error(await params({ tokenIn: REB, amountIn: short, route: one(f.hop("uniswap-v2", "REB", "USDC")) }))
    expect(shortBy).toEqual({ name: "UnsupportedToken", args: [REB], reason: "UnsupportedToken" })
    // other amounts arrive whole or a unit short, never anything else
    for (let k = 1n; k < 8n; k++) {
      const p = await params({ tokenIn: REB, amountIn: 10n ** 18n + k * 7_919n, route: one(f.hop("uniswap-v2", "REB", "USDC")) })
      expect(["UnsupportedToken", "success"]).toContain(await error(p).then((e) => e.name, () => "success"))
    }
  })

  test("a fee-on-transfer token into a V3 pool (the pool's own balance check) and into V4 (settle)", async () => {
    const TAX = f.token("TAX")
    const m = f.devnet.manifest
    const taxIsToken0 = TAX.toLowerCase() < USDC.toLowerCase()
    // a pool at raw price 1 whose only liquidity is USDC, on the side a TAX sale moves into
    const [lower, upper] = taxIsToken0 ? [-1200, -60] : [60, 1200]
    const Q96 = 1n << 96n
    const usdcAbi = ownArtifact("TestToken").abi

    const v3Factory = uniswapArtifact("UniswapV3Factory")
    await f.send(f.owner, f.dex.v3Factory, encodeFunctionData({ abi: v3Factory.abi, functionName: "createPool", args: [TAX, USDC, 3000] }))
    const pool = (await f.client.readContract({ address: f.dex.v3Factory, abi: v3Factory.abi, functionName: "getPool", args: [TAX, USDC, 3000] })) as Address
    await f.send(f.owner, pool, encodeFunctionData({ abi: uniswapArtifact("UniswapV3Pool").abi, functionName: "initialize", args: [Q96] }))
    const v3Provider = await f.deploy("V3LiquidityProvider")
    await f.send(f.owner, USDC, encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [v3Provider, 10n ** 12n] }))
    const minted = await f.send(f.owner, v3Provider, encodeFunctionData({ abi: ownArtifact("V3LiquidityProvider").abi, functionName: "mint", args: [pool, lower, upper, 10n ** 12n] }))
    expect(minted.status).toBe("success")
    const v3 = await params({ tokenIn: TAX, amountIn: 10n ** 9n, route: one({ kind: "v3", venue: f.venueId("uniswap-v3"), tokenIn: TAX, tokenOut: USDC, fee: 3000 }) })
    expect(await error(v3)).toEqual({ name: "UnsupportedToken", args: [TAX], reason: "UnsupportedToken" })

    const poolManager = f.dex.poolManager
    const key = { currency0: taxIsToken0 ? TAX : USDC, currency1: taxIsToken0 ? USDC : TAX, fee: 3000, tickSpacing: 60, hooks: zeroAddress }
    await f.send(f.owner, poolManager, encodeFunctionData({ abi: uniswapArtifact("PoolManager").abi, functionName: "initialize", args: [key, Q96] }))
    const v4Provider = await f.deploy("V4LiquidityProvider", [poolManager])
    await f.send(f.owner, USDC, encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [v4Provider, 10n ** 12n] }))
    const added = await f.send(f.owner, v4Provider, encodeFunctionData({ abi: ownArtifact("V4LiquidityProvider").abi, functionName: "addLiquidity", args: [key, lower, upper, 10n ** 12n, `0x${"0".repeat(64)}`] }))
    expect(added.status).toBe("success")
    const v4 = await params({ tokenIn: TAX, amountIn: 10n ** 9n, route: one({ kind: "v4", venue: f.venueId("uniswap-v4"), tokenIn: TAX, tokenOut: USDC, fee: 3000, tickSpacing: 60, hooks: zeroAddress }) })
    expect(await error(v4)).toEqual({ name: "UnsupportedToken", args: [TAX], reason: "UnsupportedToken" })
  })
})

describe("owner", () => {
  test("the constructor refuses a zero owner, a zero fee collector, a fee above the cap and an order entry without code (InvalidConfig)", async () => {
    const m = f.devnet.manifest
    const entry = await f.deploy("OrderEntry")
    // the deployment as an eth_call: its revert data, or the runtime code it would leave
    const artifact = ownArtifact("RouteExecutor")
    const deploy = (owner: Address, feeCollector: Address, protocolFeeBps: number, orderEntry: Address = entry) =>
      f.client
        .call({
          account: f.owner,
          data: encodeDeployData({
            abi: artifact.abi,
            bytecode: artifact.bytecode,
            args: routeExecutorConstructorArgs({ owner, feeCollector, protocolFeeBps, orderEntry }),
          }),
        })
        .then(
          ({ data }) => (data !== undefined && data.length > 2 ? "deployed" : "no code"),
          (e) => decodeExecutorError(revertData(e) ?? "0x"),
        )
    expect(await deploy(zeroAddress, f.feeCollector, 25)).toMatchObject({ name: "InvalidConfig", fault: "Owner" })
    expect(await deploy(f.owner, zeroAddress, 25)).toMatchObject({ name: "InvalidConfig", fault: "FeeCollector" })
    expect(await deploy(f.owner, f.feeCollector, 101)).toMatchObject({ name: "InvalidConfig", fault: "ProtocolFee" })
    expect(await deploy(f.owner, f.feeCollector, 25, stranger)).toMatchObject({ name: "InvalidConfig", fault: "OrderEntry" })
    expect(await deploy(f.owner, f.feeCollector, 100)).toBe("deployed")
  })

  test("every admin function refuses anyone but the owner (Unauthorized)", async () => {
    for (const [fn, args] of [
      ["pause", []],
      ["unpause", []],
      ["setProtocolFeeBps", [10]],
      ["setFeeCollector", [stranger]],
      ["setRouterAllowed", [stranger, true]],
      ["setVenue", [9, 1, stranger, `0x${"11".repeat(32)}`, 30]],
      ["setStablePool", [stranger, true]],
      ["transferOwnership", [stranger]],
    ] as const) {
      expect(await adminError(stranger, fn, args)).toEqual({ name: "Unauthorized", args: [stranger] })
    }
    expect(await adminError(stranger, "acceptOwnership", [])).toEqual({ name: "Unauthorized", args: [stranger] })
  })

  test("InvalidConfig on admin settings: fee above the cap, a zero or self fee collector, a zero router", async () => {
    expect(await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "MAX_PROTOCOL_FEE_BPS" })).toBe(100)
    expect(await adminError(f.owner, "setProtocolFeeBps", [101])).toMatchObject({ name: "InvalidConfig", fault: "ProtocolFee" })
    expect(await adminError(f.owner, "setFeeCollector", [zeroAddress])).toMatchObject({ name: "InvalidConfig", fault: "FeeCollector" })
    expect(await adminError(f.owner, "setFeeCollector", [f.executor])).toMatchObject({ name: "InvalidConfig", fault: "FeeCollector" })
    expect(await adminError(f.owner, "setRouterAllowed", [zeroAddress, true])).toMatchObject({ name: "InvalidConfig", fault: "Router" })
    expect(await adminError(f.owner, "setRouterAllowed", [USDC, true])).toMatchObject({ name: "InvalidConfig", fault: "Router" })
  })

  test("admin changes emit events and take effect; ownership moves in two steps", async () => {
    const events = async (r: { logs: readonly { address: Address; data: Hex; topics: readonly Hex[] }[] }) =>
      r.logs.map((l) => decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics as [Hex, ...Hex[]] }))
    expect(await events(await f.ownerWrite("pause", []))).toMatchObject([{ eventName: "PauseChanged", args: { paused: true } }])
    expect(await events(await f.ownerWrite("unpause", []))).toMatchObject([{ eventName: "PauseChanged", args: { paused: false } }])
    expect(await events(await f.ownerWrite("setProtocolFeeBps", [30]))).toMatchObject([{ eventName: "ProtocolFeeChanged", args: { previousBps: bps, newBps: 30 } }])
    expect(await f.protocolFeeBps()).toBe(30)
    await f.ownerWrite("setProtocolFeeBps", [bps])

    const collector = freshAddress(99)
    expect(await events(await f.ownerWrite("setFeeCollector", [collector]))).toMatchObject([{ eventName: "FeeCollectorChanged", args: { previousCollector: f.feeCollector, newCollector: collector } }])
    // the protocol fee now goes to the new collector
    const amountIn = 50_000_000n
    const route = eurcToUsdc()
    const gross = await f.quoteRoute(route, amountIn)
    await f.execute(user, await params({ amountIn, route }))
    expect(await f.balance(USDC, collector)).toBe((gross * BigInt(bps)) / 10_000n)
    await f.ownerWrite("setFeeCollector", [f.feeCollector])

    const router = freshAddress(98)
    expect(await events(await f.ownerWrite("setRouterAllowed", [router, true]))).toMatchObject([{ eventName: "RouterAllowlistChanged", args: { router, allowed: true } }])
    expect(await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "isRouterAllowed", args: [router] })).toBe(true)

    // two-step ownership: the old owner keeps control until the new one accepts
    const newOwner = stranger
    expect(await events(await f.ownerWrite("transferOwnership", [newOwner]))).toMatchObject([{ eventName: "OwnershipTransferStarted", args: { owner: f.owner, pendingOwner: newOwner } }])
    expect(await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "owner" })).toBe(f.owner)
    expect(await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "pendingOwner" })).toBe(newOwner)
    const accepted = await f.send(newOwner, f.executor, encodeFunctionData({ abi: routeExecutorAbi, functionName: "acceptOwnership" }))
    expect(await events(accepted)).toMatchObject([{ eventName: "OwnershipTransferred", args: { previousOwner: f.owner, newOwner } }])
    expect(await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "owner" })).toBe(newOwner)
    expect(await adminError(f.owner, "pause", [])).toEqual({ name: "Unauthorized", args: [f.owner] })
    // and back
    await f.send(newOwner, f.executor, encodeFunctionData({ abi: routeExecutorAbi, functionName: "transferOwnership", args: [f.owner] }))
    await f.send(f.owner, f.executor, encodeFunctionData({ abi: routeExecutorAbi, functionName: "acceptOwnership" }))
    expect(await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "owner" })).toBe(f.owner)
  })
})

describe("other token failures", () => {
  test("a token's own revert reason comes through unchanged (allowance the sender lacks)", async () => {
    const poor = users[2]!
    await f.approve(poor, f.token("EURC"), 0n)
    const data = encodeExecute(await params())
    const failure = await f.client.call({ account: poor, to: f.executor, data }).then(
      () => undefined,
      (e) => decodeErrorResult({ abi: erc20Abi, data: revertData(e)! }),
    )
    expect(failure).toMatchObject({ errorName: "ERC20InsufficientAllowance", args: [f.executor, 0n, 1_000_000n] })
  })

  test("BalanceUnreadable: an output 'token' without code", async () => {
    const notAToken = freshAddress(77)
    expect(await error(await params({ tokenOut: notAToken, route: one({ kind: "v2", venue: f.venueId("uniswap-v2"), tokenIn: f.token("EURC"), tokenOut: notAToken }) }))).toEqual({ name: "BalanceUnreadable", args: [notAToken] })
  })
})
