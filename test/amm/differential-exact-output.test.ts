// Differential tests of the exact-output math against the chain: random pools of the
// default scenario (as MarketState publishes them), every venue of each kind, random
// outputs over many orders of magnitude, both directions. The input our math asks for an
// exact output must be, to the wei, what the chain says:
//   V3: QuoterV2.quoteExactOutputSingle over the pool's own factory (amountIn, the price
//       after and the initialized ticks crossed), reverting where the pool cannot pay;
//   V4: V4Quoter.quoteExactOutputSingle over the pool's own PoolManager;
//   V2: the pair itself, in a simulated block: amountIn - 1 sent in, swap(amountOut)
//       reverts; one more unit, it pays. UniswapV2Library.getAmountIn over the pair's
//       reserves is the same number, or one more where its division is exact;
//   stable pools: the pool's own get_dy(dx) >= dy and get_dy(dx - 1) < dy.
// More positions in every V3 and V4 pool make swaps cross initialized ticks, and a venue
// the devnet deploys no quoter for gets one (devnet-pools.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import fc from "fast-check"
import { encodeAbiParameters, encodeFunctionData, keccak256, parseAbi, zeroAddress, type Address, type Hex } from "viem"
import {
  getAmountIn,
  getDx,
  getSqrtRatioAtTick,
  isAmmRevert,
  swapExactOutput as swapV3,
  swapExactOutputV4 as swapV4,
  type ConcentratedPoolState,
  type PoolKind,
  type StablePoolState,
  type V2PoolState,
} from "../../src/amm/index.ts"
import { read, Rpc, type Read, type ReadResult } from "../../src/chain/index.ts"
import { USDC_ADDRESS } from "../../src/devnet/index.ts"
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
  "function quoteExactOutputSingle((address tokenIn, address tokenOut, uint256 amount, uint24 fee, uint160 sqrtPriceLimitX96) params) returns (uint256 amountIn, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
])
const V4_QUOTER = parseAbi([
  "function quoteExactOutputSingle(((address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks) poolKey, bool zeroForOne, uint128 exactAmount, bytes hookData) params) returns (uint256 amountIn, uint256 gasEstimate)",
])
const STABLE = parseAbi(["function get_dy(int128 i, int128 j, uint256 dx) view returns (uint256)"])
const V2_PAIR = parseAbi(["function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes data)"])
const ERC20 = parseAbi(["function transfer(address to, uint256 value) returns (bool)"])

const decimalsOf = (token: Address) => decimals.get(token.toLowerCase())!

/** Outputs log-uniform over [1, 10^(decimals + 8)): from one wei to a hundred million whole tokens. */
const amountArb = (tokenDecimals: number) =>
  fc
    .integer({ min: 0, max: tokenDecimals + 7 })
    .chain((e) => fc.bigInt({ min: 10n ** BigInt(e), max: 10n ** BigInt(e + 1) - 1n }))

interface PairCase<P> {
  readonly pool: P
  readonly zeroForOne: boolean
  readonly amountOut: bigint
}

const show = (c: PairCase<{ id: string }>) => `${c.pool.id} ${c.zeroForOne ? "0→1" : "1→0"} out ${c.amountOut}`

const pairCaseArb = <P extends { id: string; token0: Address; token1: Address }>(pools: readonly P[]): fc.Arbitrary<PairCase<P>> =>
  fc
    .record({ pool: fc.constantFrom(...pools), zeroForOne: fc.boolean() })
    .chain(({ pool, zeroForOne }) =>
      amountArb(decimalsOf(zeroForOne ? pool.token1 : pool.token0)).map((amountOut) => {
        const c = { pool, zeroForOne, amountOut }
        return Object.assign(c, { [fc.toStringMethod]: () => show(c) })
      }),
    )

const pools = (kind: PoolKind) => [...snap.pools.values()].filter((p) => p.kind === kind)

beforeAll(async () => {
  market = await startDifferentialMarket()
  ;({ devnet, runtime, snap, decimals, quoters } = market)
})

afterAll(async () => {
  await market?.stop()
})

/**
 * Quotes in batches; a quote that fails inside a batch is asked again alone. A quote
 * that cannot fill walks the price range to its end and can take most of the call's
 * gas, leaving the batch's later quotes to fail for want of it.
 */
const quoteAll = async <A>(reads: readonly Read<A>[], batchSize: number): Promise<ReadResult<A>[]> => {
  const first = await run(Effect.flatMap(Rpc, (rpc) => rpc.multicall(reads, { blockNumber: snap.blockNumber, batchSize })))
  return Promise.all(
    first.map(async (r, k) =>
      r.success ? r : (await run(Effect.flatMap(Rpc, (rpc) => rpc.multicall([reads[k]!], { blockNumber: snap.blockNumber }))))[0]!,
    ),
  ) as Promise<ReadResult<A>[]>
}

