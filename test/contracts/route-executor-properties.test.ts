// Properties of RouteExecutor over random routes and amounts on the devnet's pools (every venue's, stable pools too): the
// recipient gets exactly what the pools' own quoting predicts minus the fees, the fee
// recipient and the fee collector get exactly their parts, the sender pays exactly amountIn,
// and the executor ends holding what it held before, with no allowance to anyone.
import { afterAll, beforeAll, expect, test } from "bun:test"
import fc from "fast-check"
import type { Address, TransactionReceipt } from "viem"
import type { Route, RouteHop } from "../../src/chain/route-encoding.ts"
import { isStablePool, type ManifestPool } from "../../src/devnet/manifest.ts"
import { decodeExecutorError } from "../../src/chain/execute-call.ts"
import { freshAddress, NATIVE, revertData, SCALE, setupFixture, splitFees, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let bps: number
const sender = users[3]!

const SYMBOLS = ["USDC", "EURC", "USDT", "WETH", "cirBTC", "WBTC"] as const
type Symbol = (typeof SYMBOLS)[number]
/** whole-token USD prices of the scenario, to size amounts in dollars */
const USD: Record<Symbol, { price: number; decimals: number }> = {
  USDC: { price: 1, decimals: 6 },
  EURC: { price: 1.16, decimals: 6 },
  USDT: { price: 1, decimals: 6 },
  WETH: { price: 3500, decimals: 18 },
  cirBTC: { price: 97000, decimals: 8 },
  WBTC: { price: 97000, decimals: 8 },
}

interface Path {
  readonly pools: readonly number[]
  readonly hops: readonly RouteHop[]
}

let paths: Map<string, Path[]>

/** Every simple path of 1 to 3 pools between two of SYMBOLS (a stable pool between any two of its coins among them). */
const enumeratePaths = (pools: readonly ManifestPool[]): Map<string, Path[]> => {
  const known = (t: string) => (SYMBOLS as readonly string[]).includes(t)
  const usable = pools
    .map((pool, index) => ({ pool, index }))
    .filter(({ pool }) => (isStablePool(pool) ? pool.tokens.filter(known).length >= 2 : pool.tokens.every(known)))
  const out = new Map<string, Path[]>()
  const walk = (from: string, at: string, seen: string[], used: number[], hops: RouteHop[]) => {
    if (hops.length > 0) {
      const key = `${from}>${at}`
      out.set(key, [...(out.get(key) ?? []), { pools: [...used], hops: [...hops] }])
    }
    if (hops.length === 3) return
    for (const { pool, index } of usable) {
      if (!pool.tokens.includes(at) || used.includes(index)) continue
      for (const next of pool.tokens) {
        if (next === at || !known(next) || seen.includes(next)) continue
        walk(from, next, [...seen, next], [...used, index], [...hops, f.hopOf(pool, at, next)])
      }
    }
  }
  for (const s of SYMBOLS) walk(s, s, [s], [], [])
  return out
}

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  paths = enumeratePaths(f.devnet.manifest.pools)
  // the sender trusts the executor with every token; the property checks the executor uses exactly amountIn
  for (const s of SYMBOLS) await f.approve(sender, f.token(s), 10n ** 40n)
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const executorState = async (route: Route) => {
  const tokens = SYMBOLS.map((s) => f.token(s))
  const spenders = new Set<Address>([f.dex.poolManager])
  for (const split of route) {
    for (const hop of split.hops) {
      if (hop.kind === "external") spenders.add(hop.router)
      if (hop.kind === "stable") spenders.add(hop.pool)
    }
  }
  const balances = await Promise.all(tokens.map((t) => f.balance(t, f.executor)))
  const allowances = await Promise.all(tokens.flatMap((t) => [...spenders].map((s) => f.allowance(t, f.executor, s))))
  return { native: await f.native(f.executor), balances, allowances }
}

const pairs = () => [...paths.keys()].filter((k) => !k.startsWith("USDC>USDC")).sort()
let run = 0

test("random routes: exact amounts for every party, nothing left in the executor", async () => {
  const arbitrary = fc.record({
    pair: fc.nat(),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    weights: fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 4, maxLength: 4 }),
    dollars: fc.integer({ min: 10, max: 3000 }),
    fraction: fc.integer({ min: 0, max: 999_999 }),
    feeBps: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 100 })),
    nativeIn: fc.boolean(),
    nativeOut: fc.boolean(),
    dust: fc.bigInt({ min: 0n, max: SCALE - 1n }),
  })
  await fc.assert(
    fc.asyncProperty(arbitrary, async (a) => {
      const keys = pairs()
      const key = keys[a.pair % keys.length]!
      const [inSym, outSym] = key.split(">") as [Symbol, Symbol]
      // splits over paths that share no pool
      const candidates = paths.get(key)!
      const chosen: Path[] = []
      for (const pick of a.picks) {
        const path = candidates[pick % candidates.length]!
        if (chosen.some((c) => c.pools.some((p) => path.pools.includes(p)))) continue
        chosen.push(path)
      }
      // shares: at least 5% each, summing to 10000
      const weights = chosen.map((_, i) => a.weights[i]!)
      const total = weights.reduce((x, y) => x + y, 0)
      const shares = weights.map((w) => 500 + Math.floor(((10_000 - 500 * weights.length) * w) / total))
      shares[shares.length - 1]! += 10_000 - shares.reduce((x, y) => x + y, 0)
      const route: Route = chosen.map((p, i) => ({ shareBps: shares[i]!, hops: p.hops }))

      const { price, decimals } = USD[inSym]
      const units = (BigInt(a.dollars) * 10n ** BigInt(decimals) * 1_000_000n + BigInt(a.fraction) * 10n ** BigInt(decimals)) / BigInt(Math.round(price * 1_000_000))
      const nativeIn = inSym === "USDC" && a.nativeIn
      const nativeOut = outSym === "USDC" && a.nativeOut
      const amountIn = nativeIn ? units * SCALE + a.dust : units
      const tokenIn = nativeIn ? NATIVE : f.token(inSym)
      const tokenOut = nativeOut ? NATIVE : f.token(outSym)

      // the prediction: each hop quoted by its own pool (V2 reserves, QuoterV2, V4Quoter)
      const routeOutput = await f.quoteRoute(route, units)
      const gross = nativeOut ? routeOutput * SCALE : routeOutput
      const fees = splitFees(gross, bps, a.feeBps)
      run += 1
      const recipient = freshAddress(10_000 + run)
      const feeRecipient = freshAddress(20_000 + run)

      const before = await executorState(route)
      const outBalance = (who: Address) => (nativeOut ? f.native(who) : f.balance(f.token(outSym), who))
      const collectorBefore = await outBalance(f.feeCollector)
      // USDC in either form is the sender's native balance, which also pays the gas
      const senderIn = () => (inSym === "USDC" ? f.native(sender) : f.balance(f.token(inSym), sender))
      const senderInBefore = await senderIn()

      const params = {
        tokenIn,
        tokenOut,
        amountIn,
        minAmountOut: fees.amountOut, // exactly the prediction: one unit less output would revert
        recipient,
        deadline: await f.deadline(),
        feeBps: a.feeBps,
        feeRecipient,
        protocolFeeBps: bps,
        route,
      }
      // the simulation names the reason if it reverts
      const simulated = await f.simulate(sender, params).catch((e) => `reverted: ${JSON.stringify(decodeExecutorError(revertData(e) ?? "0x"), (_, v) => (typeof v === "bigint" ? v.toString() : v))} ${revertData(e)}`)
      expect(simulated).toBe(fees.amountOut)
      const receipt: TransactionReceipt = await f.execute(sender, params)
      expect(receipt.status).toBe("success")
      expect(await outBalance(recipient)).toBe(fees.amountOut)
      expect(await outBalance(feeRecipient)).toBe(fees.partnerAmount)
      expect((await outBalance(f.feeCollector)) - collectorBefore).toBe(fees.protocolAmount)
      const gas = inSym === "USDC" ? receipt.gasUsed * receipt.effectiveGasPrice : 0n
      expect(senderInBefore - (await senderIn()) - gas).toBe(inSym === "USDC" ? units * SCALE : amountIn)
      expect(await executorState(route)).toEqual(before)
    }),
    { numRuns: 25, seed: Number(process.env.EXECUTOR_PROPERTY_SEED ?? 0x5eed), endOnFailure: true },
  )
}, 300_000)

