// RouteExecutor's venues: the executor knows AMM deployments only through its owner (setVenue).
// Second Uniswap V2 / V3 factories and a second V4 PoolManager from the npm artifacts, routes
// split across venues paid to the wei, a V2 venue registered with the wrong fee, and an
// attacker's routes and callbacks naming what the owner never registered.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { decodeErrorResult, decodeEventLog, encodeAbiParameters, encodeFunctionData, getAddress, zeroAddress, zeroHash, type Abi, type Address, type Hex, type TransactionReceipt } from "viem"
import { decodeExecutorError, encodeExecute, routeExecutorAbi, type ExecuteParams, type ExecutorError } from "../../src/chain/execute-call.ts"
import { encodeRoute, type Route, type RouteHop } from "../../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact, type UniswapContract } from "../../src/contracts/artifacts.ts"
import { setVenueArgs, v2InitCodeHash, v3InitCodeHash } from "../../src/devnet/executor.ts"
import { freshAddress, revertData, setupFixture, splitFees, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let bps: number
const user = users[0]!
const Q96 = 1n << 96n
/** InvalidConfig's ConfigFault.Venue */
const VENUE_FAULT = 7

// venue ids this file registers: above any id the scenario gives its own venues
const V2B = 201 // the second V2 factory, 30 bps
const V3B = 202 // the second V3 factory
const V4B = 203 // the second PoolManager
const SCRATCH = 210 // registered, replaced and removed by the tests
const UNREGISTERED = 250

let v2FactoryB: Address
let v3FactoryB: Address
let v3FactoryC: Address // never registered
let poolManagerB: Address
let poolManagerC: Address // never registered
let v3PoolC: Address

const erc20 = ownArtifact("TestToken").abi

const deployUniswap = async (name: UniswapContract, args: readonly unknown[] = []): Promise<Address> => {
  const artifact = uniswapArtifact(name)
  const hash = await f.client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: f.owner, chain: f.client.chain })
  const r = await f.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  if (r.status !== "success" || !r.contractAddress) throw new Error(`deploying ${name} failed`)
  return getAddress(r.contractAddress)
}
const write = async (to: Address, abi: Abi, functionName: string, args: readonly unknown[], from: Address = f.owner): Promise<TransactionReceipt> => {
  const r = await f.send(from, to, encodeFunctionData({ abi, functionName, args }))
  expect(r.status).toBe("success")
  return r
}
/** `amount` of a token to `to`: USDC from the owner's balance, the others minted. */
const fund = async (symbol: string, to: Address, amount: bigint) => {
  if (symbol === "USDC") await write(USDC, erc20, "transfer", [to, amount])
  else await f.mint(symbol, to, amount)
}
const setVenue = (id: number, kind: number, factory: Address, initCodeHash: Hex, feeBps: number) =>
  f.ownerWrite("setVenue", [id, kind, factory, initCodeHash, feeBps])
const readVenue = (id: number) => f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "venue", args: [id] })

