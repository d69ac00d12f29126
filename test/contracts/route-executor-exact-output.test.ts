// RouteExecutor.executeExactOutput on the devnet's own pools: the recipient gets exactly the
// amount asked for, net of both fees, and the sender pays exactly what the route needs. The
// expected input is computed independently of the contract: the pools' state as the market
// reads it from the chain at the block the transaction runs on, priced backward with the AMM
// math (V2 getAmountIn, V3 swapExactOutput, V4 swapExactOutputV4, the stable pool's
// getDx/getDy). Every case checks, to the wei, what each party's balance did (sender,
// recipient, fee collector, partner, executor) and that no allowance is left.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, ManagedRuntime } from "effect"
import { decodeEventLog, encodeFunctionData, getAddress, parseAbi, toFunctionSelector, type Address, type Hex, type TransactionReceipt } from "viem"
import { getAmountIn, getDx, getDy, swapExactOutput, swapExactOutputV4, type ConcentratedPoolState, type PoolState, type StablePoolState, type V2PoolState } from "../../src/amm/index.ts"
import { Rpc } from "../../src/chain/index.ts"
import { encodeExecute, routeExecutorAbi, type ExecuteParams } from "../../src/chain/execute-call.ts"
import { encodeExecuteExactOutput, type ExactOutputParams } from "../../src/chain/exact-output-call.ts"
import { encodeRoute, type Route, type RouteHop } from "../../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { grossForNet, splitFees } from "../../src/pricer/index.ts"
import { manifestVenue } from "../../src/devnet/manifest.ts"
import { MarketState } from "../../src/market/index.ts"
import type { Tokens } from "../../src/tokens/index.ts"
import { marketConfig, marketLayer, rpcConfig } from "../market/support.ts"
import { freshAddress, NATIVE, SCALE, setupFixture, USDC, users, type Fixture } from "./executor-fixture.ts"
import type { World } from "../../src/domain/index.ts"

let f: Fixture
let runtime: ManagedRuntime.ManagedRuntime<MarketState | Tokens | Rpc, unknown>
const user = users[0]!
const mover = users[1]!
const erc20 = ownArtifact("TestToken").abi
const BIG = 10n ** 40n
let seed = 0
const fresh = () => freshAddress(7_000 + ++seed)

/** A hop through one of the scenario's pools, and the pool's key in the market's World. */
interface Leg {
  readonly dex: string
  readonly tokenIn: string
  readonly tokenOut: string
  readonly fee?: number
  /** V2: the hop names this executor venue id, registered with this swap fee, instead of the dex's own */
  readonly v2Venue?: { readonly id: number; readonly feeBps: number }
}
const leg = (dex: string, tokenIn: string, tokenOut: string, fee?: number): Leg => ({ dex, tokenIn, tokenOut, ...(fee !== undefined ? { fee } : {}) })
/** the 2-coin stable pool of the scenario (xylonet USDC/USDT) or its 3-coin one (USDC/USDT/DAI) */
const stableLeg = (tokenIn: string, tokenOut: string, coins: 2 | 3 = 2): Leg => ({ dex: "xylonet", tokenIn, tokenOut, fee: coins })

const manifestPool = (l: Leg) => {
  const m = f.devnet.manifest
  if (l.dex === "xylonet") {
    const hit = m.pools.find((p) => p.dex === "xylonet" && p.tokens.length === l.fee)
    if (!hit) throw new Error(`no xylonet pool of ${l.fee} coins`)
    return hit
  }
  return f.pool(l.dex, l.tokenIn, l.tokenOut, l.fee)
}

beforeAll(async () => {
  f = await setupFixture()
  runtime = ManagedRuntime.make(marketLayer(Rpc.layer(rpcConfig(f.devnet.manifest)), marketConfig(f.devnet.manifest)))
  for (const p of f.devnet.manifest.pools.filter((p) => p.dex === "xylonet")) {
    expect((await f.ownerWrite("setStablePool", [getAddress(p.pool), true])).status).toBe("success")
  }
  for (const s of ["EURC", "USDT", "cirBTC", "WBTC", "WETH", "DAI"]) {
    await f.mint(s, user, 10n ** 30n)
    await f.mint(s, mover, 10n ** 30n)
    await f.approve(user, f.token(s), BIG)
    await f.approve(mover, f.token(s), BIG)
  }
  await f.approve(user, USDC, BIG)
  await f.approve(mover, USDC, BIG)
}, 180_000)
afterAll(async () => {
  await runtime?.dispose()
  await f?.stop()
})

const stateAbi = parseAbi([
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)",
  "function liquidity() view returns (uint128)",
  "function getSlot0(bytes32) view returns (uint160, int24, uint24, uint24)",
  "function getLiquidity(bytes32) view returns (uint128)",
  "function balances(uint256) view returns (uint256)",
])

