// Differential tests of the exact AMM math against the chain: random pools of the
// default scenario (as MarketState publishes them), on every venue of each
// Uniswap kind (uniswap-v2 and arcade-v2, uniswap-v3 and synthra-v3, uniswap-v4),
// random amounts over many orders of magnitude, both directions. The off-chain
// output must equal, to the wei, what Uniswap's own contracts answer:
//   V3: QuoterV2.quoteExactInputSingle over the pool's own factory (amountOut and
//       the price after the swap),
//   V4: V4Quoter.quoteExactInputSingle over the pool's own PoolManager,
//   V2: the pair itself: in a simulated block, after sending amountIn, swap(out + 1)
//       must revert and swap(out) must succeed, so `out` is exactly the most it pays
//       (at the venue's fee).
// A venue the devnet deploys no quoter for gets one here. Stable pools are not
// this file's subject (test/amm/stable-swap.test.ts and test/contracts/stable-swap-pool.test.ts).
// Quotes are batched through Multicall3 (and V2 swaps through eth_simulateV1).
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import fc from "fast-check"
import { encodeAbiParameters, encodeFunctionData, keccak256, parseAbi, zeroAddress, type Address, type Hex } from "viem"
import {
  getAmountOut,
  getAmountOutWithFee,
  getSqrtRatioAtTick,
  MAX_SQRT_RATIO,
  MIN_SQRT_RATIO,
  swapExactInput as swapV3,
  swapExactInputV4 as swapV4,
} from "../../src/amm/index.ts"
import { read, Rpc, type Read } from "../../src/chain/index.ts"
import { venuesOfKind } from "../../src/devnet/index.ts"
import type { ConcentratedPoolState, V2PoolState } from "../../src/amm/index.ts"
import { MarketState } from "../../src/market/index.ts"
import type { TestDevnet } from "../support/devnet.ts"
import { startDifferentialMarket, type DifferentialMarket } from "./devnet-pools.ts"
import type { World } from "../../src/domain/index.ts"

let devnet: TestDevnet
let runtime: DifferentialMarket["runtime"]
let snap: World
let decimals: DifferentialMarket["decimals"]
/** the quoter of each V3 and V4 venue, by venue name: the manifest's, or one deployed here */
let quoters: Map<string, Address>
let market: DifferentialMarket

const run = <A, E>(effect: Effect.Effect<A, E, MarketState | Rpc>) => runtime.runPromise(effect)

const QUOTER_V2 = parseAbi([
  "function quoteExactInputSingle((address tokenIn, address tokenOut, uint256 amountIn, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
])
const V4_QUOTER = parseAbi([
  "function quoteExactInputSingle(((address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks) poolKey, bool zeroForOne, uint128 exactAmount, bytes hookData) params) returns (uint256 amountOut, uint256 gasEstimate)",
])
const V2_PAIR = parseAbi(["function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)", "function sync()"])
const ERC20 = parseAbi(["function transfer(address to, uint256 value) returns (bool)"])

interface Case<P> {
  readonly pool: P
  readonly zeroForOne: boolean
  readonly amountIn: bigint
}

const show = (c: Case<{ id: string }>) => `${c.pool.id} ${c.zeroForOne ? "0→1" : "1→0"} ${c.amountIn}`

/** Amounts log-uniform over [1, 10^(decimals + 8)): from one wei to a hundred million whole tokens. */
const amountArb = (tokenDecimals: number) =>
  fc
    .integer({ min: 0, max: tokenDecimals + 7 })
    .chain((e) => fc.bigInt({ min: 10n ** BigInt(e), max: 10n ** BigInt(e + 1) - 1n }))

/** A random case over `pools`; printed as "pool-id direction amount" when fast-check reports it. */
const caseArb = <P extends { id: string; token0: Address; token1: Address }>(pools: readonly P[]): fc.Arbitrary<Case<P>> =>
  fc
    .record({ pool: fc.constantFrom(...pools), zeroForOne: fc.boolean() })
    .chain(({ pool, zeroForOne }) =>
      amountArb(decimals.get((zeroForOne ? pool.token0 : pool.token1).toLowerCase())!).map((amountIn) => {
        const c = { pool, zeroForOne, amountIn }
        return Object.assign(c, { [fc.toStringMethod]: () => show(c) })
      }),
    )