/** A V3 pool of `factory` at raw price 1, with liquidity in [-600, 600). */
const createV3Pool = async (factory: Address, a: string, b: string, fee: number): Promise<Address> => {
  const abi = uniswapArtifact("UniswapV3Factory").abi
  await write(factory, abi, "createPool", [f.token(a), f.token(b), fee])
  const pool = (await f.client.readContract({ address: factory, abi, functionName: "getPool", args: [f.token(a), f.token(b), fee] })) as Address
  await write(pool, uniswapArtifact("UniswapV3Pool").abi, "initialize", [Q96])
  const provider = await f.deploy("V3LiquidityProvider")
  await fund(a, provider, 10n ** 12n)
  await fund(b, provider, 10n ** 12n)
  await write(provider, ownArtifact("V3LiquidityProvider").abi, "mint", [pool, -600, 600, 10n ** 13n])
  return getAddress(pool)
}

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  for (const s of ["USDC", "EURC", "USDT", "WETH"]) await f.approve(user, f.token(s), 10n ** 40n)

  // a second Uniswap V2 deployment: EURC/USDC at its own reserves
  v2FactoryB = await deployUniswap("UniswapV2Factory", [f.owner])
  const v2Abi = uniswapArtifact("UniswapV2Factory").abi
  await write(v2FactoryB, v2Abi, "createPair", [f.token("EURC"), USDC])
  const pairB = (await f.client.readContract({ address: v2FactoryB, abi: v2Abi, functionName: "getPair", args: [f.token("EURC"), USDC] })) as Address
  await fund("EURC", pairB, 500_000_000_000n)
  await fund("USDC", pairB, 600_000_000_000n)
  await write(pairB, uniswapArtifact("UniswapV2Pair").abi, "mint", [f.owner])

  // a second Uniswap V3 deployment with an EURC/USDC 0.05% pool, and a third one the owner never registers
  v3FactoryB = await deployUniswap("UniswapV3Factory")
  await createV3Pool(v3FactoryB, "EURC", "USDC", 500)
  v3FactoryC = await deployUniswap("UniswapV3Factory")
  v3PoolC = await createV3Pool(v3FactoryC, "EURC", "USDC", 500)

  // a second PoolManager with an EURC/USDT pool, and a third one never registered
  poolManagerB = await deployUniswap("PoolManager", [f.owner])
  const [c0, c1] = [f.token("EURC"), f.token("USDT")].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1))
  const key = { currency0: c0!, currency1: c1!, fee: 500, tickSpacing: 10, hooks: zeroAddress }
  await write(poolManagerB, uniswapArtifact("PoolManager").abi, "initialize", [key, Q96])
  const v4Provider = await f.deploy("V4LiquidityProvider", [poolManagerB])
  await fund("EURC", v4Provider, 10n ** 12n)
  await fund("USDT", v4Provider, 10n ** 12n)
  await write(v4Provider, ownArtifact("V4LiquidityProvider").abi, "addLiquidity", [key, -600, 600, 10n ** 13n, zeroHash])
  poolManagerC = await deployUniswap("PoolManager", [f.owner])

  for (const args of [
    setVenueArgs({ id: V2B, kind: "uniswap-v2", factory: v2FactoryB }),
    setVenueArgs({ id: V3B, kind: "uniswap-v3", factory: v3FactoryB }),
    setVenueArgs({ id: V4B, kind: "uniswap-v4", factory: poolManagerB }),
  ]) {
    expect((await f.ownerWrite("setVenue", args)).status).toBe("success")
  }
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const one = (...hops: RouteHop[]): Route => [{ shareBps: 10_000, hops }]
const EURC = () => f.token("EURC")

const params = async (p: Partial<ExecuteParams> = {}): Promise<ExecuteParams> => ({
  tokenIn: EURC(),
  tokenOut: USDC,
  amountIn: 1_000_000_000n,
  minAmountOut: 0n,
  recipient: freshAddress(Math.floor(Math.random() * 1e9)),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: bps,
  route: one({ kind: "v3", venue: f.venueId("uniswap-v3"), tokenIn: EURC(), tokenOut: USDC, fee: 500 }),
  ...p,
})
const routeError = async (route: Route | Hex, p: Partial<ExecuteParams> = {}): Promise<ExecutorError> => f.executeError(user, await params({ route, ...p }))
const adminError = async (functionName: string, args: readonly unknown[]): Promise<ExecutorError> => {
  try {
    await f.client.call({ account: f.owner, to: f.executor, data: encodeFunctionData({ abi: routeExecutorAbi, functionName, args }) })
  } catch (e) {
    return decodeExecutorError(revertData(e)!)!
  }
  throw new Error(`${functionName} did not revert`)
}
const events = (r: TransactionReceipt) =>
  r.logs
    .filter((l) => l.address.toLowerCase() === f.executor.toLowerCase())
    .map((l) => decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics }) as { eventName: string; args: unknown })

/** The executor's balances of the tokens these tests move, and its allowances to every venue contract. */
const executorState = async () => {
  const tokens = [USDC, EURC(), f.token("USDT")]
  const spenders = [f.dex.poolManager, poolManagerB, v2FactoryB, v3FactoryB]
  return {
    native: await f.native(f.executor),
    balances: await Promise.all(tokens.map((t) => f.balance(t, f.executor))),
    allowances: await Promise.all(tokens.flatMap((t) => spenders.map((s) => f.allowance(t, f.executor, s)))),
  }
}

/** Executes `route` from `tokenIn` and checks the recipient got exactly the pools' own quotes less the fee. */
const executeExactly = async (route: Route, tokenIn: Address, tokenOut: Address, amountIn: bigint) => {
  const gross = await f.quoteRoute(route, amountIn)
  const { amountOut } = splitFees(gross, bps, 0)
  const before = await executorState()
  const p = await params({ tokenIn, tokenOut, amountIn, route, minAmountOut: amountOut })
  expect(await f.simulate(user, p)).toBe(amountOut)
  const receipt = await f.execute(user, p)
  expect(receipt.status).toBe("success")
  expect(await f.balance(tokenOut, p.recipient)).toBe(amountOut)
  expect(await executorState()).toEqual(before)
  return { receipt, amountOut }
}