/** Whether the World's state of the pool under `l` is what the chain holds at the World's block (price, liquidity, reserves, balances). */
const current = async (w: World, l: Leg): Promise<boolean> => {
  const state = poolState(w, l)
  const read = (functionName: string, args: readonly unknown[] = [], address: Address = state.id as Address) =>
    f.client.readContract({ address, abi: stateAbi, functionName, args, blockNumber: w.blockNumber } as never) as Promise<unknown>
  if (state.kind === "uniswap-v2") {
    const [r0, r1] = (await read("getReserves")) as readonly bigint[]
    return r0 === state.reserve0 && r1 === state.reserve1
  }
  if (state.kind === "curve-stableswap") {
    for (const [k, b] of state.balances.entries()) if ((await read("balances", [BigInt(k)])) !== b) return false
    return true
  }
  const stateView = getAddress(manifestVenue(f.devnet.manifest, "uniswap-v4", "uniswap-v4").stateView)
  const [price] = (state.kind === "uniswap-v3" ? await read("slot0") : await read("getSlot0", [state.id], stateView)) as readonly bigint[]
  const liquidity = state.kind === "uniswap-v3" ? await read("liquidity") : await read("getLiquidity", [state.id], stateView)
  return price === state.sqrtPriceX96 && liquidity === state.liquidity
}

/**
 * The market's World at the chain's head, checked against the chain: its state of the pools
 * under `legs` is the chain's at its block. The head is read past viem's cache (the client
 * keeps a block number for its polling interval: a block mined within it would be missed).
 */
const world = async (legs: readonly Leg[] = []): Promise<World> => {
  const head = await f.client.getBlockNumber({ cacheTime: 0 })
  const w = await runtime.runPromise(Effect.flatMap(MarketState, (m) => m.awaitBlock(head)))
  expect(w.blockNumber).toBe(head)
  expect(await Promise.all(legs.map((l) => current(w, l)))).toEqual(legs.map(() => true))
  return w
}
const poolState = (w: World, l: Leg): PoolState => {
  const pool = manifestPool(l)
  // a V4 pool's market key is its id at its PoolManager
  const id = pool.pool.length === 66 ? `${pool.pool.toLowerCase()}@${f.dex.poolManager.toLowerCase()}` : pool.pool.toLowerCase()
  const state = w.pools.get(id)
  if (!state) throw new Error(`the market has no pool ${id} (${l.dex} ${l.tokenIn}/${l.tokenOut})`)
  return state
}
const lower = (a: string) => a.toLowerCase()
/** pool token of a symbol: USDC is always the ERC-20 in a route */
const tokenOf = (symbol: string): Address => (symbol === "USDC" ? USDC : f.token(symbol))

/** What the executor's stable hop does from its hint: get_dy, raised at most four times. */
const stableInput = (pool: StablePoolState, i: number, j: number, hint: bigint, amountOut: bigint): bigint => {
  const dy = (dx: bigint) => {
    try {
      return getDy(pool, i, j, dx)
    } catch {
      return 0n
    }
  }
  let dx = hint
  let y = dy(dx)
  for (let k = 0; k < 4 && y < amountOut; k++) {
    dx = y === 0n ? dx * 2n : dx + ((amountOut - y) * dx + y - 1n) / y + 1n
    y = dy(dx)
  }
  if (y < amountOut) throw new Error("the stable hop cannot pay")
  return dx
}

interface Plan {
  readonly route: Route
  /** what the first hops take from the payer, in pool units */
  readonly input: bigint
  /** what stable hops pay above their output, by lower-case token: it goes to the sender */
  readonly surplus: Map<string, bigint>
}

/**
 * Prices each split backward on `w`: the last hop's input for the split's output, the hop
 * before it for that input, and so on. `hints` gives the kind-6 hops' dxHint (by split and
 * hop) of an earlier plan; without it the hint is the least input (getDx).
 */
const plan = (w: World, splits: readonly (readonly Leg[])[], shares: readonly number[], units: bigint, hints?: Route): Plan => {
  const surplus = new Map<string, bigint>()
  let input = 0n
  let left = units
  const route = splits.map((legs, s) => {
    let amount = s === splits.length - 1 ? left : (units * BigInt(shares[s]!)) / 10_000n
    left -= amount
    const hops: RouteHop[] = []
    for (let h = legs.length - 1; h >= 0; h--) {
      const l = legs[h]!
      const tokenIn = tokenOf(l.tokenIn)
      const tokenOut = tokenOf(l.tokenOut)
      const zeroForOne = lower(tokenIn) < lower(tokenOut)
      const state = poolState(w, l)
      if (state.kind === "uniswap-v2") {
        const v2 = state as V2PoolState
        const [rIn, rOut] = zeroForOne ? [v2.reserve0, v2.reserve1] : [v2.reserve1, v2.reserve0]
        const hop = f.hop(l.dex, l.tokenIn, l.tokenOut)
        hops.unshift(l.v2Venue && hop.kind === "v2" ? { ...hop, venue: l.v2Venue.id } : hop)
        amount = getAmountIn(amount, rIn, rOut, l.v2Venue?.feeBps ?? v2.feeBps)
      } else if (state.kind === "uniswap-v3" || state.kind === "uniswap-v4") {
        const swap = (state.kind === "uniswap-v3" ? swapExactOutput : swapExactOutputV4)(state as ConcentratedPoolState, zeroForOne, amount)
        if (!swap.ok) throw new Error(`${l.dex} ${l.tokenIn}->${l.tokenOut} cannot pay ${amount}: ${swap.reason}`)
        hops.unshift(f.hop(l.dex, l.tokenIn, l.tokenOut, l.fee))
        amount = swap.amountIn
      } else {
        const stable = state as StablePoolState
        const i = stable.coins.findIndex((c) => lower(c) === lower(tokenIn))
        const j = stable.coins.findIndex((c) => lower(c) === lower(tokenOut))
        const earlier = hints?.[s]?.hops[h]
        const dxHint = earlier?.kind === "stableExactOutput" ? earlier.dxHint : getDx(stable, i, j, amount)
        const dx = stableInput(stable, i, j, dxHint, amount)
        surplus.set(lower(tokenOut), (surplus.get(lower(tokenOut)) ?? 0n) + getDy(stable, i, j, dx) - amount)
        hops.unshift({ kind: "stableExactOutput", tokenIn, tokenOut, pool: getAddress(stable.id), dxHint })
        amount = dx
      }
    }
    input += amount
    return { shareBps: shares[s]!, hops }
  })
  return { route, input, surplus }
}