const chunks = <A>(items: readonly A[], size: number): A[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** The price at the edge of the pool's known ticks in the swap's direction (a valid limit). */
const edgeLimit = (pool: ConcentratedPoolState, zeroForOne: boolean): bigint => {
  if (zeroForOne) {
    const edge = getSqrtRatioAtTick(pool.tickLower)
    return edge <= MIN_SQRT_RATIO ? MIN_SQRT_RATIO + 1n : edge
  }
  const edge = getSqrtRatioAtTick(pool.tickUpper)
  return edge >= MAX_SQRT_RATIO ? MAX_SQRT_RATIO - 1n : edge
}

beforeAll(async () => {
  market = await startDifferentialMarket()
  ;({ devnet, runtime, snap, decimals, quoters } = market)
})

afterAll(async () => {
  await market?.stop()
})

/** The published pools of every venue of a concentrated kind. */
const concentrated = (kind: "uniswap-v3" | "uniswap-v4") =>
  [...snap.pools.values()].filter((p): p is ConcentratedPoolState => p.kind === kind)

/** The published pools of every venue of `kind`, by venue: each must be there, with the manifest's pools of that venue. */
const expectEveryVenue = (kind: "uniswap-v2" | "uniswap-v3" | "uniswap-v4", pools: readonly { venue: string }[], perVenue: Record<string, number>) => {
  const counts: Record<string, number> = {}
  for (const pool of pools) counts[pool.venue] = (counts[pool.venue] ?? 0) + 1
  expect(counts).toEqual(perVenue)
  expect(Object.keys(perVenue)).toEqual(venuesOfKind(devnet.manifest, kind).map((v) => v.name))
}

describe("V3: src/amm against QuoterV2", () => {
  const stats = { cases: 0, partial: 0, crossed2: 0 }

  test("thousands of random (pool, direction, amount) on every uniswap-v3 venue: amountOut and the price after, to the wei", async () => {
    const pools = concentrated("uniswap-v3")
    expectEveryVenue("uniswap-v3", pools, { "uniswap-v3": 6, "synthra-v3": 2 })
    const venuesSeen = new Set<string>()
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb(pools), { minLength: 60, maxLength: 60 }), async (cases) => {
        // the quoter stops at the edge of the known ticks, where the model's knowledge ends
        const reads = cases.map((c) =>
          read({
            address: quoters.get(c.pool.venue)!,
            abi: QUOTER_V2,
            functionName: "quoteExactInputSingle",
            args: [
              {
                tokenIn: c.zeroForOne ? c.pool.token0 : c.pool.token1,
                tokenOut: c.zeroForOne ? c.pool.token1 : c.pool.token0,
                amountIn: c.amountIn,
                fee: c.pool.fee,
                sqrtPriceLimitX96: edgeLimit(c.pool, c.zeroForOne),
              },
            ],
          }),
        )
        const results = await run(Effect.flatMap(Rpc, (rpc) => rpc.multicall(reads, { blockNumber: snap.blockNumber, batchSize: 20 })))
        const mismatches: string[] = []
        for (const [i, c] of cases.entries()) {
          const chain = results[i]!
          if (!chain.success) {
            mismatches.push(`${show(c)}: the quoter reverted (${chain.returnData})`)
            continue
          }
          const [amountOut, sqrtPriceX96After, crossed] = chain.value
          const limit = edgeLimit(c.pool, c.zeroForOne)
          // with the same limit: the same output and end price, partial fills included
          const limited = swapV3(c.pool, c.zeroForOne, c.amountIn, limit)
          if (!limited.ok || limited.amountOut !== amountOut || limited.sqrtPriceX96After !== sqrtPriceX96After) {
            mismatches.push(`${show(c)} (limit ${limit}): chain ${amountOut} @ ${sqrtPriceX96After}, model ${JSON.stringify(limited, (_, v) => (typeof v === "bigint" ? v.toString() : v))}`)
            continue
          }
          // without a limit, as the router calls it: a full fill inside the known ticks is the
          // chain's answer; anything that reaches the edge is refused rather than guessed
          const free = swapV3(c.pool, c.zeroForOne, c.amountIn)
          const reachedEdge = sqrtPriceX96After === limit
          if (free.ok ? reachedEdge || free.amountOut !== amountOut : !reachedEdge) {
            mismatches.push(`${show(c)} without limit: chain ${amountOut} (edge ${reachedEdge}), model ${free.ok ? free.amountOut : free.reason}`)
          }
          stats.cases++
          venuesSeen.add(c.pool.venue)
          if (reachedEdge) stats.partial++
          if (crossed >= 2) stats.crossed2++
        }
        expect(mismatches).toEqual([])
      }),
      { numRuns: 20, endOnFailure: true },
    )
    // the runs reached past several initialized ticks and to the edge of the known ticks
    expect(stats.cases).toBe(1200)
    expect(stats.crossed2).toBeGreaterThan(20)
    expect(stats.partial).toBeGreaterThan(20)
    expect([...venuesSeen].sort()).toEqual(["synthra-v3", "uniswap-v3"])
    console.log(`V3: ${stats.cases} cases, ${stats.crossed2} crossing ≥ 2 initialized ticks, ${stats.partial} reaching the edge`)
  }, 60_000)
})