describe("the registry", () => {
  test("setVenue registers, replaces and removes a venue, with VenueSet; venue(id) reads it back", async () => {
    const hash = `0x${"ab".repeat(32)}` as Hex
    const factory = freshAddress(4_001)
    expect(events(await setVenue(SCRATCH, 1, factory, hash, 25))).toEqual([
      { eventName: "VenueSet", args: { id: SCRATCH, kind: 1, factory, initCodeHash: hash, feeBps: 25 } },
    ])
    expect(await readVenue(SCRATCH)).toEqual([1, factory, hash, 25])
    // the same id, now a V4 PoolManager
    expect(events(await setVenue(SCRATCH, 3, factory, zeroHash, 0))).toEqual([
      { eventName: "VenueSet", args: { id: SCRATCH, kind: 3, factory, initCodeHash: zeroHash, feeBps: 0 } },
    ])
    expect(await readVenue(SCRATCH)).toEqual([3, factory, zeroHash, 0])
    // removed
    expect(events(await setVenue(SCRATCH, 0, zeroAddress, zeroHash, 0))).toEqual([
      { eventName: "VenueSet", args: { id: SCRATCH, kind: 0, factory: zeroAddress, initCodeHash: zeroHash, feeBps: 0 } },
    ])
    expect(await readVenue(SCRATCH)).toEqual([0, zeroAddress, zeroHash, 0])
    expect(await readVenue(V2B)).toEqual([1, v2FactoryB, v2InitCodeHash(), 30])
    expect(await readVenue(V3B)).toEqual([2, v3FactoryB, v3InitCodeHash(), 0])
    expect(await readVenue(V4B)).toEqual([3, poolManagerB, zeroHash, 0])
  })

  test("setVenue refuses an unknown kind, fields that do not fit the kind, and a contract that cannot be a venue (InvalidConfig(Venue))", async () => {
    const hash = `0x${"ab".repeat(32)}` as Hex
    const factory = freshAddress(4_002)
    const router = freshAddress(4_003)
    await f.ownerWrite("setRouterAllowed", [router, true])
    const refused: (readonly [number, Address, Hex, number])[] = [
      [4, factory, hash, 0], // external is no venue kind
      [5, factory, hash, 0],
      [255, factory, hash, 0],
      [1, factory, hash, 0], // V2 without a fee
      [1, factory, hash, 10_000], // a fee of 100%
      [1, factory, zeroHash, 30], // V2 without an init code hash
      [2, factory, hash, 30], // V3 with a fee
      [2, factory, zeroHash, 0], // V3 without an init code hash
      [3, factory, hash, 0], // V4 with an init code hash
      [3, factory, zeroHash, 30], // V4 with a fee
      [0, factory, zeroHash, 0], // a removal naming a contract
      [0, zeroAddress, hash, 0],
      [0, zeroAddress, zeroHash, 30],
      [1, zeroAddress, hash, 30], // no contract
      [2, USDC, hash, 0],
      [3, f.executor, zeroHash, 0],
      [1, router, hash, 30], // an allowed router
    ]
    for (const [kind, contract, initCodeHash, feeBps] of refused) {
      expect(await adminError("setVenue", [SCRATCH, kind, contract, initCodeHash, feeBps])).toMatchObject({ name: "InvalidConfig", args: [VENUE_FAULT] })
    }
    // the edges that pass
    for (const [kind, initCodeHash, feeBps] of [[1, hash, 1], [1, hash, 9_999], [2, hash, 0], [3, zeroHash, 0]] as const) {
      expect((await setVenue(SCRATCH, kind, factory, initCodeHash, feeBps)).status).toBe("success")
    }
    await setVenue(SCRATCH, 0, zeroAddress, zeroHash, 0)
    await f.ownerWrite("setRouterAllowed", [router, false])
  })

  test("a venue's contract is never an allowed router, while any id names it", async () => {
    for (const contract of [f.dex.v2Factory, f.dex.v3Factory, f.dex.poolManager, v2FactoryB, v3FactoryB, poolManagerB]) {
      expect(await adminError("setRouterAllowed", [contract, true])).toMatchObject({ name: "InvalidConfig", fault: "Router" })
    }
    // two ids name the same factory: removing one keeps it a venue contract
    const factory = freshAddress(4_004)
    await setVenue(SCRATCH, 1, factory, v2InitCodeHash(), 30)
    await setVenue(SCRATCH + 1, 1, factory, v2InitCodeHash(), 25)
    await setVenue(SCRATCH, 0, zeroAddress, zeroHash, 0)
    expect(await adminError("setRouterAllowed", [factory, true])).toMatchObject({ name: "InvalidConfig", fault: "Router" })
    // replacing the last id's contract frees it
    await setVenue(SCRATCH + 1, 1, freshAddress(4_005), v2InitCodeHash(), 25)
    expect((await f.ownerWrite("setRouterAllowed", [factory, true])).status).toBe("success")
    // and an allowed router cannot become a venue
    expect(await adminError("setVenue", [SCRATCH, 2, factory, v3InitCodeHash(), 0])).toMatchObject({ name: "InvalidConfig", args: [VENUE_FAULT] })
    await f.ownerWrite("setRouterAllowed", [factory, false])
    await setVenue(SCRATCH + 1, 0, zeroAddress, zeroHash, 0)
    // the last id removed: its contract is free too
    expect((await f.ownerWrite("setRouterAllowed", [freshAddress(4_005), true])).status).toBe("success")
    await f.ownerWrite("setRouterAllowed", [freshAddress(4_005), false])
  })
})