/** Balances of the accounts in every token (USDC as native wei: the ERC-20 is the same balance). */
const holdings = async (accounts: readonly Address[], tokens: readonly Address[]) => {
  const out: Record<string, Record<string, bigint>> = {}
  for (const a of accounts) {
    const row: Record<string, bigint> = { native: await f.native(a) }
    for (const t of tokens) if (lower(t) !== lower(USDC)) row[lower(t)] = await f.balance(t, a)
    out[a] = row
  }
  return out
}

interface Case {
  readonly tokenIn: string // a symbol, or "native"
  readonly tokenOut: string
  readonly amountOut: bigint
  readonly splits: readonly (readonly Leg[])[]
  readonly shares?: readonly number[]
  readonly feeBps?: number
  /** added to the exact maxAmountIn (wei for native input) */
  readonly slack?: bigint
  /** runs between planning and sending (a trade that moves a pool) */
  readonly between?: () => Promise<void>
}

const gasCost = (r: TransactionReceipt) => r.gasUsed * r.effectiveGasPrice

/** Plans, sends and checks one exact-output swap; returns what it measured. */
const run = async (c: Case) => {
  const protocolBps = await f.protocolFeeBps()
  const feeBps = c.feeBps ?? 0
  const nativeIn = c.tokenIn === "native"
  const nativeOut = c.tokenOut === "native"
  const poolIn = nativeIn ? USDC : tokenOf(c.tokenIn)
  const poolOut = nativeOut ? USDC : tokenOf(c.tokenOut)
  const gross = grossForNet(c.amountOut, { protocolBps, partnerBps: feeBps })
  const fees = splitFees(gross, { protocolBps, partnerBps: feeBps })
  const units = nativeOut ? (gross + SCALE - 1n) / SCALE : gross
  const shares = c.shares ?? [10_000]
  const planned = plan(await world(c.splits.flat()), c.splits, shares, units)
  const slack = c.slack ?? 0n
  const maxAmountIn = (nativeIn ? planned.input * SCALE : planned.input) + slack
  const recipient = fresh()
  const partner = fresh()
  const params: ExactOutputParams = {
    tokenIn: nativeIn ? NATIVE : poolIn,
    tokenOut: nativeOut ? NATIVE : poolOut,
    amountOut: c.amountOut,
    maxAmountIn,
    recipient,
    deadline: await f.deadline(),
    feeBps,
    ...(feeBps !== 0 ? { feeRecipient: partner } : {}),
    protocolFeeBps: protocolBps,
    route: planned.route,
  }
  if (c.between) await c.between()
  // what the route needs at the block it runs on (the route's hints are the plan's)
  const needed = c.between ? plan(await world(c.splits.flat()), c.splits, shares, units, planned.route) : planned
  const paid = nativeIn ? needed.input * SCALE : needed.input
  expect(await f.simulateExactOutput(user, params)).toBe(paid)

  const tokens = [...new Set([poolIn, poolOut, ...planned.route.flatMap((s) => s.hops.map((h) => h.tokenOut))])]
  const accounts = [user, recipient, partner, f.feeCollector, f.executor]
  const before = await holdings(accounts, tokens)
  const receipt = await f.executeExactOutput(user, params)
  expect(receipt.status).toBe("success")
  const after = await holdings(accounts, tokens)

  // every change, to the wei (USDC in wei)
  const wei = (token: Address, amount: bigint) => (lower(token) === lower(USDC) ? amount * SCALE : amount)
  const key = (token: Address) => (lower(token) === lower(USDC) ? "native" : lower(token))
  const expected: Record<string, Record<string, bigint>> = Object.fromEntries(accounts.map((a) => [a, Object.fromEntries(Object.keys(before[a]!).map((k) => [k, 0n]))]))
  const add = (account: Address, k: string, amount: bigint) => {
    expected[account]![k] = (expected[account]![k] ?? 0n) + amount
  }
  add(user, "native", -gasCost(receipt))
  add(user, key(poolIn), nativeIn ? -paid : -wei(poolIn, paid))
  for (const [t, amount] of needed.surplus) add(user, key(t as Address), wei(t as Address, amount))
  const outWei = (amount: bigint) => (nativeOut ? amount : wei(poolOut, amount))
  add(recipient, key(poolOut), outWei(fees.amountOut))
  add(f.feeCollector, key(poolOut), outWei(fees.protocolAmount))
  add(partner, key(poolOut), outWei(fees.partnerAmount))
  if (nativeOut) add(user, "native", units * SCALE - gross)
  const delta = Object.fromEntries(accounts.map((a) => [a, Object.fromEntries(Object.keys(before[a]!).map((k) => [k, after[a]![k]! - before[a]![k]!]))]))
  expect(delta).toEqual(expected)

  // no allowance left to any pool the executor approves (stable pools)
  for (const split of planned.route) {
    for (const h of split.hops) if (h.kind === "stableExactOutput") expect(await f.allowance(h.tokenIn, f.executor, h.pool)).toBe(0n)
  }
  // the Swap event: what the sender paid, what the recipient received
  const swap = receipt.logs
    .filter((l) => lower(l.address) === lower(f.executor))
    .map((l) => {
      try {
        return decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics })
      } catch {
        return undefined
      }
    })
    .find((e) => e?.eventName === "Swap")
  expect(swap?.args).toMatchObject({ sender: user, recipient, amountIn: paid, amountOut: fees.amountOut, protocolAmount: fees.protocolAmount, partnerAmount: fees.partnerAmount })
  return { params, paid, gross, fees, receipt, planned }
}

