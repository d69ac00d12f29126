// RouteExecutor's stable hops: Curve-style plain pools (the devnet's StableSwapPool) that the
// owner registers with their coins (setStablePool). A hop pays exactly the pool's get_dy, alone,
// split with V3, before and after other hops; nothing is left on the executor, no allowance
// either; unregistered pools, tokens that are not the pool's coins and pools that misbehave
// are refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { decodeEventLog, encodeFunctionData, getAddress, getContractAddress, parseAbi, type Abi, type Address, type TransactionReceipt } from "viem"
import { decodeExecutorError, routeExecutorAbi, type ExecuteParams, type ExecutorError } from "../../src/chain/execute-call.ts"
import type { Route, RouteHop } from "../../src/chain/route-encoding.ts"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { freshAddress, revertData, SCALE, setupFixture, splitFees, stablePoolAbi, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let bps: number
const user = users[1]!
/** InvalidConfig's ConfigFault.StablePool */
const STABLE_POOL_FAULT = 8

let pool: Address // USDC/USDT, registered
let unregistered: Address // USDC/USDT, never registered
let mock: Address // MockStablePool over USDC/USDT, registered, misbehaves on demand

const erc20 = ownArtifact("TestToken").abi
const mockAbi = ownArtifact("MockStablePool").abi

const write = async (to: Address, abi: Abi, functionName: string, args: readonly unknown[], from: Address = f.owner): Promise<TransactionReceipt> => {
  const r = await f.send(from, to, encodeFunctionData({ abi, functionName, args }))
  expect(r.status).toBe("success")
  return r
}
const coinIndex = async (p: Address, token: Address) =>
  (await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "stableCoinIndex", args: [p, token] })) as bigint

/** A StableSwapPool of USDC and USDT (A 500, 4 bps) with 1,000,000 of each from the owner. */
const deployStablePool = async (): Promise<Address> => {
  const address = await f.deploy("StableSwapPool", [[USDC, f.token("USDT")], 500n, 4_000_000n])
  const amount = 1_000_000_000_000n
  await f.mint("USDT", f.owner, amount)
  await write(USDC, erc20, "approve", [address, amount])
  await write(f.token("USDT"), erc20, "approve", [address, amount])
  await write(address, parseAbi(["function add_liquidity(uint256[2], uint256) returns (uint256)"]), "add_liquidity", [[amount, amount], 0n])
  return address
}

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  for (const s of ["USDC", "EURC", "USDT", "TAX"]) await f.approve(user, f.token(s), 10n ** 40n)
  pool = await deployStablePool()
  unregistered = await deployStablePool()
  mock = await f.deploy("MockStablePool", [[USDC, f.token("USDT")]])
  await write(USDC, erc20, "transfer", [mock, 10n ** 12n])
  expect((await f.ownerWrite("setStablePool", [pool, true])).status).toBe("success")
  expect((await f.ownerWrite("setStablePool", [mock, true])).status).toBe("success")
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const one = (...hops: RouteHop[]): Route => [{ shareBps: 10_000, hops }]
const USDT = () => f.token("USDT")
const stable = (tokenIn: Address, tokenOut: Address, p: Address = pool): RouteHop => ({ kind: "stable", tokenIn, tokenOut, pool: p })

const params = async (p: Partial<ExecuteParams> = {}): Promise<ExecuteParams> => ({
  tokenIn: USDT(),
  tokenOut: USDC,
  amountIn: 1_000_000_000n,
  minAmountOut: 0n,
  recipient: freshAddress(Math.floor(Math.random() * 1e9)),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: bps,
  route: one(stable(USDT(), USDC)),
  ...p,
})
const routeError = async (route: Route, p: Partial<ExecuteParams> = {}): Promise<ExecutorError> => f.executeError(user, await params({ route, ...p }))
const adminError = async (functionName: string, args: readonly unknown[]): Promise<ExecutorError> => {
  try {
    await f.client.call({ account: f.owner, to: f.executor, data: encodeFunctionData({ abi: routeExecutorAbi, functionName, args }) })
  } catch (e) {
    return decodeExecutorError(revertData(e)!)!
  }
  throw new Error(`${functionName} did not revert`)
}

/** The executor's balances of the tokens these tests move, native included, and its allowances to the pools. */
const executorState = async () => {
  const tokens = [USDC, USDT(), f.token("EURC")]
  return {
    native: await f.native(f.executor),
    balances: await Promise.all(tokens.map((t) => f.balance(t, f.executor))),
    allowances: await Promise.all(tokens.flatMap((t) => [pool, unregistered, mock, f.dex.poolManager].map((s) => f.allowance(t, f.executor, s)))),
  }
}