describe("an attacker's route names only registered venues", () => {
  test("an unregistered venue id, for every kind: UnknownPool", async () => {
    const eurc = EURC()
    expect(await routeError(one({ kind: "v2", venue: UNREGISTERED, tokenIn: eurc, tokenOut: USDC }))).toMatchObject({ name: "InvalidRoute", fault: "UnknownPool" })
    expect(await routeError(one({ kind: "v3", venue: UNREGISTERED, tokenIn: eurc, tokenOut: USDC, fee: 500 }))).toMatchObject({ fault: "UnknownPool" })
    expect(await routeError(one({ kind: "v4", venue: UNREGISTERED, tokenIn: eurc, tokenOut: USDC, fee: 100, tickSpacing: 1, hooks: zeroAddress }))).toMatchObject({ fault: "UnknownPool" })
    // id 0 is an id like any other, and nobody registered it
    expect(await routeError(one({ kind: "v3", venue: 0, tokenIn: eurc, tokenOut: USDC, fee: 500 }))).toMatchObject({ fault: "UnknownPool" })
  })

  test("a venue of another kind than the hop: UnknownPool", async () => {
    const eurc = EURC()
    const [v2, v3, v4] = [f.venueId("uniswap-v2"), f.venueId("uniswap-v3"), f.venueId("uniswap-v4")]
    for (const venue of [v3, v4]) expect(await routeError(one({ kind: "v2", venue, tokenIn: eurc, tokenOut: USDC }))).toMatchObject({ fault: "UnknownPool" })
    for (const venue of [v2, v4]) expect(await routeError(one({ kind: "v3", venue, tokenIn: eurc, tokenOut: USDC, fee: 500 }))).toMatchObject({ fault: "UnknownPool" })
    for (const venue of [v2, v3]) {
      expect(await routeError(one({ kind: "v4", venue, tokenIn: eurc, tokenOut: USDC, fee: 100, tickSpacing: 1, hooks: zeroAddress }))).toMatchObject({ fault: "UnknownPool" })
    }
    // the pair a hop pays into ahead of a V2 hop is derived with that hop's venue, which must be V2 too
    const ahead = one({ kind: "v3", venue: v3, tokenIn: eurc, tokenOut: USDC, fee: 500 }, { kind: "v2", venue: v3, tokenIn: USDC, tokenOut: f.token("USDT") })
    expect(await routeError(encodeRoute(ahead), { tokenOut: f.token("USDT") })).toMatchObject({ fault: "UnknownPool" })
  })

  test("a removed venue: its routes stop at once (UnknownPool), and work again once registered", async () => {
    const route = one({ kind: "v2", venue: SCRATCH, tokenIn: EURC(), tokenOut: USDC })
    expect(await routeError(route)).toMatchObject({ fault: "UnknownPool" })
    await f.ownerWrite("setVenue", setVenueArgs({ id: SCRATCH, kind: "uniswap-v2", factory: v2FactoryB }))
    const gross = await f.quoteRoute(route, 1_000_000_000n)
    expect(await f.simulate(user, await params({ route }))).toBe(splitFees(gross, bps, 0).amountOut)
    await setVenue(SCRATCH, 0, zeroAddress, zeroHash, 0)
    expect(await routeError(route)).toMatchObject({ fault: "UnknownPool" })
  })
})

