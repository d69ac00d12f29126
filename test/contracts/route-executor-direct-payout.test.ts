// RouteExecutor's cheaper paths: with nothing to take from an ERC-20 output (no protocol fee, no
// partner fee) each split's last hop pays the recipient itself, and what it received is its
// balance change over the route; with a fee the output still comes to the executor first. The
// venues its constructor registers are kept in its code until setVenue changes them.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { decodeEventLog, encodeDeployData, encodeFunctionData, getAddress, zeroHash, type Address, type Hex, type TransactionReceipt } from "viem"
import { decodeExecutorError, routeExecutorAbi, type ExecuteParams } from "../../src/chain/execute-call.ts"
import type { Route } from "../../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { routeExecutorConstructorArgs, setVenueArgs, v3InitCodeHash } from "../../src/devnet/executor.ts"
import { freshAddress, revertData, setupFixture, splitFees, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
const user = users[0]!
const Q96 = 1n << 96n
const erc20 = ownArtifact("TestToken").abi
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
/** InvalidConfig's ConfigFault.Venue */
const VENUE_FAULT = 7

const one = (...hops: Route[number]["hops"]): Route => [{ shareBps: 10_000, hops }]
const base = async (p: Partial<ExecuteParams>): Promise<ExecuteParams> => ({
  tokenIn: f.token("USDT"),
  tokenOut: USDC,
  amountIn: 1_000_000_000n,
  minAmountOut: 0n,
  recipient: freshAddress(Math.floor(Math.random() * 1e9)),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: await f.protocolFeeBps(),
  route: one(f.hop("uniswap-v3", "USDT", "USDC", 100)),
  ...p,
})
/** The Transfer logs of `token` in a receipt, as (from, to). */
const transfers = (r: TransactionReceipt, token: Address) =>
  r.logs
    .filter((l) => l.address.toLowerCase() === token.toLowerCase() && l.topics[0] === TRANSFER_TOPIC)
    .map((l) => ({ from: getAddress(`0x${l.topics[1]!.slice(26)}`), to: getAddress(`0x${l.topics[2]!.slice(26)}`) }))
const swapEvent = (r: TransactionReceipt) => {
  for (const l of r.logs) {
    if (l.address.toLowerCase() !== f.executor.toLowerCase()) continue
    const e = decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics }) as unknown as { eventName: string; args: Record<string, unknown> }
    if (e.eventName === "Swap") return e.args
  }
  throw new Error("no Swap event")
}
const holdings = async () => Promise.all(["USDT", "USDC", "WETH", "EURC"].map((s) => f.balance(f.token(s), f.executor)))