const json = (v: unknown) => JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : x))

describe("V3: swapExactOutput against QuoterV2.quoteExactOutputSingle", () => {
  test("random (pool, direction, output) on every uniswap-v3 venue: amountIn and the price after, to the wei", async () => {
    const v3 = pools("uniswap-v3") as ConcentratedPoolState[]
    const stats = { filled: 0, refused: 0, crossed: 0, beyondKnown: 0 }
    const venues = new Set<string>()
    await fc.assert(
      fc.asyncProperty(fc.array(pairCaseArb(v3), { minLength: 50, maxLength: 50 }), async (cases) => {
        const reads = cases.map((c) =>
          read({
            address: quoters.get(c.pool.venue)!,
            abi: QUOTER_V2,
            functionName: "quoteExactOutputSingle",
            args: [{ tokenIn: c.zeroForOne ? c.pool.token0 : c.pool.token1, tokenOut: c.zeroForOne ? c.pool.token1 : c.pool.token0, amount: c.amountOut, fee: c.pool.fee, sqrtPriceLimitX96: 0n }],
          }),
        )
        const results = await quoteAll(reads, 10)
        const mismatches: string[] = []
        for (const [k, c] of cases.entries()) {
          const chain = results[k]!
          const model = swapV3(c.pool, c.zeroForOne, c.amountOut)
          venues.add(c.pool.venue)
          if (!model.ok && model.reason === "OutsideKnownTicks") {
            // the model stops where the market's tick knowledge ends; the chain goes on, and
            // ends at or past that edge (or cannot pay at all)
            if (chain.success) {
              const after = chain.value[1]
              const edge = getSqrtRatioAtTick(c.zeroForOne ? c.pool.tickLower : c.pool.tickUpper)
              if (c.zeroForOne ? after > edge : after < edge) mismatches.push(`${show(c)}: refused as beyond the known ticks, chain ends inside at ${after}`)
            }
            stats.beyondKnown++
            continue
          }
          if (model.ok) {
            if (!chain.success) mismatches.push(`${show(c)}: chain reverted ${chain.returnData}, model ${json(model)}`)
            else {
              // (QuoterV2 counts the ticks crossed its own way, an ending tick included: not compared)
              const [amountIn, priceAfter] = chain.value
              if (amountIn !== model.amountIn || priceAfter !== model.sqrtPriceX96After) {
                mismatches.push(`${show(c)}: chain ${amountIn} @ ${priceAfter}, model ${json(model)}`)
              }
            }
            stats.filled++
            if (model.ticksCrossed > 0) stats.crossed++
          } else {
            // InsufficientLiquidity: QuoterV2 refuses an output it cannot pay in full
            if (chain.success || model.reason !== "InsufficientLiquidity") mismatches.push(`${show(c)}: chain ${chain.success ? chain.value[0] : "reverted"}, model ${model.reason}`)
            stats.refused++
          }
        }
        expect(mismatches).toEqual([])
      }),
      { numRuns: 10, endOnFailure: true },
    )
    expect([...venues].sort()).toEqual(["synthra-v3", "uniswap-v3"])
    expect(stats.filled).toBeGreaterThan(200)
    expect(stats.crossed).toBeGreaterThan(5)
    expect(stats.refused + stats.beyondKnown).toBeGreaterThan(5)
    console.log(`V3 exact output: ${stats.filled} priced (${stats.crossed} crossing ticks), ${stats.refused} refused, ${stats.beyondKnown} beyond the known ticks`)
  }, 30_000)
})