describe("one hop of each kind", () => {
  test("V2 (uniswap-v2, 30 bps): EURC -> USDC", async () => {
    await run({ tokenIn: "EURC", tokenOut: "USDC", amountOut: 12_345_678n, splits: [[leg("uniswap-v2", "EURC", "USDC")]] })
  })
  test("V2 of another venue (arcade-v2): EURC -> USDC, with a partner fee", async () => {
    await run({ tokenIn: "EURC", tokenOut: "USDC", amountOut: 9_876_543n, feeBps: 25, splits: [[leg("arcade-v2", "EURC", "USDC")]] })
  })
  test("V2 at another fee: the pairs of uniswap-v2 registered again as a 50 bps venue; the pair keeps what its own 30 bps did not need", async () => {
    const [, factory, initCodeHash] = (await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "venue", args: [f.venueId("uniswap-v2")] })) as readonly [number, Address, Hex, number]
    const id = 220
    expect((await f.ownerWrite("setVenue", [id, 1, factory, initCodeHash, 50])).status).toBe("success")
    await run({ tokenIn: "USDT", tokenOut: "WETH", amountOut: 10n ** 16n, splits: [[{ ...leg("uniswap-v2", "USDT", "WETH"), v2Venue: { id, feeBps: 50 } }]] })
  })
  test("V3: cirBTC -> WBTC", async () => {
    await run({ tokenIn: "cirBTC", tokenOut: "WBTC", amountOut: 1_234_567n, splits: [[leg("uniswap-v3", "cirBTC", "WBTC", 500)]] })
  })
  test("V4: USDT -> EURC", async () => {
    await run({ tokenIn: "USDT", tokenOut: "EURC", amountOut: 50_000_001n, splits: [[leg("uniswap-v4", "USDT", "EURC", 500)]] })
  })
  test("stable (kind 6): USDT -> DAI in the 3-coin pool; what the pool pays above the output goes to the sender", async () => {
    const { planned } = await run({ tokenIn: "USDT", tokenOut: "DAI", amountOut: 77_000_000_000_000_000_123n, splits: [[stableLeg("USDT", "DAI", 3)]] })
    expect(planned.surplus.size).toBe(1)
  })
})

describe("several hops, run backward", () => {
  test("V3 -> V3 (a V3 callback runs the previous pool's swap): WBTC -> cirBTC -> EURC", async () => {
    await run({ tokenIn: "WBTC", tokenOut: "EURC", amountOut: 3_000_000_000n, splits: [[leg("uniswap-v3", "WBTC", "cirBTC", 500), leg("uniswap-v3", "cirBTC", "EURC", 3000)]] })
  })
  test("V2 after V3 (the V3 pool pays straight into the pair): EURC -> USDC -> USDT", async () => {
    await run({ tokenIn: "EURC", tokenOut: "USDT", amountOut: 25_000_000n, splits: [[leg("uniswap-v3", "EURC", "USDC", 500), leg("uniswap-v2", "USDC", "USDT")]] })
  })
  test("V4 -> V4 of one venue (one unlock): cirBTC -> USDC -> EURC", async () => {
    await run({ tokenIn: "cirBTC", tokenOut: "EURC", amountOut: 40_000_000n, splits: [[leg("uniswap-v4", "cirBTC", "USDC", 3000), leg("uniswap-v4", "USDC", "EURC", 100)]] })
  })
  test("three hops, stable in the middle: EURC -(V3)-> USDC -(stable)-> USDT -(V2)-> WETH", async () => {
    await run({
      tokenIn: "EURC",
      tokenOut: "WETH",
      amountOut: 10n ** 16n + 7n,
      splits: [[leg("uniswap-v3", "EURC", "USDC", 500), stableLeg("USDC", "USDT"), leg("uniswap-v2", "USDT", "WETH")]],
    })
  })
  test("three hops V3 -> V4 -> V2: WBTC -> cirBTC -> WETH -> USDT", async () => {
    await run({
      tokenIn: "WBTC",
      tokenOut: "USDT",
      amountOut: 30_000_000n,
      splits: [[leg("uniswap-v3", "WBTC", "cirBTC", 500), leg("uniswap-v4", "cirBTC", "WETH", 3000), leg("uniswap-v2", "WETH", "USDT")]],
    })
  })
  test("V2 -> V4 and V4 -> V3: the PoolManager is paid by the pair, the V3 pool by the PoolManager", async () => {
    await run({ tokenIn: "WETH", tokenOut: "EURC", amountOut: 5_000_000n, splits: [[leg("uniswap-v2", "WETH", "USDT"), leg("uniswap-v4", "USDT", "EURC", 500)]] })
    await run({ tokenIn: "USDT", tokenOut: "USDC", amountOut: 5_000_000n, splits: [[leg("uniswap-v4", "USDT", "EURC", 500), leg("uniswap-v3", "EURC", "USDC", 500)]] })
  })
})