describe("V4: src/amm against V4Quoter", () => {
  const stats = { cases: 0, refused: 0, crossed2: 0 }

  test("thousands of random (pool, direction, amount) on every uniswap-v4 venue: amountOut to the wei; a pool that cannot fill reverts", async () => {
    const pools = concentrated("uniswap-v4")
    // the default scenario has one uniswap-v4 venue
    expectEveryVenue("uniswap-v4", pools, { "uniswap-v4": 4 })
    const quoteRead = (c: Case<ConcentratedPoolState>): Read<readonly [bigint, bigint]> =>
      read({
        address: quoters.get(c.pool.venue)!,
        abi: V4_QUOTER,
        functionName: "quoteExactInputSingle",
        args: [
          {
            poolKey: { currency0: c.pool.token0, currency1: c.pool.token1, fee: c.pool.fee, tickSpacing: c.pool.tickSpacing, hooks: zeroAddress },
            zeroForOne: c.zeroForOne,
            exactAmount: c.amountIn,
            hookData: "0x",
          },
        ],
      })
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb(pools), { minLength: 50, maxLength: 50 }), async (cases) => {
        // Quotes that run out of liquidity walk to the end of the price range and can take most of
        // a block's gas: a batch that fails as a whole is asked again one quote at a time, and a
        // quote that alone exceeds the call's gas counts as a pool that cannot fill.
        const results = await run(
          Effect.flatMap(Rpc, (rpc) =>
            Effect.forEach(
              chunks(cases.map(quoteRead), 5),
              (batch) =>
                rpc.multicall(batch, { blockNumber: snap.blockNumber }).pipe(
                  Effect.catchTag("RpcError", () =>
                    Effect.forEach(batch, (one) =>
                      rpc.multicall([one], { blockNumber: snap.blockNumber }).pipe(
                        Effect.map((r) => r[0]!),
                        Effect.catchTag("RpcError", () => Effect.succeed({ success: false as const, returnData: "0x" as Hex })),
                      ),
                    ),
                  ),
                ),
              { concurrency: 4 },
            ).pipe(Effect.map((r) => r.flat())),
          ),
        )
        const mismatches: string[] = []
        for (const [i, c] of cases.entries()) {
          const model = swapV4(c.pool, c.zeroForOne, c.amountIn)
          let chain = results[i]!
          if (!chain.success && model.ok) {
            // a failure inside a batch may be the batch running short of gas: ask again alone
            chain = (await run(Effect.flatMap(Rpc, (rpc) => rpc.multicall([quoteRead(c)], { blockNumber: snap.blockNumber }))))[0]!
          }
          if (chain.success !== model.ok || (model.ok && chain.success && chain.value[0] !== model.amountOut)) {
            mismatches.push(`${show(c)}: chain ${chain.success ? chain.value[0] : `reverted ${chain.returnData}`}, model ${model.ok ? model.amountOut : model.reason}`)
            continue
          }
          stats.cases++
          if (!model.ok) stats.refused++
          else if (model.ticksCrossed >= 2) stats.crossed2++
        }
        expect(mismatches).toEqual([])
      }),
      { numRuns: 20, endOnFailure: true },
    )
    expect(stats.cases).toBe(1000)
    expect(stats.refused).toBeGreaterThan(20)
    expect(stats.crossed2).toBeGreaterThan(10)
    console.log(`V4: ${stats.cases} cases, ${stats.crossed2} crossing ≥ 2 initialized ticks, ${stats.refused} the pool cannot fill`)
  }, 60_000)
})