/** Executes `route` and checks the recipient got exactly the pools' own quotes (get_dy, QuoterV2, …) less the fee. */
const executeExactly = async (route: Route, p: Partial<ExecuteParams> & Pick<ExecuteParams, "tokenIn" | "tokenOut" | "amountIn">, units = p.amountIn) => {
  const gross = await f.quoteRoute(route, units)
  const native = p.tokenOut === "0x0000000000000000000000000000000000000000"
  const { amountOut } = splitFees(native ? gross * SCALE : gross, bps, 0)
  const before = await executorState()
  const full = await params({ ...p, route, minAmountOut: amountOut })
  expect(await f.simulate(user, full, p.tokenIn === "0x0000000000000000000000000000000000000000" ? p.amountIn : 0n)).toBe(amountOut)
  const receipt = await f.execute(user, full, p.tokenIn === "0x0000000000000000000000000000000000000000" ? p.amountIn : 0n)
  expect(receipt.status).toBe("success")
  expect(native ? await f.native(full.recipient) : await f.balance(p.tokenOut, full.recipient)).toBe(amountOut)
  expect(await executorState()).toEqual(before)
  return { receipt, amountOut, gross }
}

describe("the registry", () => {
  test("setStablePool reads the pool's coins: stableCoinIndex is each coin's index + 1, StablePoolSet; removing clears them", async () => {
    expect(await coinIndex(pool, USDC)).toBe(1n)
    expect(await coinIndex(pool, USDT())).toBe(2n)
    expect(await coinIndex(pool, f.token("EURC"))).toBe(0n)
    expect(await coinIndex(unregistered, USDC)).toBe(0n)

    const other = await f.deploy("MockStablePool", [[f.token("EURC"), USDT(), USDC]])
    const set = await f.ownerWrite("setStablePool", [other, true])
    const logs = set.logs.filter((l) => l.address.toLowerCase() === f.executor.toLowerCase()).map((l) => decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics }))
    expect(logs).toMatchObject([{ eventName: "StablePoolSet", args: { pool: other, registered: true } }])
    expect([await coinIndex(other, f.token("EURC")), await coinIndex(other, USDT()), await coinIndex(other, USDC)]).toEqual([1n, 2n, 3n])
    // registering again is the same registration
    await f.ownerWrite("setStablePool", [other, true])
    expect(await coinIndex(other, USDC)).toBe(3n)
    // a registered pool is never a router; once removed it may be one
    expect(await adminError("setRouterAllowed", [other, true])).toMatchObject({ name: "InvalidConfig", fault: "Router" })
    const removed = await f.ownerWrite("setStablePool", [other, false])
    expect(removed.logs.map((l) => decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics }))).toMatchObject([{ eventName: "StablePoolSet", args: { pool: other, registered: false } }])
    expect([await coinIndex(other, f.token("EURC")), await coinIndex(other, USDT()), await coinIndex(other, USDC)]).toEqual([0n, 0n, 0n])
    expect((await f.ownerWrite("setRouterAllowed", [other, true])).status).toBe("success")
    // and an allowed router cannot be registered
    expect(await adminError("setStablePool", [other, true])).toMatchObject({ name: "InvalidConfig", args: [STABLE_POOL_FAULT] })
    await f.ownerWrite("setRouterAllowed", [other, false])
  })

  test("setStablePool refuses anything but 2 to 8 distinct non-zero coins, and a contract that cannot be a pool (InvalidConfig(StablePool))", async () => {
    const coins = Array.from({ length: 9 }, (_, k) => freshAddress(6_000 + k))
    const refuse = async (p: Address) => expect(await adminError("setStablePool", [p, true])).toMatchObject({ name: "InvalidConfig", args: [STABLE_POOL_FAULT] })
    for (const p of ["0x0000000000000000000000000000000000000000", USDC, f.executor] as Address[]) await refuse(p)
    await refuse(freshAddress(6_100)) // no code: no coins
    await refuse(USDT()) // a token: coins() reverts at once
    await refuse(await f.deploy("MockStablePool", [coins.slice(0, 1)]))
    await refuse(await f.deploy("MockStablePool", [coins])) // 9 coins
    await refuse(await f.deploy("MockStablePool", [[coins[0], coins[1], coins[0]]]))
    await refuse(await f.deploy("MockStablePool", [[coins[0], "0x0000000000000000000000000000000000000000"]]))
    // a pool that names itself as a coin
    const nonce = await f.client.getTransactionCount({ address: f.owner })
    const self = getContractAddress({ from: f.owner, nonce: BigInt(nonce) })
    expect(await f.deploy("MockStablePool", [[coins[0], self]])).toBe(self)
    await refuse(self)
    // 2 and 8 coins pass
    for (const n of [2, 8]) {
      const p = await f.deploy("MockStablePool", [coins.slice(0, n)])
      expect((await f.ownerWrite("setStablePool", [p, true])).status).toBe("success")
      expect(await coinIndex(p, coins[n - 1]!)).toBe(BigInt(n))
      await f.ownerWrite("setStablePool", [p, false])
    }
  })
})