describe("one PoolManager twice in a split, another hop between", () => {
  test("V4 -> V3 -> V4 of one venue: the first run goes on inside the last one's unlock: USDT -> EURC -> USDC -> cirBTC", async () => {
    await run({
      tokenIn: "USDT",
      tokenOut: "cirBTC",
      amountOut: 100_000n,
      splits: [[leg("uniswap-v4", "USDT", "EURC", 500), leg("uniswap-v3", "EURC", "USDC", 500), leg("uniswap-v4", "USDC", "cirBTC", 3000)]],
    })
  })
  test("V4 -> V2 -> V4 of one venue: cirBTC -> USDC -> EURC -> USDT", async () => {
    await run({
      tokenIn: "cirBTC",
      tokenOut: "USDT",
      amountOut: 3_000_000n,
      splits: [[leg("uniswap-v4", "cirBTC", "USDC", 3000), leg("uniswap-v2", "USDC", "EURC"), leg("uniswap-v4", "EURC", "USDT", 500)]],
    })
  })
})

describe("splits: shares of the gross output", () => {
  test("two splits: V2 and V3, EURC -> USDC, with a partner fee", async () => {
    await run({
      tokenIn: "EURC",
      tokenOut: "USDC",
      amountOut: 100_000_003n,
      feeBps: 30,
      shares: [6_000, 4_000],
      splits: [[leg("uniswap-v2", "EURC", "USDC")], [leg("uniswap-v3", "EURC", "USDC", 500)]],
    })
  })
  test("four splits over four venues (and the stable pool): USDT -> USDC", async () => {
    await run({
      tokenIn: "USDT",
      tokenOut: "USDC",
      amountOut: 200_000_000n,
      shares: [2_500, 2_500, 3_000, 2_000],
      splits: [[leg("uniswap-v2", "USDT", "USDC")], [leg("arcade-v2", "USDT", "USDC")], [leg("synthra-v3", "USDT", "USDC", 100)], [stableLeg("USDT", "USDC")]],
    })
  })
})

describe("native USDC", () => {
  test("native in: msg.value is maxAmountIn; what the route did not use, the sub-unit dust included, comes back", async () => {
    await run({ tokenIn: "native", tokenOut: "EURC", amountOut: 20_000_000n, slack: 3n * SCALE + 123_456_789n, splits: [[leg("uniswap-v3", "USDC", "EURC", 500)]] })
  })
  test("native in through a stable hop first: the executor pays the pool from the value", async () => {
    await run({ tokenIn: "native", tokenOut: "USDT", amountOut: 30_000_000n, slack: 999n, splits: [[stableLeg("USDC", "USDT")]] })
  })
  test("native in, exactly enough: nothing comes back", async () => {
    await run({ tokenIn: "native", tokenOut: "USDT", amountOut: 7_000_000n, splits: [[leg("uniswap-v2", "USDC", "USDT")]] })
  })
  test("native out: the route delivers ceil(gross / 1e12) units; the wei above the gross go to the sender", async () => {
    const { gross } = await run({ tokenIn: "EURC", tokenOut: "native", amountOut: 1_234_567_890_123_456_789n, feeBps: 10, splits: [[leg("uniswap-v3", "EURC", "USDC", 500)]] })
    expect(gross % SCALE).not.toBe(0n)
  })
})

describe("fees", () => {
  test("a partner fee and no protocol fee", async () => {
    const live = await f.protocolFeeBps()
    expect((await f.ownerWrite("setProtocolFeeBps", [0])).status).toBe("success")
    try {
      const { fees } = await run({ tokenIn: "USDT", tokenOut: "EURC", amountOut: 10_000_000n, feeBps: 100, splits: [[leg("uniswap-v4", "USDT", "EURC", 500)]] })
      expect(fees.protocolAmount).toBe(0n)
      expect(fees.partnerAmount).toBeGreaterThan(0n)
    } finally {
      await f.ownerWrite("setProtocolFeeBps", [live])
    }
  })
  test("the gross is grossForNet's, the least whose net reaches amountOut (net is not monotone): 60 outputs by eth_call", async () => {
    const protocolBps = await f.protocolFeeBps()
    const feeBps = 100
    const rates = { protocolBps, partnerBps: feeBps }
    const l = leg("uniswap-v2", "WETH", "USDT")
    const w = await world([l])
    let dips = 0
    for (let k = 0; k < 60; k++) {
      const amountOut = 1_000_000n + BigInt(k) * 9_901n + BigInt(k % 7)
      const gross = grossForNet(amountOut, rates)
      // where the estimate from above is not the least, the scan below it mattered
      if (gross < (amountOut * 10_000n + BigInt(10_000 - protocolBps - feeBps) - 1n) / BigInt(10_000 - protocolBps - feeBps)) dips++
      expect(splitFees(gross, rates).amountOut).toBeGreaterThanOrEqual(amountOut)
      expect(splitFees(gross - 1n, rates).amountOut).toBeLessThan(amountOut)
      const p = plan(w, [[l]], [10_000], gross)
      const params: ExactOutputParams = {
        tokenIn: f.token("WETH"),
        tokenOut: f.token("USDT"),
        amountOut,
        maxAmountIn: p.input,
        recipient: fresh(),
        deadline: await f.deadline(),
        feeBps,
        feeRecipient: fresh(),
        protocolFeeBps: protocolBps,
        route: p.route,
      }
      expect(await f.simulateExactOutput(user, params)).toBe(p.input)
      // a unit of gross more or less needs another input (a USDT unit costs many WETH wei): the contract asked for exactly this gross
      expect(plan(w, [[l]], [10_000], gross - 1n).input).toBeLessThan(p.input)
      expect(plan(w, [[l]], [10_000], gross + 1n).input).toBeGreaterThan(p.input)
    }
    expect(dips).toBeGreaterThan(0)
  })
})