describe("V4: swapExactOutputV4 against V4Quoter.quoteExactOutputSingle", () => {
  test("random (pool, direction, output) on every uniswap-v4 venue: amountIn to the wei; an output the pool cannot pay reverts", async () => {
    const v4 = pools("uniswap-v4") as ConcentratedPoolState[]
    const stats = { filled: 0, refused: 0, crossed: 0, beyondKnown: 0 }
    await fc.assert(
      fc.asyncProperty(fc.array(pairCaseArb(v4), { minLength: 40, maxLength: 40 }), async (cases) => {
        const reads = cases.map((c) =>
          read({
            address: quoters.get(c.pool.venue)!,
            abi: V4_QUOTER,
            functionName: "quoteExactOutputSingle",
            args: [
              {
                poolKey: { currency0: c.pool.token0, currency1: c.pool.token1, fee: c.pool.fee, tickSpacing: c.pool.tickSpacing, hooks: zeroAddress },
                zeroForOne: c.zeroForOne,
                exactAmount: c.amountOut,
                hookData: "0x",
              },
            ],
          }),
        )
        const results = await quoteAll(reads, 5)
        const mismatches: string[] = []
        for (const [k, c] of cases.entries()) {
          const chain = results[k]!
          const model = swapV4(c.pool, c.zeroForOne, c.amountOut)
          if (!model.ok && model.reason === "OutsideKnownTicks") {
            stats.beyondKnown++
            continue
          }
          if (model.ok !== chain.success || (model.ok && chain.success && chain.value[0] !== model.amountIn)) {
            mismatches.push(`${show(c)}: chain ${chain.success ? chain.value[0] : `reverted ${chain.returnData.slice(0, 10)}`}, model ${model.ok ? model.amountIn : model.reason}`)
            continue
          }
          if (model.ok) {
            stats.filled++
            if (model.ticksCrossed > 0) stats.crossed++
          } else stats.refused++
        }
        expect(mismatches).toEqual([])
      }),
      { numRuns: 10, endOnFailure: true },
    )
    expect(stats.filled).toBeGreaterThan(150)
    expect(stats.crossed).toBeGreaterThan(5)
    expect(stats.refused + stats.beyondKnown).toBeGreaterThan(5)
    console.log(`V4 exact output: ${stats.filled} priced (${stats.crossed} crossing ticks), ${stats.refused} refused, ${stats.beyondKnown} beyond the known ticks`)
  }, 30_000)
})

describe("V2: getAmountIn against the pairs", () => {
  const SENDER = "0x00000000000000000000000000000000000e0a70" as Address
  /** DevnetERC20 keeps balances in a mapping at slot 0; USDC balances are native balances. */
  const fundSender = (tokens: readonly Address[]) =>
    tokens.map((token) =>
      token.toLowerCase() === USDC_ADDRESS.toLowerCase()
        ? { address: SENDER, balance: 1n << 200n }
        : {
            address: token,
            stateDiff: [{ slot: keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [SENDER, 0n])), value: `0x${(1n << 200n).toString(16).padStart(64, "0")}` as Hex }],
          },
    )

  test("sequences of random exact-output swaps on every uniswap-v2 venue: one unit less than getAmountIn buys nothing, getAmountIn buys the output", async () => {
    const v2 = pools("uniswap-v2") as V2PoolState[]
    const venues = new Set<string>()
    const stats = { swaps: 0, refused: 0, libraryExact: 0 }
    await fc.assert(
      fc.asyncProperty(fc.array(pairCaseArb(v2), { minLength: 40, maxLength: 40 }), async (sequence) => {
        const reserves = new Map(v2.map((p) => [p.id.toLowerCase(), [p.reserve0, p.reserve1] as [bigint, bigint]]))
        const calls: { to: Address; data: Hex; from: Address }[] = []
        const expected: { label: string; at: number }[] = []
        const mismatches: string[] = []
        for (const c of sequence) {
          const r = reserves.get(c.pool.id.toLowerCase())!
          const [reserveIn, reserveOut] = c.zeroForOne ? r : [r[1], r[0]]
          if (c.amountOut >= reserveOut) {
            if (!isAmmRevert(catchOf(() => getAmountIn(c.amountOut, reserveIn, reserveOut, c.pool.feeBps)))) mismatches.push(`${show(c)}: not refused`)
            stats.refused++
            continue
          }
          const amountIn = getAmountIn(c.amountOut, reserveIn, reserveOut, c.pool.feeBps)
          // the router's formula over the same reserves (UniswapV2Library at the venue's fee)
          const bps = BigInt(10_000 - c.pool.feeBps)
          const num = reserveIn * c.amountOut * 10_000n
          const den = (reserveOut - c.amountOut) * bps
          const library = num / den + 1n
          if (num % den === 0n) stats.libraryExact++
          if (amountIn !== (num % den === 0n ? library - 1n : library)) mismatches.push(`${show(c)}: ${amountIn}, library ${library}`)
          venues.add(c.pool.venue)
          const outs = (c.zeroForOne ? [0n, c.amountOut] : [c.amountOut, 0n]) as [bigint, bigint]
          const pair = c.pool.id as Address
          const tokenIn = c.zeroForOne ? c.pool.token0 : c.pool.token1
          expected.push({ label: `${show(c)} in ${amountIn}`, at: calls.length })
          const transfer = (value: bigint) => ({ to: tokenIn, from: SENDER, data: encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [pair, value] }) })
          const swap = { to: pair, from: SENDER, data: encodeFunctionData({ abi: V2_PAIR, functionName: "swap", args: [...outs, SENDER, "0x"] }) }
          // one unit short: the pair refuses (and the short input stays in it); the last unit: it pays
          calls.push(transfer(amountIn - 1n), swap, transfer(1n), swap)
          reserves.set(c.pool.id.toLowerCase(), c.zeroForOne ? [reserveIn + amountIn, reserveOut - c.amountOut] : [reserveOut - c.amountOut, reserveIn + amountIn])
          stats.swaps++
        }
        const tokens = [...new Set(v2.flatMap((p) => [p.token0, p.token1]))]
        const [block] = await run(Effect.flatMap(Rpc, (rpc) => rpc.simulate([{ stateOverrides: fundSender(tokens), calls }])))
        for (const { label, at } of expected) {
          const [short, shortSwap, last, swap] = [block![at]!, block![at + 1]!, block![at + 2]!, block![at + 3]!]
          if (!short.success || !last.success) mismatches.push(`${label}: a transfer in failed`)
          else if (shortSwap.success) mismatches.push(`${label}: the pair also pays for one unit less`)
          else if (!swap.success) mismatches.push(`${label}: the pair refuses to pay for it`)
        }
        expect(mismatches).toEqual([])
      }),
      { numRuns: 10, endOnFailure: true },
    )
    expect([...venues].sort()).toEqual(["arcade-v2", "uniswap-v2"])
    expect(stats.swaps).toBeGreaterThan(200)
    console.log(`V2 exact output: ${stats.swaps} swaps, ${stats.refused} outputs beyond the reserve refused, ${stats.libraryExact} where the library asks one unit more`)
  }, 30_000)
})

