// RouteExecutor against a token that fights back: it re-enters execute (directly or through
// permitAndCall or a gasless order) and forges swap and
// unlock callbacks from inside its own transfers, trying to spend a victim's approval.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { encodeAbiParameters, encodeFunctionData, getAddress, type Address, type Hex } from "viem"
import { decodeExecutorError, encodeExecute, routeExecutorAbi, type ExecuteParams } from "../../src/chain/execute-call.ts"
import { encodePermitAndCall, type SignedPermit } from "../../src/chain/permit-call.ts"
import { encodeExecuteOrder, readNonceUsed } from "../../src/chain/order-call.ts"
import { swapOrderTypedData, type SwapOrder } from "../../src/domain/order.ts"
import { testAccounts } from "../../src/devnet/accounts.ts"
import { privateKeyToAccount } from "viem/accounts"
import type { Route } from "../../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { freshAddress, revertData, setupFixture, splitFees, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let bps: number
let evil: Address
const evilAbi = ownArtifact("MaliciousReentrantToken").abi
const user = users[2]!
const victim = users[3]!

const setAttack = (target: Address, data: Hex) =>
  f.send(user, evil, encodeFunctionData({ abi: evilAbi, functionName: "setAttack", args: [target, data] }))
const lastAttack = async () => {
  const [succeeded, result, count] = await Promise.all([
    f.client.readContract({ address: evil, abi: evilAbi, functionName: "lastAttackSucceeded" }),
    f.client.readContract({ address: evil, abi: evilAbi, functionName: "lastAttackResult" }),
    f.client.readContract({ address: evil, abi: evilAbi, functionName: "attackCount" }),
  ])
  return { succeeded: succeeded as boolean, error: decodeExecutorError(result as Hex), count: count as bigint }
}

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  const m = f.devnet.manifest
  evil = await f.deploy("MaliciousReentrantToken")
  const usdcAbi = ownArtifact("TestToken").abi
  const mintEvil = (to: Address, amount: bigint) => f.send(f.owner, evil, encodeFunctionData({ abi: evilAbi, functionName: "mint", args: [to, amount] }))
  const sendUsdc = (to: Address, amount: bigint) => f.send(f.owner, USDC, encodeFunctionData({ abi: usdcAbi, functionName: "transfer", args: [to, amount] }))

  // a V2 pair EVIL/USDC
  const v2Factory = uniswapArtifact("UniswapV2Factory")
  const factory = f.dex.v2Factory
  await f.send(f.owner, factory, encodeFunctionData({ abi: v2Factory.abi, functionName: "createPair", args: [evil, USDC] }))
  const pair = (await f.client.readContract({ address: factory, abi: v2Factory.abi, functionName: "getPair", args: [evil, USDC] })) as Address
  await mintEvil(pair, 10n ** 24n)
  await sendUsdc(pair, 10n ** 12n)
  await f.send(f.owner, pair, encodeFunctionData({ abi: uniswapArtifact("UniswapV2Pair").abi, functionName: "mint", args: [f.owner] }))

  // a V3 pool EVIL/USDC at raw price 1 with liquidity on both sides
  const v3Factory = uniswapArtifact("UniswapV3Factory")
  const v3 = f.dex.v3Factory
  await f.send(f.owner, v3, encodeFunctionData({ abi: v3Factory.abi, functionName: "createPool", args: [evil, USDC, 3000] }))
  const pool = (await f.client.readContract({ address: v3, abi: v3Factory.abi, functionName: "getPool", args: [evil, USDC, 3000] })) as Address
  await f.send(f.owner, pool, encodeFunctionData({ abi: uniswapArtifact("UniswapV3Pool").abi, functionName: "initialize", args: [1n << 96n] }))
  const provider = await f.deploy("V3LiquidityProvider")
  await mintEvil(provider, 10n ** 24n)
  await sendUsdc(provider, 10n ** 12n)
  const minted = await f.send(f.owner, provider, encodeFunctionData({ abi: ownArtifact("V3LiquidityProvider").abi, functionName: "mint", args: [pool, -6000, 6000, 10n ** 11n] }))
  expect(minted.status).toBe("success")

  await mintEvil(user, 10n ** 24n)
  await f.send(user, evil, encodeFunctionData({ abi: evilAbi, functionName: "approve", args: [f.executor, 10n ** 30n] }))
  await f.approve(user, USDC, 10n ** 30n)
  // the victim trusts the executor with everything it has
  await f.approve(victim, USDC, 10n ** 30n)
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const params = async (p: Pick<ExecuteParams, "tokenIn" | "tokenOut" | "amountIn" | "route">): Promise<ExecuteParams> => ({
  minAmountOut: 0n,
  recipient: freshAddress(Math.floor(Math.random() * 1e9)),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: bps,
  ...p,
})
const evilToUsdc = (): Route => [{ shareBps: 10_000, hops: [{ kind: "v2", venue: f.venueId("uniswap-v2"), tokenIn: evil, tokenOut: USDC }] }]
const usdcToEvil = (): Route => [{ shareBps: 10_000, hops: [{ kind: "v3", venue: f.venueId("uniswap-v3"), tokenIn: USDC, tokenOut: evil, fee: 3000 }] }]