describe("the sender's maximum", () => {
  const exact = async (c: Case) => {
    const protocolBps = await f.protocolFeeBps()
    const gross = grossForNet(c.amountOut, { protocolBps, partnerBps: c.feeBps ?? 0 })
    const units = c.tokenOut === "native" ? (gross + SCALE - 1n) / SCALE : gross
    const p = plan(await world(c.splits.flat()), c.splits, c.shares ?? [10_000], units)
    const nativeIn = c.tokenIn === "native"
    const params: ExactOutputParams = {
      tokenIn: nativeIn ? NATIVE : tokenOf(c.tokenIn),
      tokenOut: c.tokenOut === "native" ? NATIVE : tokenOf(c.tokenOut),
      amountOut: c.amountOut,
      maxAmountIn: nativeIn ? p.input * SCALE : p.input,
      recipient: fresh(),
      deadline: await f.deadline(),
      feeBps: 0,
      protocolFeeBps: protocolBps,
      route: p.route,
    }
    return params
  }

  test("one unit too small: Slippage(needed, maxAmountIn), also with several splits", async () => {
    const c: Case = { tokenIn: "EURC", tokenOut: "USDC", amountOut: 50_000_000n, shares: [5_000, 5_000], splits: [[leg("uniswap-v2", "EURC", "USDC")], [leg("uniswap-v3", "EURC", "USDC", 500)]] }
    const params = await exact(c)
    expect(await f.simulateExactOutput(user, params)).toBe(params.maxAmountIn)
    expect(await f.executeExactOutputError(user, { ...params, maxAmountIn: params.maxAmountIn - 1n })).toEqual({
      name: "Slippage",
      args: [params.maxAmountIn, params.maxAmountIn - 1n],
      reason: "Slippage",
    })
  })

  test("native in one wei below the whole units needed: Slippage in wei; mined, it moves nothing", async () => {
    const params = await exact({ tokenIn: "native", tokenOut: "EURC", amountOut: 5_000_000n, splits: [[leg("uniswap-v3", "USDC", "EURC", 500)]] })
    const short = { ...params, maxAmountIn: params.maxAmountIn - 1n }
    expect(await f.executeExactOutputError(user, short)).toEqual({ name: "Slippage", args: [params.maxAmountIn, params.maxAmountIn - 1n], reason: "Slippage" })
    const before = await f.native(user)
    const r = await f.executeExactOutput(user, short)
    expect(r.status).toBe("reverted")
    expect(await f.native(user)).toBe(before - gasCost(r))
    expect(await f.balance(f.token("EURC"), short.recipient)).toBe(0n)
  })

  test("a kind-6 hop that cannot reach its output in four corrections (more than the pool holds): Slippage", async () => {
    const pool = getAddress(manifestPool(stableLeg("USDT", "USDC")).pool)
    const amountOut = 10n ** 19n
    const route: Route = [{ shareBps: 10_000, hops: [{ kind: "stableExactOutput", tokenIn: f.token("USDT"), tokenOut: USDC, pool, dxHint: 1_000_000n }] }]
    const params: ExactOutputParams = { tokenIn: f.token("USDT"), tokenOut: USDC, amountOut, maxAmountIn: 10n ** 30n, recipient: fresh(), deadline: await f.deadline(), feeBps: 0, protocolFeeBps: await f.protocolFeeBps(), route }
    const error = await f.executeExactOutputError(user, params)
    expect(error.name).toBe("Slippage")
    expect(error.args[1]).toBe(grossForNet(amountOut, { protocolBps: params.protocolFeeBps, partnerBps: 0 }))
  })
})