const catchOf = (f: () => unknown): unknown => {
  try {
    f()
  } catch (e) {
    return e
  }
  return undefined
}

describe("stable pools: getDx against the pool's own get_dy", () => {
  test("random (pool, coins, output) on every stable pool: get_dy(dx) >= dy and get_dy(dx - 1) < dy on chain", async () => {
    const stable = pools("curve-stableswap") as StablePoolState[]
    expect(stable.length).toBeGreaterThan(0)
    const caseArb = fc
      .constantFrom(...stable)
      .chain((pool) =>
        fc.record({ i: fc.nat({ max: pool.coins.length - 1 }), j: fc.nat({ max: pool.coins.length - 2 }) }).chain(({ i, j }) => {
          const jj = j >= i ? j + 1 : j
          return amountArb(decimalsOf(pool.coins[jj]!)).map((dy) => ({ pool, i, j: jj, dy }))
        }),
      )
    const stats = { priced: 0, refused: 0 }
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb, { minLength: 40, maxLength: 40 }), async (cases) => {
        const priced: { c: (typeof cases)[number]; dx: bigint }[] = []
        const mismatches: string[] = []
        for (const c of cases) {
          const e = catchOf(() => priced.push({ c, dx: getDx(c.pool, c.i, c.j, c.dy) }))
          if (e === undefined) continue
          if (!isAmmRevert(e) || e.code !== "InsufficientLiquidity") throw e
          // refused: the pool holds less than dy, or paying it would take more than uint256
          stats.refused++
        }
        const reads = priced.flatMap(({ c, dx }) =>
          [dx, dx - 1n].map((amount) => read({ address: c.pool.id, abi: STABLE, functionName: "get_dy", args: [BigInt(c.i), BigInt(c.j), amount] })),
        )
        const results = await run(Effect.flatMap(Rpc, (rpc) => rpc.multicall(reads, { blockNumber: snap.blockNumber })))
        for (const [k, { c, dx }] of priced.entries()) {
          const at = results[2 * k]!
          const below = results[2 * k + 1]!
          const label = `${c.pool.id} ${c.i}→${c.j} dy ${c.dy} dx ${dx}`
          if (!at.success || at.value < c.dy) mismatches.push(`${label}: get_dy(dx) = ${at.success ? at.value : "reverted"}`)
          else if (below.success && below.value >= c.dy) mismatches.push(`${label}: get_dy(dx - 1) = ${below.value} also pays`)
          stats.priced++
        }
        expect(mismatches).toEqual([])
      }),
      { numRuns: 10, endOnFailure: true },
    )
    expect(stats.priced).toBeGreaterThan(200)
    console.log(`stable exact output: ${stats.priced} priced, ${stats.refused} refused`)
  }, 30_000)
})