describe("callbacks from contracts of venues nobody registered", () => {
  const callbackError = async (from: Address, data: Hex) =>
    f.client.call({ account: from, to: f.executor, data }).then(
      () => "succeeded",
      (e) => decodeExecutorError(revertData(e) ?? "0x"),
    )
  const v3Callback = () =>
    encodeFunctionData({
      abi: routeExecutorAbi,
      functionName: "uniswapV3SwapCallback",
      // the pool "asks" for the USDC of a user who approved the executor
      args: [10n ** 9n, 0n, encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint256" }], [USDC, user, 10n ** 9n])],
    })

  test("uniswapV3SwapCallback from a real pool of an unregistered V3 factory: UnexpectedCallback", async () => {
    expect(await f.client.getCode({ address: v3PoolC })).not.toBe("0x")
    expect(await callbackError(v3PoolC, v3Callback())).toEqual({ name: "UnexpectedCallback", args: [v3PoolC] })
    // as a mined transaction from the pool's address: reverted, the user's USDC untouched
    const userUsdc = await f.balance(USDC, user)
    await f.client.impersonateAccount({ address: v3PoolC })
    await f.client.setBalance({ address: v3PoolC, value: 10n ** 18n })
    const mined = await f.send(v3PoolC, f.executor, v3Callback())
    await f.client.stopImpersonatingAccount({ address: v3PoolC })
    expect(mined.status).toBe("reverted")
    expect(await f.balance(USDC, user)).toBe(userUsdc)
    // nor from the registered second factory's pool outside a swap
    const poolB = (await f.client.readContract({ address: v3FactoryB, abi: uniswapArtifact("UniswapV3Factory").abi, functionName: "getPool", args: [EURC(), USDC, 500] })) as Address
    expect(await callbackError(getAddress(poolB), v3Callback())).toEqual({ name: "UnexpectedCallback", args: [getAddress(poolB)] })
  })

  test("unlockCallback from an unregistered PoolManager, and from a registered one outside a swap: UnexpectedCallback", async () => {
    const data = encodeFunctionData({ abi: routeExecutorAbi, functionName: "unlockCallback", args: ["0x"] })
    expect(await callbackError(poolManagerC, data)).toEqual({ name: "UnexpectedCallback", args: [poolManagerC] })
    expect(await callbackError(poolManagerB, data)).toEqual({ name: "UnexpectedCallback", args: [poolManagerB] })
  })

  test("the unregistered factory's pool is never reached: a route with the same tokens and fee goes to the registered venue's pool", async () => {
    const eurcC = await f.balance(EURC(), v3PoolC)
    const route = one({ kind: "v3", venue: V3B, tokenIn: EURC(), tokenOut: USDC, fee: 500 })
    await executeExactly(route, EURC(), USDC, 2_000_000_000n)
    expect(await f.balance(EURC(), v3PoolC)).toBe(eurcC)
  })
})

describe("several venues of each kind", () => {
  test("a route split over two V2 venues and two V3 venues pays exactly what the four pools' math says", async () => {
    const eurc = EURC()
    const route: Route = [
      { shareBps: 2_000, hops: [{ kind: "v2", venue: f.venueId("uniswap-v2"), tokenIn: eurc, tokenOut: USDC }] },
      { shareBps: 3_000, hops: [{ kind: "v2", venue: V2B, tokenIn: eurc, tokenOut: USDC }] },
      { shareBps: 1_500, hops: [{ kind: "v3", venue: f.venueId("uniswap-v3"), tokenIn: eurc, tokenOut: USDC, fee: 500 }] },
      { shareBps: 3_500, hops: [{ kind: "v3", venue: V3B, tokenIn: eurc, tokenOut: USDC, fee: 500 }] },
    ]
    const pairA = (await f.client.readContract({ address: f.dex.v2Factory, abi: uniswapArtifact("UniswapV2Factory").abi, functionName: "getPair", args: [eurc, USDC] })) as Address
    const pairB = (await f.client.readContract({ address: v2FactoryB, abi: uniswapArtifact("UniswapV2Factory").abi, functionName: "getPair", args: [eurc, USDC] })) as Address
    const [aBefore, bBefore] = [await f.balance(eurc, pairA), await f.balance(eurc, pairB)]
    const amountIn = 3_333_333_333n
    await executeExactly(route, eurc, USDC, amountIn)
    // each pair got exactly its split's share
    expect((await f.balance(eurc, pairA)) - aBefore).toBe((amountIn * 2_000n) / 10_000n)
    expect((await f.balance(eurc, pairB)) - bBefore).toBe((amountIn * 3_000n) / 10_000n)
  })

  test("a hop followed by a V2 hop of another venue pays straight into that venue's pair (USDT -V3-> USDC -V2 venue B-> EURC)", async () => {
    const USDT = f.token("USDT")
    const route = one({ kind: "v3", venue: f.venueId("uniswap-v3"), tokenIn: USDT, tokenOut: USDC, fee: 100 }, { kind: "v2", venue: V2B, tokenIn: USDC, tokenOut: EURC() })
    const { receipt } = await executeExactly(route, USDT, EURC(), 700_000_000n)
    // USDC went pool to pair: no USDC Transfer touches the executor
    const executorTopic = f.executor.slice(2).toLowerCase()
    expect(receipt.logs.filter((l) => l.address.toLowerCase() === USDC.toLowerCase() && l.topics.some((t) => t?.toLowerCase().endsWith(executorTopic)))).toHaveLength(0)
  })

  test("V4 hops of two venues: a venue change starts a new unlock (USDC -V4 venue 3-> EURC -V4 venue B-> USDT)", async () => {
    const eurc = EURC()
    const USDT = f.token("USDT")
    const route = one(
      { kind: "v4", venue: f.venueId("uniswap-v4"), tokenIn: USDC, tokenOut: eurc, fee: 100, tickSpacing: 1, hooks: zeroAddress },
      { kind: "v4", venue: V4B, tokenIn: eurc, tokenOut: USDT, fee: 500, tickSpacing: 10, hooks: zeroAddress },
    )
    const { receipt } = await executeExactly(route, USDC, USDT, 900_000_000n)
    // EURC left the first PoolManager for the executor and went on into the second: two runs
    const eurcTransfers = receipt.logs.filter((l) => l.address.toLowerCase() === eurc.toLowerCase())
    expect(eurcTransfers).toHaveLength(2)
    const topicOf = (a: Address) => `0x${a.slice(2).toLowerCase().padStart(64, "0")}`
    expect(eurcTransfers.map((l) => [l.topics[1], l.topics[2]] as unknown)).toEqual([
      [topicOf(f.dex.poolManager), topicOf(f.executor)],
      [topicOf(f.executor), topicOf(poolManagerB)],
    ])
  })
})

describe("a V2 venue's fee", () => {
  test("registered at 25 bps over pairs that charge 30, the executor asks for more than the pair gives: the pair's K check reverts; at 30 it passes", async () => {
    const eurc = EURC()
    const route = one({ kind: "v2", venue: SCRATCH, tokenIn: eurc, tokenOut: USDC })
    const amountIn = 5_000_000_000n
    await setVenue(SCRATCH, 1, v2FactoryB, v2InitCodeHash(), 25)
    // what the executor computes: the pool math at 25 bps, more than at 30
    const at25 = await f.quoteHop(route[0]!.hops[0]!, amountIn)
    await setVenue(SCRATCH, 1, v2FactoryB, v2InitCodeHash(), 30)
    const at30 = await f.quoteHop(route[0]!.hops[0]!, amountIn)
    expect(at25).toBeGreaterThan(at30)

    await setVenue(SCRATCH, 1, v2FactoryB, v2InitCodeHash(), 25)
    const failure = await f.client.call({ account: user, to: f.executor, data: encodeExecute(await params({ amountIn, route })) }).then(
      () => "succeeded",
      (e) => decodeErrorResult({ abi: [], data: revertData(e)! }),
    )
    expect(failure).toMatchObject({ errorName: "Error", args: ["UniswapV2: K"] })

    await setVenue(SCRATCH, 1, v2FactoryB, v2InitCodeHash(), 30)
    await executeExactly(route, eurc, USDC, amountIn)
    await setVenue(SCRATCH, 0, zeroAddress, zeroHash, 0)
  })
})