describe("a price that moved between planning and sending", () => {
  // the mover sells the output token's side of the pool first: the route needs more input
  const moveV3 = async () => {
    const p: ExecuteParams = {
      tokenIn: f.token("WBTC"),
      tokenOut: f.token("cirBTC"),
      amountIn: 20_000_000n,
      minAmountOut: 0n,
      recipient: mover,
      deadline: await f.deadline(),
      feeBps: 0,
      protocolFeeBps: await f.protocolFeeBps(),
      route: [{ shareBps: 10_000, hops: [f.hop("uniswap-v3", "WBTC", "cirBTC", 500)] }],
    }
    expect((await f.execute(mover, p)).status).toBe("success")
  }
  const moveStable = async () => {
    const p: ExecuteParams = {
      tokenIn: f.token("USDT"),
      tokenOut: USDC,
      amountIn: 300_000_000_000n,
      minAmountOut: 0n,
      recipient: mover,
      deadline: await f.deadline(),
      feeBps: 0,
      protocolFeeBps: await f.protocolFeeBps(),
      route: [{ shareBps: 10_000, hops: [{ kind: "stable", tokenIn: f.token("USDT"), tokenOut: USDC, pool: getAddress(manifestPool(stableLeg("USDT", "USDC")).pool) }] }],
    }
    expect((await f.execute(mover, p)).status).toBe("success")
  }

  test("V3: the recipient still gets exactly amountOut; the sender pays what the moved pool asks, within its maximum", async () => {
    const { paid, planned } = await run({
      tokenIn: "WBTC",
      tokenOut: "cirBTC",
      amountOut: 2_000_000n,
      slack: 1_000_000n,
      between: moveV3,
      splits: [[leg("uniswap-v3", "WBTC", "cirBTC", 500)]],
    })
    expect(paid).toBeGreaterThan(planned.input)
  })

  test("stable (kind 6): the hint is stale; the executor raises dx until get_dy pays the output", async () => {
    const { paid, planned } = await run({
      tokenIn: "USDT",
      tokenOut: "USDC",
      amountOut: 50_000_000_000n,
      slack: 10_000_000_000n,
      between: moveStable,
      splits: [[stableLeg("USDT", "USDC")]],
    })
    expect(paid).toBeGreaterThan(planned.input)
  })
})

describe("refused", () => {
  const base = async (): Promise<ExactOutputParams> => ({
    tokenIn: f.token("EURC"),
    tokenOut: USDC,
    amountOut: 1_000_000n,
    maxAmountIn: 10_000_000n,
    recipient: fresh(),
    deadline: await f.deadline(),
    feeBps: 0,
    protocolFeeBps: await f.protocolFeeBps(),
    route: [{ shareBps: 10_000, hops: [f.hop("uniswap-v2", "EURC", "USDC")] }],
  })

  test("an exact-input stable hop (kind 5) or an external hop in an exact-output route: InvalidRoute(Malformed)", async () => {
    const pool = getAddress(manifestPool(stableLeg("USDT", "USDC")).pool)
    const stable = encodeRoute([{ shareBps: 10_000, hops: [{ kind: "stable", tokenIn: f.token("USDT"), tokenOut: USDC, pool }] }])
    expect(await f.executeExactOutputError(user, { ...(await base()), tokenIn: f.token("USDT"), route: stable })).toMatchObject({ name: "InvalidRoute", fault: "Malformed" })
    const external = encodeRoute([{ shareBps: 10_000, hops: [{ kind: "external", tokenIn: f.token("EURC"), tokenOut: USDC, router: fresh(), data: "0x" }] }])
    expect(await f.executeExactOutputError(user, { ...(await base()), route: external })).toMatchObject({ name: "InvalidRoute", fault: "Malformed" })
  })

  test("kind 6 in execute: InvalidRoute(Malformed)", async () => {
    const pool = getAddress(manifestPool(stableLeg("USDT", "USDC")).pool)
    const route = encodeRoute([{ shareBps: 10_000, hops: [{ kind: "stableExactOutput", tokenIn: f.token("USDT"), tokenOut: USDC, pool, dxHint: 1_000_000n }] }], "exactOutput")
    const p: ExecuteParams = { tokenIn: f.token("USDT"), tokenOut: USDC, amountIn: 1_000_000n, minAmountOut: 0n, recipient: fresh(), deadline: await f.deadline(), feeBps: 0, protocolFeeBps: await f.protocolFeeBps(), route }
    expect(await f.executeError(user, p)).toMatchObject({ name: "InvalidRoute", fault: "Malformed" })
  })

  test("amountOut 0, an amount of 2^128, tokenIn = tokenOut, a value that is not maxAmountIn: refused", async () => {
    const p = await base()
    expect(await f.executeExactOutputError(user, { ...p, amountOut: 0n })).toMatchObject({ name: "InvalidValue" })
    expect(await f.executeExactOutputError(user, { ...p, amountOut: 1n << 128n })).toMatchObject({ name: "InvalidValue" })
    expect(await f.executeExactOutputError(user, { ...p, maxAmountIn: 1n << 128n })).toMatchObject({ name: "InvalidValue" })
    expect(await f.executeExactOutputError(user, p, 1n)).toMatchObject({ name: "InvalidValue" })
    expect(await f.executeExactOutputError(user, { ...p, tokenIn: NATIVE, maxAmountIn: 10n ** 18n, route: [{ shareBps: 10_000, hops: [f.hop("uniswap-v2", "USDC", "EURC")] }], tokenOut: f.token("EURC") }, 10n ** 18n - 1n)).toMatchObject({ name: "InvalidValue" })
    expect(await f.executeExactOutputError(user, { ...p, tokenOut: p.tokenIn, route: encodeRoute(p.route as Route, "exactOutput") })).toMatchObject({ name: "InvalidRoute", fault: "TokenChain" })
  })

  test("deadline, stale protocol fee, partner fee above the maximum, recipients: as execute", async () => {
    const p = await base()
    const block = await f.client.getBlock()
    expect(await f.executeExactOutputError(user, { ...p, deadline: block.timestamp - 1n })).toMatchObject({ name: "Expired" })
    expect(await f.executeExactOutputError(user, { ...p, protocolFeeBps: p.protocolFeeBps + 1 })).toMatchObject({ name: "StaleFeeConfig" })
    expect(await f.executeExactOutputError(user, { ...p, feeBps: 101, feeRecipient: fresh() })).toMatchObject({ name: "InvalidConfig", fault: "PartnerFee" })
    expect(await f.executeExactOutputError(user, { ...p, recipient: f.executor })).toMatchObject({ name: "InvalidConfig", fault: "Recipient" })
    expect(await f.executeExactOutputError(user, { ...p, feeBps: 10 })).toMatchObject({ name: "InvalidConfig", fault: "FeeRecipient" })
  })

  test("paused: Paused; unpaused, the same swap runs", async () => {
    const p = await base()
    expect((await f.ownerWrite("pause", [])).status).toBe("success")
    try {
      expect(await f.executeExactOutputError(user, p)).toEqual({ name: "Paused", args: [], reason: "Paused" })
    } finally {
      expect((await f.ownerWrite("unpause", [])).status).toBe("success")
    }
    expect((await f.executeExactOutput(user, p)).status).toBe("success")
  })
})