describe("a stable hop", () => {
  test("alone: exactly get_dy, no allowance and no balance left on the executor", async () => {
    const amountIn = 12_345_678_901n
    const expected = (await f.client.readContract({ address: pool, abi: stablePoolAbi, functionName: "get_dy", args: [1n, 0n, amountIn] })) as bigint
    const { gross } = await executeExactly(one(stable(USDT(), USDC)), { tokenIn: USDT(), tokenOut: USDC, amountIn })
    expect(gross).toBe(expected)
    expect(await f.allowance(USDT(), f.executor, pool)).toBe(0n)
  })

  test("split with V3: exactly get_dy plus what QuoterV2 says", async () => {
    const route: Route = [
      { shareBps: 6_000, hops: [stable(USDT(), USDC)] },
      { shareBps: 4_000, hops: [f.hop("uniswap-v3", "USDT", "USDC", 100)] },
    ]
    await executeExactly(route, { tokenIn: USDT(), tokenOut: USDC, amountIn: 2_000_000_000n })
  })

  test("before a V2 hop its output goes into the pair; after V3 and with native input the executor pays the pool", async () => {
    const EURC = f.token("EURC")
    await executeExactly(one(stable(USDT(), USDC), f.hop("uniswap-v2", "USDC", "EURC")), { tokenIn: USDT(), tokenOut: EURC, amountIn: 800_000_000n })
    await executeExactly(one(f.hop("uniswap-v3", "EURC", "USDC", 500), stable(USDC, USDT())), { tokenIn: EURC, tokenOut: USDT(), amountIn: 900_000_000n })
    // native USDC in: the executor holds the input already; native USDC out
    const units = 500_000_000n
    await executeExactly(one(stable(USDC, USDT())), { tokenIn: "0x0000000000000000000000000000000000000000", tokenOut: USDT(), amountIn: units * SCALE + 77n }, units)
    await executeExactly(one(stable(USDT(), USDC)), { tokenIn: USDT(), tokenOut: "0x0000000000000000000000000000000000000000", amountIn: units })
  })

  test("an unregistered pool, a registered pool without the hop's tokens, a removed pool: UnknownPool", async () => {
    const EURC = f.token("EURC")
    expect(await routeError(one(stable(USDT(), USDC, unregistered)))).toMatchObject({ name: "InvalidRoute", fault: "UnknownPool" })
    expect(await routeError(one(stable(EURC, USDC)), { tokenIn: EURC })).toMatchObject({ fault: "UnknownPool" })
    expect(await routeError(one(stable(USDT(), EURC)), { tokenOut: EURC })).toMatchObject({ fault: "UnknownPool" })
    // a token named as the pool
    expect(await routeError(one(stable(USDT(), USDC, USDC)))).toMatchObject({ fault: "UnknownPool" })
    await f.ownerWrite("setStablePool", [pool, false])
    expect(await routeError(one(stable(USDT(), USDC)))).toMatchObject({ fault: "UnknownPool" })
    await f.ownerWrite("setStablePool", [pool, true])
    expect(await f.simulate(user, await params())).toBeGreaterThan(0n)
  })

  test("a pool that takes less than its input (PartialFill) or pays nothing (ZeroAmount); input that arrives short (UnsupportedToken)", async () => {
    await write(mock, mockAbi, "setBehavior", [1n, 1_000_000n])
    expect(await routeError(one(stable(USDT(), USDC, mock)))).toMatchObject({ fault: "PartialFill" })
    await write(mock, mockAbi, "setBehavior", [0n, 0n])
    expect(await routeError(one(stable(USDT(), USDC, mock)))).toMatchObject({ fault: "ZeroAmount" })
    // an honest mock: its output is measured as the executor's balance change, whatever it returns
    await write(mock, mockAbi, "setBehavior", [0n, 987_654n])
    const p = await params({ route: one(stable(USDT(), USDC, mock)) })
    expect(await f.simulate(user, p)).toBe(splitFees(987_654n, bps, 0).amountOut)
    // a fee-on-transfer token from the sender
    const TAX = f.token("TAX")
    const taxPool = await f.deploy("MockStablePool", [[TAX, USDC]])
    await f.ownerWrite("setStablePool", [taxPool, true])
    expect(await routeError(one(stable(TAX, USDC, taxPool)), { tokenIn: TAX, amountIn: 10n ** 18n })).toEqual({ name: "UnsupportedToken", args: [TAX], reason: "UnsupportedToken" })
  })
})