describe("V2: src/amm getAmountOut against the pairs", () => {
  const SENDER = "0x00000000000000000000000000000000000d1ff0" as Address
  /** DevnetERC20 keeps balances in a mapping at slot 0; USDC balances are native balances. */
  const fundSender = (tokens: readonly Address[]) =>
    tokens.map((token) =>
      token.toLowerCase() === devnet.manifest.tokens.USDC!.address.toLowerCase()
        ? { address: SENDER, balance: 1n << 200n }
        : {
            address: token,
            stateDiff: [{ slot: keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [SENDER, 0n])), value: `0x${(1n << 200n).toString(16).padStart(64, "0")}` as Hex }],
          },
    )

  test("sequences of random swaps on every uniswap-v2 venue: getAmountOut (at the venue's fee) is exactly the most each pair pays", async () => {
    const pools = [...snap.pools.values()].filter((p): p is V2PoolState => p.kind === "uniswap-v2")
    expectEveryVenue("uniswap-v2", pools, { "uniswap-v2": 3, "arcade-v2": 2 })
    const venuesSeen = new Set<string>()
    let cases = 0
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb(pools), { minLength: 50, maxLength: 50 }), async (sequence) => {
        // the reserves as the sequence moves them (each simulation starts from the snapshot)
        const reserves = new Map(pools.map((p) => [p.id.toLowerCase(), [p.reserve0, p.reserve1] as [bigint, bigint]]))
        const calls: { to: Address; data: Hex; from: Address }[] = []
        const expected: { case: Case<V2PoolState>; out: bigint; at: number }[] = []
        for (const c of sequence) {
          const r = reserves.get(c.pool.id.toLowerCase())!
          const [reserveIn, reserveOut] = c.zeroForOne ? r : [r[1], r[0]]
          const out = getAmountOutWithFee(c.amountIn, reserveIn, reserveOut, c.pool.feeBps)
          // at Uniswap's own 30 bps, the fee-aware formula is getAmountOut's
          if (c.pool.feeBps === 30) expect(out).toBe(getAmountOut(c.amountIn, reserveIn, reserveOut))
          venuesSeen.add(c.pool.venue)
          const outs = (amount: bigint) => (c.zeroForOne ? [0n, amount] : [amount, 0n]) as [bigint, bigint]
          const pair = c.pool.id as Address
          const tokenIn = c.zeroForOne ? c.pool.token0 : c.pool.token1
          expected.push({ case: c, out, at: calls.length })
          calls.push({ to: tokenIn, from: SENDER, data: encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [pair, c.amountIn] }) })
          calls.push({ to: pair, from: SENDER, data: encodeFunctionData({ abi: V2_PAIR, functionName: "swap", args: [...outs(out + 1n), SENDER, "0x"] }) })
          if (out > 0n) {
            calls.push({ to: pair, from: SENDER, data: encodeFunctionData({ abi: V2_PAIR, functionName: "swap", args: [...outs(out), SENDER, "0x"] }) })
          } else {
            // nothing to take: fold the input into the reserves
            calls.push({ to: pair, from: SENDER, data: encodeFunctionData({ abi: V2_PAIR, functionName: "sync", args: [] }) })
          }
          const nextIn = reserveIn + c.amountIn
          const nextOut = reserveOut - out
          reserves.set(c.pool.id.toLowerCase(), c.zeroForOne ? [nextIn, nextOut] : [nextOut, nextIn])
        }
        const tokens = [...new Set(pools.flatMap((p) => [p.token0, p.token1]))]
        const [block] = await run(
          Effect.flatMap(Rpc, (rpc) => rpc.simulate([{ stateOverrides: fundSender(tokens), calls }])),
        )
        const mismatches: string[] = []
        for (const { case: c, out, at } of expected) {
          const [transfer, tooMuch, exact] = [block![at]!, block![at + 1]!, block![at + 2]!]
          if (!transfer.success) mismatches.push(`${show(c)}: the transfer in failed`)
          else if (tooMuch.success) mismatches.push(`${show(c)}: the pair also pays ${out + 1n}`)
          else if (!exact.success) mismatches.push(`${show(c)}: the pair refuses to pay ${out}`)
        }
        cases += sequence.length
        expect(mismatches).toEqual([])
      }),
      { numRuns: 20, endOnFailure: true },
    )
    expect(cases).toBe(1000)
    expect([...venuesSeen].sort()).toEqual(["arcade-v2", "uniswap-v2"])
    console.log(`V2: ${cases} swaps`)
  }, 60_000)
})