describe("reentrancy", () => {
  const evilAbi = ownArtifact("MaliciousReentrantToken").abi
  test("execute and executeExactOutput from inside a token transfer of executeExactOutput fail with Reentrancy; the outer swap pays exactly", async () => {
    const evil = await f.deploy("MaliciousReentrantToken")
    const mintEvil = (to: Address, amount: bigint) => f.send(f.owner, evil, encodeFunctionData({ abi: evilAbi, functionName: "mint", args: [to, amount] }))
    const v2 = uniswapArtifact("UniswapV2Factory")
    await f.send(f.owner, f.dex.v2Factory, encodeFunctionData({ abi: v2.abi, functionName: "createPair", args: [evil, USDC] }))
    const pair = (await f.client.readContract({ address: f.dex.v2Factory, abi: v2.abi, functionName: "getPair", args: [evil, USDC] })) as Address
    await mintEvil(pair, 10n ** 24n)
    await f.send(f.owner, USDC, encodeFunctionData({ abi: erc20, functionName: "transfer", args: [pair, 10n ** 12n] }))
    await f.send(f.owner, pair, encodeFunctionData({ abi: uniswapArtifact("UniswapV2Pair").abi, functionName: "mint", args: [f.owner] }))
    await mintEvil(user, 10n ** 24n)
    await f.send(user, evil, encodeFunctionData({ abi: evilAbi, functionName: "approve", args: [f.executor, BIG] }))

    const route: Route = [{ shareBps: 10_000, hops: [{ kind: "v2", venue: f.venueId("uniswap-v2"), tokenIn: evil, tokenOut: USDC }] }]
    const protocolFeeBps = await f.protocolFeeBps()
    const deadline = await f.deadline()
    const inner: Hex[] = [
      encodeExecuteExactOutput({ tokenIn: USDC, tokenOut: evil, amountOut: 10n ** 18n, maxAmountIn: 10n ** 9n, recipient: mover, deadline, feeBps: 0, protocolFeeBps, route: [{ shareBps: 10_000, hops: [{ kind: "v2", venue: f.venueId("uniswap-v2"), tokenIn: USDC, tokenOut: evil }] }] }),
      encodeExecute({ tokenIn: USDC, tokenOut: evil, amountIn: 10n ** 6n, minAmountOut: 0n, recipient: mover, deadline, feeBps: 0, protocolFeeBps, route: [{ shareBps: 10_000, hops: [{ kind: "v2", venue: f.venueId("uniswap-v2"), tokenIn: USDC, tokenOut: evil }] }] }),
    ]
    for (const data of inner) {
      await f.send(user, evil, encodeFunctionData({ abi: evilAbi, functionName: "setAttack", args: [f.executor, data] }))
      const countBefore = (await f.client.readContract({ address: evil, abi: evilAbi, functionName: "attackCount" })) as bigint
      const recipient = fresh()
      const amountOut = 3_000_000n
      const r = await f.executeExactOutput(user, { tokenIn: evil, tokenOut: USDC, amountOut, maxAmountIn: 10n ** 22n, recipient, deadline, feeBps: 0, protocolFeeBps, route })
      expect(r.status).toBe("success")
      expect((await f.client.readContract({ address: evil, abi: evilAbi, functionName: "attackCount" })) as bigint).toBeGreaterThan(countBefore)
      expect(await f.client.readContract({ address: evil, abi: evilAbi, functionName: "lastAttackSucceeded" })).toBe(false)
      const result = (await f.client.readContract({ address: evil, abi: evilAbi, functionName: "lastAttackResult" })) as Hex
      expect(result).toBe(toFunctionSelector("Reentrancy()"))
      expect(await f.balance(USDC, recipient)).toBe(splitFees(grossForNet(amountOut, { protocolBps: protocolFeeBps, partnerBps: 0 }), { protocolBps: protocolFeeBps, partnerBps: 0 }).amountOut)
      expect(await f.balance(evil, f.executor)).toBe(0n)
    }
  })
})
