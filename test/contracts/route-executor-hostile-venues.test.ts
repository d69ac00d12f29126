// RouteExecutor behind venues its owner should never have registered: a V3 pool deployer whose
// "pools" call back with data of their own, and a PoolManager whose unlock() does the same. A
// victim has approved the executor for far more than any trade; an attacker executes one hop
// through each hostile venue and has the callback ask for the victim's tokens. Every attempt
// reverts, also as a mined transaction, and the victim keeps every unit and its allowance.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { encodeAbiParameters, encodeFunctionData, encodePacked, zeroAddress, type Address, type Hex } from "viem"
import type { ExecuteParams, ExecutorError } from "../../src/chain/execute-call.ts"
import type { ExactOutputParams } from "../../src/chain/exact-output-call.ts"
import { grossForNet } from "../../src/pricer/index.ts"
import type { Route, RouteHop } from "../../src/chain/route-encoding.ts"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { freshAddress, setupFixture, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let bps: number
const attacker = users[2]!
const victim = users[3]!
const V3_KIND = 2
const V4_KIND = 3
const HOSTILE_V3 = 200
const HOSTILE_V4 = 201
const FEE = 3000
const deployerAbi = ownArtifact("HostileV3Deployer").abi
const poolAbi = ownArtifact("HostileV3Pool").abi
const managerAbi = ownArtifact("HostilePoolManager").abi
// what the victim trusts the executor with, far more than it holds
const VICTIM_APPROVAL = 10n ** 30n
// the attacker's own input on every hop
const AMOUNT = 1_000_000n

let EURC: Address
let WETH: Address
let manager: Address
/** the hostile V3 venue's "pools", by input token (each paired with WETH at FEE) */
const pools = new Map<Address, Address>()

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  EURC = f.token("EURC")
  WETH = f.token("WETH")

  const deployer = await f.deploy("HostileV3Deployer")
  const initCodeHash = (await f.client.readContract({ address: deployer, abi: deployerAbi, functionName: "poolInitCodeHash" })) as Hex
  for (const t of [USDC, EURC]) {
    const args = [t, WETH, FEE] as const
    const { result } = await f.client.simulateContract({ account: f.owner, address: deployer, abi: deployerAbi, functionName: "deploy", args })
    expect((await f.send(f.owner, deployer, encodeFunctionData({ abi: deployerAbi, functionName: "deploy", args }))).status).toBe("success")
    pools.set(t, result as Address)
  }
  manager = await f.deploy("HostilePoolManager")
  // the owner's mistake
  expect((await f.ownerWrite("setVenue", [HOSTILE_V3, V3_KIND, deployer, initCodeHash, 0])).status).toBe("success")
  expect((await f.ownerWrite("setVenue", [HOSTILE_V4, V4_KIND, manager, `0x${"00".repeat(32)}`, 0])).status).toBe("success")

  await f.approve(victim, USDC, VICTIM_APPROVAL)
  await f.mint("EURC", attacker, 100n * AMOUNT)
  await f.approve(attacker, USDC, 100n * AMOUNT)
  await f.approve(attacker, EURC, 100n * AMOUNT)
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const one = (hop: RouteHop): Route => [{ shareBps: 10_000, hops: [hop] }]
const v3Hop = (tokenIn: Address): RouteHop => ({ kind: "v3", venue: HOSTILE_V3, tokenIn, tokenOut: WETH, fee: FEE })
const v4Hop = (tokenIn: Address): RouteHop =>
  ({ kind: "v4", venue: HOSTILE_V4, tokenIn, tokenOut: WETH, fee: FEE, tickSpacing: 60, hooks: zeroAddress })
const params = async (tokenIn: Address, route: Route): Promise<ExecuteParams> => ({
  tokenIn,
  tokenOut: WETH,
  amountIn: AMOUNT,
  minAmountOut: 0n,
  recipient: freshAddress(Math.floor(Math.random() * 1e9)),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: bps,
  route,
})
const zeroForOne = (tokenIn: Address) => tokenIn.toLowerCase() < WETH.toLowerCase()

/** what the victim, the attacker (its EURC) and the hostile contracts hold, to the wei */
const holdings = async () => {
  const hostile = [manager, ...pools.values()]
  return {
    victimUsdc: await f.balance(USDC, victim),
    victimAllowance: await f.allowance(USDC, victim, f.executor),
    attackerEurc: await f.balance(EURC, attacker),
    hostileUsdc: await Promise.all(hostile.map((a) => f.balance(USDC, a))),
    hostileEurc: await Promise.all(hostile.map((a) => f.balance(EURC, a))),
  }
}

/** The attacker's execute, mined: it moves nothing and reverts; the error it reverts with. */
const attack = async (p: ExecuteParams): Promise<ExecutorError> => {
  const before = await holdings()
  expect(before.victimAllowance).toBe(VICTIM_APPROVAL)
  const mined = await f.execute(attacker, p)
  expect(await holdings()).toEqual(before)
  expect(mined.status).toBe("reverted")
  return f.executeError(attacker, p)
}

/** The same hop for exactly `amountOut` of WETH, taking at most AMOUNT. */
const exactOutputParams = async (tokenIn: Address, route: Route, amountOut = 1n): Promise<ExactOutputParams> => ({
  tokenIn,
  tokenOut: WETH,
  amountOut,
  maxAmountIn: AMOUNT,
  recipient: freshAddress(Math.floor(Math.random() * 1e9)),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: bps,
  route,
})

/** The attacker's executeExactOutput, mined: it moves nothing and reverts; the error it reverts with. */
const attackExactOutput = async (p: ExactOutputParams): Promise<ExecutorError> => {
  const before = await holdings()
  expect(before.victimAllowance).toBe(VICTIM_APPROVAL)
  const mined = await f.executeExactOutput(attacker, p)
  expect(await holdings()).toEqual(before)
  expect(mined.status).toBe("reverted")
  return f.executeExactOutputError(attacker, p)
}

const setV3 = async (pool: Address, d0: bigint, d1: bigint, data: Hex, callbacks = 1n, swallow = false) => {
  const r = await f.send(attacker, pool, encodeFunctionData({ abi: poolAbi, functionName: "setAttack", args: [d0, d1, data, callbacks, swallow] }))
  expect(r.status).toBe("success")
}
/** the V3 callback data the executor writes: abi.encode(token, payer, amount, zeroForOne) */
const v3Data = (token: Address, payer: Address, amount: bigint, zf: boolean) =>
  encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint256" }, { type: "bool" }], [token, payer, amount, zf])
/** deltas asking for `amount` on the input's side of a hop from `tokenIn` */
const asked = (tokenIn: Address, amount: bigint): [bigint, bigint] => (zeroForOne(tokenIn) ? [amount, 0n] : [0n, amount])

const setV4 = async (data: Hex, callbacks = 1n, swallow = false) => {
  const r = await f.send(attacker, manager, encodeFunctionData({ abi: managerAbi, functionName: "setAttack", args: [data, callbacks, swallow] }))
  expect(r.status).toBe("success")
}
/** the unlock data the executor writes: tokenIn amountIn payer to, then the V4 hops (none here) */
const v4Data = (token: Address, amount: bigint, payer: Address) =>
  encodePacked(["address", "uint256", "address", "address"], [token, amount, payer, attacker])

/** What a hostile venue's callback asks for: the victim as payer, with the hop's token and amount or others. */
const DRAIN_CASES: ReadonlyArray<{ name: string; tokenIn: () => Address; amount: () => Promise<bigint> }> = [
  { name: "the victim as payer, the hop's own token and amount", tokenIn: () => USDC, amount: async () => AMOUNT },
  { name: "another token than the hop's (the hop spends EURC)", tokenIn: () => EURC, amount: async () => AMOUNT },
  { name: "another amount: everything the victim holds", tokenIn: () => USDC, amount: () => f.balance(USDC, victim) },
  { name: "token and amount both changed", tokenIn: () => EURC, amount: () => f.balance(USDC, victim) },
]

describe("a hostile V3 pool deployer registered as a venue", () => {
  test("the venue is live: a pool that calls back with the data it was given takes exactly the attacker's own input", async () => {
    const pool = pools.get(EURC)!
    await setV3(pool, 0n, 0n, "0x")
    const before = await holdings()
    const poolBefore = await f.balance(EURC, pool)
    const r = await f.execute(attacker, await params(EURC, one(v3Hop(EURC))))
    expect(r.status).toBe("success")
    expect(await f.balance(EURC, attacker)).toBe(before.attackerEurc - AMOUNT)
    expect(await f.balance(EURC, pool)).toBe(poolBefore + AMOUNT)
    expect(await f.balance(USDC, victim)).toBe(before.victimUsdc)
    expect(await f.allowance(USDC, victim, f.executor)).toBe(VICTIM_APPROVAL)
  })

  describe("a callback that asks for the victim's USDC reverts UnexpectedCallback", () => {
    for (const c of DRAIN_CASES) {
      test(c.name, async () => {
        const tokenIn = c.tokenIn()
        const pool = pools.get(tokenIn)!
        const amount = await c.amount()
        await setV3(pool, ...asked(tokenIn, amount), v3Data(USDC, victim, amount, zeroForOne(tokenIn)))
        expect(await attack(await params(tokenIn, one(v3Hop(tokenIn))))).toEqual({ name: "UnexpectedCallback", args: [pool] })
      })
    }
  })

  test("a pool that swallows the refused callback and returns: InvalidRoute(PartialFill), the binding does not outlive the swap", async () => {
    const pool = pools.get(EURC)!
    const amount = await f.balance(USDC, victim)
    await setV3(pool, ...asked(EURC, amount), v3Data(USDC, victim, amount, zeroForOne(EURC)), 1n, true)
    expect(await attack(await params(EURC, one(v3Hop(EURC))))).toMatchObject({ name: "InvalidRoute", fault: "PartialFill" })
  })

  test("a second callback with the swap's own data: UnexpectedCallback", async () => {
    const pool = pools.get(EURC)!
    await setV3(pool, 0n, 0n, "0x", 2n)
    expect(await attack(await params(EURC, one(v3Hop(EURC))))).toEqual({ name: "UnexpectedCallback", args: [pool] })
  })

  test("the swap's own data with the input's amount asked on the other token's side: InvalidRoute(PartialFill)", async () => {
    const pool = pools.get(EURC)!
    const [d0, d1] = asked(EURC, AMOUNT)
    await setV3(pool, d1, d0, "0x")
    expect(await attack(await params(EURC, one(v3Hop(EURC))))).toMatchObject({ name: "InvalidRoute", fault: "PartialFill" })
  })
})

describe("a hostile V3 pool deployer, exact output (the callback binds the output and the hops before the pool)", () => {
  describe("a callback that asks for the victim's USDC reverts UnexpectedCallback", () => {
    for (const c of DRAIN_CASES) {
      test(c.name, async () => {
        const tokenIn = c.tokenIn()
        const pool = pools.get(tokenIn)!
        const amount = await c.amount()
        await setV3(pool, ...asked(tokenIn, amount), v3Data(USDC, victim, amount, zeroForOne(tokenIn)))
        expect(await attackExactOutput(await exactOutputParams(tokenIn, one(v3Hop(tokenIn))))).toEqual({ name: "UnexpectedCallback", args: [pool] })
      })
    }
  })

  test("a pool that swallows the refused callback and returns: InvalidRoute(PartialFill)", async () => {
    const pool = pools.get(EURC)!
    const amount = await f.balance(USDC, victim)
    await setV3(pool, ...asked(EURC, amount), v3Data(USDC, victim, amount, zeroForOne(EURC)), 1n, true)
    expect(await attackExactOutput(await exactOutputParams(EURC, one(v3Hop(EURC))))).toMatchObject({ name: "InvalidRoute", fault: "PartialFill" })
  })

  test("a second callback with the swap's own data, the first one paid: UnexpectedCallback", async () => {
    const pool = pools.get(EURC)!
    // the first callback is a well-formed exact-output one: AMOUNT asked for the output bound
    const p = await exactOutputParams(EURC, one(v3Hop(EURC)))
    // the output the callback must show paid: the route's gross for an amountOut of 1
    const gross = grossForNet(p.amountOut, { protocolBps: bps, partnerBps: 0 })
    const [d0, d1] = zeroForOne(EURC) ? [AMOUNT / 2n, -gross] : [-gross, AMOUNT / 2n]
    await setV3(pool, d0, d1, "0x", 2n)
    expect(await attackExactOutput(p)).toEqual({ name: "UnexpectedCallback", args: [pool] })
  })
})

describe("a hostile PoolManager registered as a venue", () => {
  test("the venue is live: an unlock that calls back with its own data takes exactly the attacker's own input", async () => {
    await setV4("0x")
    const before = await holdings()
    const managerBefore = await f.balance(EURC, manager)
    const r = await f.execute(attacker, await params(EURC, one(v4Hop(EURC))))
    expect(r.status).toBe("success")
    expect(await f.balance(EURC, attacker)).toBe(before.attackerEurc - AMOUNT)
    expect(await f.balance(EURC, manager)).toBe(managerBefore + AMOUNT)
    expect(await f.balance(USDC, victim)).toBe(before.victimUsdc)
    expect(await f.allowance(USDC, victim, f.executor)).toBe(VICTIM_APPROVAL)
  })

  describe("an unlock callback that asks for the victim's USDC reverts UnexpectedCallback", () => {
    for (const c of DRAIN_CASES) {
      test(c.name, async () => {
        await setV4(v4Data(USDC, await c.amount(), victim))
        const tokenIn = c.tokenIn()
        expect(await attack(await params(tokenIn, one(v4Hop(tokenIn))))).toEqual({ name: "UnexpectedCallback", args: [manager] })
      })
    }
  })

  test("a PoolManager that swallows the refused callback and returns: InvalidRoute(PartialFill), the binding does not outlive the unlock", async () => {
    await setV4(v4Data(USDC, await f.balance(USDC, victim), victim), 1n, true)
    expect(await attack(await params(EURC, one(v4Hop(EURC))))).toMatchObject({ name: "InvalidRoute", fault: "PartialFill" })
  })

  test("a second unlock callback with the unlock's own data: UnexpectedCallback", async () => {
    await setV4("0x", 2n)
    expect(await attack(await params(EURC, one(v4Hop(EURC))))).toEqual({ name: "UnexpectedCallback", args: [manager] })
  })
})

describe("a hostile PoolManager, exact output", () => {
  describe("an unlock callback that asks for the victim's USDC reverts UnexpectedCallback", () => {
    for (const c of DRAIN_CASES) {
      test(c.name, async () => {
        await setV4(v4Data(USDC, await c.amount(), victim))
        const tokenIn = c.tokenIn()
        expect(await attackExactOutput(await exactOutputParams(tokenIn, one(v4Hop(tokenIn))))).toEqual({ name: "UnexpectedCallback", args: [manager] })
      })
    }
  })

  test("a PoolManager that swallows the refused callback and returns: InvalidRoute(PartialFill)", async () => {
    await setV4(v4Data(USDC, await f.balance(USDC, victim), victim), 1n, true)
    expect(await attackExactOutput(await exactOutputParams(EURC, one(v4Hop(EURC))))).toMatchObject({ name: "InvalidRoute", fault: "PartialFill" })
  })
})