beforeAll(async () => {
  f = await setupFixture()
  for (const s of ["USDT", "EURC", "WETH"]) await f.approve(user, f.token(s), 10n ** 40n)
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

describe("direct payment (no fee to take)", () => {
  beforeAll(async () => {
    expect((await f.ownerWrite("setProtocolFeeBps", [0])).status).toBe("success")
  })

  test("three splits (V2+V3 | V4+V2 | V3) each pay the recipient from their last pool: the quote to the wei, at least minAmountOut, no output through the executor, which keeps nothing", async () => {
    const route: Route = [
      { shareBps: 4_000, hops: [f.hop("uniswap-v2", "USDT", "WETH"), f.hop("uniswap-v3", "WETH", "USDC", 500)] },
      { shareBps: 3_500, hops: [f.hop("uniswap-v4", "USDT", "EURC"), f.hop("uniswap-v2", "EURC", "USDC")] },
      { shareBps: 2_500, hops: [f.hop("uniswap-v3", "USDT", "USDC", 100)] },
    ]
    const amountIn = 2_500_000_000n
    const expected = await f.quoteRoute(route, amountIn)
    const recipient = freshAddress(501)
    const before = await holdings()
    const params = await base({ amountIn, route, recipient, minAmountOut: expected })
    expect(await f.simulate(user, params)).toBe(expected)
    const receipt = await f.execute(user, params)
    expect(receipt.status).toBe("success")
    expect(await f.balance(USDC, recipient)).toBe(expected)
    const usdc = transfers(receipt, USDC)
    // one payment per split, each straight to the recipient; none from or to the executor
    expect(usdc.filter((t) => t.to === recipient)).toHaveLength(3)
    expect(usdc.filter((t) => t.from === f.executor || t.to === f.executor)).toHaveLength(0)
    const swap = swapEvent(receipt)
    expect([swap.amountOut, swap.protocolAmount, swap.partnerAmount, swap.recipient]).toEqual([expected, 0n, 0n, recipient])
    expect(await holdings()).toEqual(before)
  })

  test("V4 hops in one unlock take the output to the recipient", async () => {
    const WETH = f.token("WETH")
    const route = one(f.hop("uniswap-v4", "WETH", "cirBTC"), f.hop("uniswap-v4", "cirBTC", "USDC"))
    const amountIn = 10n ** 17n
    const expected = await f.quoteRoute(route, amountIn)
    const recipient = freshAddress(502)
    const receipt = await f.execute(user, await base({ tokenIn: WETH, amountIn, route, recipient, minAmountOut: expected }))
    expect(await f.balance(USDC, recipient)).toBe(expected)
    expect(transfers(receipt, USDC)).toEqual([{ from: f.dex.poolManager, to: recipient }])
  })

  test("a stable pool's output is measured at the executor and sent on, exactly", async () => {
    const stablePool = f.devnet.manifest.pools.find((p) => p.dex === "xylonet" && p.tokens.length === 2)!
    const stable = f.hopOf(stablePool, "USDT", "USDC")
    const route = one(stable)
    const amountIn = 300_000_000n
    const expected = await f.quoteRoute(route, amountIn)
    const recipient = freshAddress(503)
    const before = await holdings()
    const receipt = await f.execute(user, await base({ amountIn, route, recipient, minAmountOut: expected }))
    expect(await f.balance(USDC, recipient)).toBe(expected)
    expect(transfers(receipt, USDC).at(-1)).toEqual({ from: f.executor, to: recipient })
    expect(await holdings()).toEqual(before)
  })

  test("a minimum above what the recipient receives reverts Slippage(received, minimum)", async () => {
    const route = one(f.hop("uniswap-v3", "USDT", "USDC", 100))
    const expected = await f.quoteRoute(route, 1_000_000_000n)
    const e = await f.executeError(user, await base({ route, minAmountOut: expected + 1n }))
    expect(e.reason).toBe("Slippage")
    expect(e.args).toEqual([expected, expected + 1n])
  })

  test("with a partner fee the same route's output comes to the executor, which pays the fee and the rest", async () => {
    const route = one(f.hop("uniswap-v3", "USDT", "USDC", 100))
    const amountIn = 1_000_000_000n
    const gross = await f.quoteRoute(route, amountIn)
    const { partnerAmount, amountOut } = splitFees(gross, 0, 50)
    const recipient = freshAddress(504)
    const feeRecipient = freshAddress(505)
    const before = await holdings()
    const receipt = await f.execute(user, await base({ amountIn, route, recipient, feeBps: 50, feeRecipient, minAmountOut: amountOut }))
    expect(await f.balance(USDC, recipient)).toBe(amountOut)
    expect(await f.balance(USDC, feeRecipient)).toBe(partnerAmount)
    const usdc = transfers(receipt, USDC)
    expect(usdc.filter((t) => t.to === f.executor)).toHaveLength(1)
    expect(usdc.filter((t) => t.from === f.executor).map((t) => t.to)).toEqual([feeRecipient, recipient])
    expect(await holdings()).toEqual(before)
  })

  test("with the protocol fee the output comes to the executor, and the collector gets its share", async () => {
    expect((await f.ownerWrite("setProtocolFeeBps", [25])).status).toBe("success")
    try {
      const route = one(f.hop("uniswap-v3", "USDT", "USDC", 100))
      const gross = await f.quoteRoute(route, 1_000_000_000n)
      const { protocolAmount, amountOut } = splitFees(gross, 25, 0)
      const recipient = freshAddress(506)
      const collector = await f.balance(USDC, f.feeCollector)
      const receipt = await f.execute(user, await base({ route, recipient, protocolFeeBps: 25, minAmountOut: amountOut }))
      expect(await f.balance(USDC, recipient)).toBe(amountOut)
      expect((await f.balance(USDC, f.feeCollector)) - collector).toBe(protocolAmount)
      expect(transfers(receipt, USDC).filter((t) => t.to === f.executor)).toHaveLength(1)
    } finally {
      await f.ownerWrite("setProtocolFeeBps", [0])
    }
  })
})

describe("venues registered by the constructor", () => {
  test("a fresh executor registers them (venue(), VenueSet) and refuses a repeated id", async () => {
    const orderEntry = await f.deploy("OrderEntry")
    const venues = [
      { id: 7, kind: "uniswap-v3" as const, factory: f.dex.v3Factory },
      { id: 9, kind: "uniswap-v2" as const, factory: f.dex.v2Factory, feeBps: 25 },
      { id: 70, kind: "uniswap-v4" as const, factory: f.dex.poolManager },
    ]
    const args = routeExecutorConstructorArgs({ owner: f.owner, feeCollector: f.feeCollector, protocolFeeBps: 0, orderEntry, venues })
    const artifact = ownArtifact("RouteExecutor")
    const hash = await f.client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: f.owner, chain: f.client.chain })
    const receipt = await f.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(receipt.status).toBe("success")
    const executor = getAddress(receipt.contractAddress!)
    const set = receipt.logs
      .filter((l) => l.address.toLowerCase() === executor.toLowerCase())
      .map((l) => decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics }) as unknown as { eventName: string; args: Record<string, unknown> })
      .filter((e) => e.eventName === "VenueSet")
      .map((e) => [e.args.id, e.args.kind, e.args.factory, e.args.initCodeHash, e.args.feeBps])
    expect(set).toEqual(venues.map((v) => [...setVenueArgs(v)]))
    for (const v of venues) {
      const [, kind, factory, initCodeHash, feeBps] = setVenueArgs(v)
      expect(await f.client.readContract({ address: executor, abi: routeExecutorAbi, functionName: "venue", args: [v.id] })).toEqual([kind, factory, initCodeHash, feeBps])
    }

    // a repeated id
    const twice = routeExecutorConstructorArgs({ owner: f.owner, feeCollector: f.feeCollector, protocolFeeBps: 0, orderEntry, venues: [venues[0]!, { ...venues[1]!, id: 7 }] })
    let data: Hex | undefined
    try {
      await f.client.call({ account: f.owner, data: encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args: twice }) })
    } catch (e) {
      data = revertData(e)
    }
    const error = decodeExecutorError(data!)
    expect(error?.reason).toBe("InvalidConfig")
    expect(error?.args).toEqual([VENUE_FAULT])
  })

  test("a constructor venue that setVenue changes is used with its new data at once, and removing it refuses its hops", async () => {
    const id = f.venueId("uniswap-v3")
    const devnetPool = getAddress(f.pool("uniswap-v3", "EURC", "USDC", 500).pool)
    // a second V3 factory with an EURC/USDC 0.05% pool of its own
    const v3 = uniswapArtifact("UniswapV3Factory")
    const deployHash = await f.client.deployContract({ abi: v3.abi, bytecode: v3.bytecode, args: [], account: f.owner, chain: f.client.chain })
    const factoryB = getAddress((await f.client.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 20 })).contractAddress!)
    const EURC = f.token("EURC")
    await f.send(f.owner, factoryB, encodeFunctionData({ abi: v3.abi, functionName: "createPool", args: [EURC, USDC, 500] }))
    const poolB = getAddress((await f.client.readContract({ address: factoryB, abi: v3.abi, functionName: "getPool", args: [EURC, USDC, 500] })) as Address)
    await f.send(f.owner, poolB, encodeFunctionData({ abi: uniswapArtifact("UniswapV3Pool").abi, functionName: "initialize", args: [Q96] }))
    const provider = await f.deploy("V3LiquidityProvider")
    await f.mint("EURC", provider, 10n ** 12n)
    await f.send(f.owner, USDC, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [provider, 10n ** 12n] }))
    await f.send(f.owner, provider, encodeFunctionData({ abi: ownArtifact("V3LiquidityProvider").abi, functionName: "mint", args: [poolB, -600, 600, 10n ** 13n] }))

    const route = one({ kind: "v3", venue: id, tokenIn: EURC, tokenOut: USDC, fee: 500 })
    const swap = async () => {
      const [a, b] = [await f.balance(EURC, devnetPool), await f.balance(EURC, poolB)]
      const receipt = await f.execute(user, await base({ tokenIn: EURC, amountIn: 1_000_000n, route }))
      expect(receipt.status).toBe("success")
      return [(await f.balance(EURC, devnetPool)) - a, (await f.balance(EURC, poolB)) - b]
    }
    expect(await swap()).toEqual([1_000_000n, 0n])
    try {
      expect((await f.ownerWrite("setVenue", [id, 2, factoryB, v3InitCodeHash(), 0])).status).toBe("success")
      expect(await swap()).toEqual([0n, 1_000_000n])
      expect((await f.ownerWrite("setVenue", [id, 0, "0x0000000000000000000000000000000000000000", zeroHash, 0])).status).toBe("success")
      const e = await f.executeError(user, await base({ tokenIn: EURC, amountIn: 1_000_000n, route }))
      expect([e.reason, e.args]).toEqual(["InvalidRoute", [3]])
    } finally {
      await f.ownerWrite("setVenue", [id, 2, f.dex.v3Factory, v3InitCodeHash(), 0])
    }
    // registered again (from storage now): the devnet's pool again
    expect(await swap()).toEqual([1_000_000n, 0n])
  })
})