describe("a token that re-enters", () => {
  test("execute from inside a transfer fails with Reentrancy; the outer swap completes exactly", async () => {
    // the token tries to run a swap that spends the victim's USDC
    const inner = encodeExecute(await params({ tokenIn: USDC, tokenOut: evil, amountIn: 10n ** 9n, route: usdcToEvil() }))
    await setAttack(f.executor, inner)
    const amountIn = 10n ** 20n
    const route = evilToUsdc()
    const { amountOut } = splitFees(await f.quoteRoute(route, amountIn), bps, 0)
    const p = await params({ tokenIn: evil, tokenOut: USDC, amountIn, route })
    const victimBefore = await f.balance(USDC, victim)
    const receipt = await f.execute(user, p)
    expect(receipt.status).toBe("success")
    const attack = await lastAttack()
    expect(attack.count).toBeGreaterThan(0n)
    expect(attack.succeeded).toBe(false)
    expect(attack.error?.name).toBe("Reentrancy")
    expect(await f.balance(USDC, p.recipient)).toBe(amountOut)
    expect(await f.balance(USDC, victim)).toBe(victimBefore)
    expect(await f.balance(evil, f.executor)).toBe(0n)
  })

  // a permit nobody signed: the token refuses it, and permitAndCall goes on to its call
  const junkPermit: SignedPermit = { token: USDC, value: 1n, deadline: 0n, signature: `0x${"11".repeat(64)}1b` }

  test("permitAndCall from inside a transfer fails with Reentrancy; the outer swap completes exactly", async () => {
    const inner = encodePermitAndCall(junkPermit, encodeExecute(await params({ tokenIn: USDC, tokenOut: evil, amountIn: 10n ** 9n, route: usdcToEvil() })))
    await setAttack(f.executor, inner)
    const amountIn = 10n ** 20n
    const route = evilToUsdc()
    const { amountOut } = splitFees(await f.quoteRoute(route, amountIn), bps, 0)
    const p = await params({ tokenIn: evil, tokenOut: USDC, amountIn, route })
    const victimBefore = await f.balance(USDC, victim)
    const countBefore = (await lastAttack()).count
    expect((await f.execute(user, p)).status).toBe("success")
    const attack = await lastAttack()
    expect(attack.count).toBeGreaterThan(countBefore)
    expect(attack.succeeded).toBe(false)
    expect(attack.error?.name).toBe("Reentrancy")
    expect(await f.balance(USDC, p.recipient)).toBe(amountOut)
    expect(await f.balance(USDC, victim)).toBe(victimBefore)
  })

  test("a swap run through permitAndCall is not reentrant either: execute from inside its transfer fails with Reentrancy", async () => {
    const inner = encodeExecute(await params({ tokenIn: USDC, tokenOut: evil, amountIn: 10n ** 9n, route: usdcToEvil() }))
    await setAttack(f.executor, inner)
    const amountIn = 10n ** 20n
    const route = evilToUsdc()
    const { amountOut } = splitFees(await f.quoteRoute(route, amountIn), bps, 0)
    const p = await params({ tokenIn: evil, tokenOut: USDC, amountIn, route })
    const victimBefore = await f.balance(USDC, victim)
    const countBefore = (await lastAttack()).count
    expect((await f.send(user, f.executor, encodePermitAndCall(junkPermit, encodeExecute(p)))).status).toBe("success")
    const attack = await lastAttack()
    expect(attack.count).toBeGreaterThan(countBefore)
    expect(attack.succeeded).toBe(false)
    expect(attack.error?.name).toBe("Reentrancy")
    expect(await f.balance(USDC, p.recipient)).toBe(amountOut)
    expect(await f.balance(USDC, victim)).toBe(victimBefore)
    expect(await f.balance(evil, f.executor)).toBe(0n)
  })

  let nonce = 0n
  /** `by` (a user's index) signs an order; relayed by users[0] with its maximum fee */
  const signedOrder = async (by: number, o: Pick<SwapOrder, "tokenIn" | "tokenOut" | "amountIn">, route: Route, relayerFee = 0n) => {
    const account = privateKeyToAccount(testAccounts[by]!.privateKey)
    const order: SwapOrder = {
      sender: account.address, recipient: freshAddress(Math.floor(Math.random() * 1e9)), exactOutput: false, amountOut: 0n, maxRelayerFee: relayerFee,
      feeBps: 0, feeRecipient: "0x0000000000000000000000000000000000000000", nonce: ++nonce, deadline: await f.deadline(), ...o,
    }
    const signature = await account.signTypedData(swapOrderTypedData(f.devnet.manifest.chainId, f.executor, order))
    return { order, data: encodeExecuteOrder({ order, signature, permit: null, relayerFee, protocolFeeBps: bps, route }) }
  }

  test("a gasless order is not reentrant: execute from inside the input's pull and the route's transfers fails with Reentrancy; the order fills exactly", async () => {
    const inner = encodeExecute(await params({ tokenIn: USDC, tokenOut: evil, amountIn: 10n ** 9n, route: usdcToEvil() }))
    await setAttack(f.executor, inner)
    const amountIn = 10n ** 20n
    const { amountOut } = splitFees(await f.quoteRoute(evilToUsdc(), amountIn), bps, 0)
    const { order, data } = await signedOrder(2, { tokenIn: evil, tokenOut: USDC, amountIn }, evilToUsdc())
    const victimBefore = await f.balance(USDC, victim)
    const countBefore = (await lastAttack()).count
    expect((await f.send(users[0]!, f.executor, data)).status).toBe("success")
    const attack = await lastAttack()
    expect(attack.count).toBeGreaterThan(countBefore)
    expect(attack.succeeded).toBe(false)
    expect(attack.error?.name).toBe("Reentrancy")
    expect(await f.balance(USDC, order.recipient)).toBe(amountOut)
    expect(await f.balance(USDC, victim)).toBe(victimBefore)
    expect(await f.balance(evil, f.executor)).toBe(0n)
  })

  test("a gasless order's payout is not reentrant: execute from inside the payment of the relayer's fee and the recipient's output fails with Reentrancy", async () => {
    const inner = encodeExecute(await params({ tokenIn: USDC, tokenOut: evil, amountIn: 10n ** 9n, route: usdcToEvil() }))
    await setAttack(f.executor, inner)
    const amountIn = 5_000_000n
    const relayerFee = 1_000n
    const { amountOut } = splitFees(await f.quoteRoute(usdcToEvil(), amountIn), bps, 0)
    const { order, data } = await signedOrder(2, { tokenIn: USDC, tokenOut: evil, amountIn }, usdcToEvil(), relayerFee)
    const victimBefore = await f.balance(USDC, victim)
    const relayerBefore = await f.balance(evil, users[0]!)
    // the last transfer the token makes is the recipient's payment, after the swap has returned
    expect((await f.send(users[0]!, f.executor, data)).status).toBe("success")
    const attack = await lastAttack()
    expect(attack.succeeded).toBe(false)
    expect(attack.error?.name).toBe("Reentrancy")
    expect(await f.balance(evil, order.recipient)).toBe(amountOut - relayerFee)
    expect(await f.balance(evil, users[0]!)).toBe(relayerBefore + relayerFee)
    expect(await f.balance(USDC, victim)).toBe(victimBefore)
    expect(await f.balance(evil, f.executor)).toBe(0n)
  })

  test("executeOrder from inside a swap's transfer fails with Reentrancy, and the inner order's nonce stays unused", async () => {
    const { order: victimOrder, data: inner } = await signedOrder(3, { tokenIn: USDC, tokenOut: evil, amountIn: 10n ** 9n }, usdcToEvil())
    await setAttack(f.executor, inner)
    const p = await params({ tokenIn: evil, tokenOut: USDC, amountIn: 10n ** 18n, route: evilToUsdc() })
    const victimBefore = await f.balance(USDC, victim)
    expect((await f.execute(user, p)).status).toBe("success")
    const attack = await lastAttack()
    expect(attack.succeeded).toBe(false)
    expect(attack.error?.name).toBe("Reentrancy")
    expect(await f.balance(USDC, victim)).toBe(victimBefore)
    expect(await readNonceUsed(f.client, f.executor, victimOrder.sender, victimOrder.nonce)).toBe(false)
  })

  test("a forged V3 swap callback while the executor waits for its pool fails with UnexpectedCallback", async () => {
    // the pool sends EVIL to the executor before calling back: at that moment the executor
    // expects a callback, but from the pool, not from the token
    const steal = encodeFunctionData({
      abi: routeExecutorAbi,
      functionName: "uniswapV3SwapCallback",
      args: [10n ** 9n, 0n, encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint256" }], [USDC, victim, 10n ** 9n])],
    })
    await setAttack(f.executor, steal)
    const amountIn = 5_000_000n
    const route = usdcToEvil()
    const { amountOut } = splitFees(await f.quoteRoute(route, amountIn), bps, 0)
    const p = await params({ tokenIn: USDC, tokenOut: evil, amountIn, route })
    const victimBefore = await f.balance(USDC, victim)
    const countBefore = (await lastAttack()).count
    await f.execute(user, p)
    const attack = await lastAttack()
    expect(attack.count).toBeGreaterThan(countBefore)
    expect(attack.succeeded).toBe(false)
    expect(attack.error).toEqual({ name: "UnexpectedCallback", args: [evil] })
    expect(await f.balance(evil, p.recipient)).toBe(amountOut)
    expect(await f.balance(USDC, victim)).toBe(victimBefore)
  })

  test("a forged unlock callback from inside a transfer fails with UnexpectedCallback", async () => {
    const data = encodeFunctionData({ abi: routeExecutorAbi, functionName: "unlockCallback", args: ["0x"] })
    await setAttack(f.executor, data)
    const p = await params({ tokenIn: evil, tokenOut: USDC, amountIn: 10n ** 18n, route: evilToUsdc() })
    await f.execute(user, p)
    const attack = await lastAttack()
    expect(attack.succeeded).toBe(false)
    expect(attack.error).toEqual({ name: "UnexpectedCallback", args: [evil] })
    await setAttack("0x0000000000000000000000000000000000000000", "0x")
  })
})

describe("callbacks from outside a swap", () => {
  const directError = async (data: Hex) =>
    f.client.call({ account: user, to: f.executor, data }).then(
      () => undefined,
      (e) => decodeExecutorError(revertData(e)!),
    )

  test("uniswapV3SwapCallback from an account", async () => {
    const data = encodeFunctionData({
      abi: routeExecutorAbi,
      functionName: "uniswapV3SwapCallback",
      args: [10n ** 9n, 0n, encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint256" }], [USDC, victim, 10n ** 9n])],
    })
    expect(await directError(data)).toEqual({ name: "UnexpectedCallback", args: [user] })
  })

  test("unlockCallback from an account, and from the PoolManager's address outside a swap", async () => {
    const data = encodeFunctionData({ abi: routeExecutorAbi, functionName: "unlockCallback", args: ["0x"] })
    expect(await directError(data)).toEqual({ name: "UnexpectedCallback", args: [user] })
    const poolManager = f.dex.poolManager
    const fromManager = await f.client.call({ account: poolManager, to: f.executor, data }).then(
      () => undefined,
      (e) => decodeExecutorError(revertData(e)!),
    )
    expect(fromManager).toEqual({ name: "UnexpectedCallback", args: [poolManager] })
  })

  test("the executor holds no allowance and no balance after all of it", async () => {
    const poolManager = f.dex.poolManager
    for (const t of [USDC, evil, f.token("EURC")]) {
      expect(await f.balance(t, f.executor)).toBe(0n)
      expect(await f.allowance(t, f.executor, poolManager)).toBe(0n)
    }
    expect(await f.native(f.executor)).toBe(0n)
  })
})
