// The devnet's Curve-style plain pool (contracts/src/devnet/StableSwapPool.sol) on a real node,
// and the TypeScript math (src/amm/stable-swap.ts) against it: get_dy must agree to the unit,
// reverts included, over thousands of random states and trades (balances written into the
// pool's storage by eth_call state overrides, many get_dy in one Multicall3 call), and real
// exchange transactions must pay exactly that and leave the balances the math predicts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import fc from "fast-check"
import {
  type Abi,
  type Address,
  type Hex,
  BaseError,
  decodeErrorResult,
  decodeFunctionResult,
  encodeDeployData,
  encodeFunctionData,
  parseEventLogs,
  toHex,
  zeroAddress,
} from "viem"
import { isAmmRevert, type AmmRevertCode } from "../../src/amm/errors.ts"
import { calcAddLiquidity, getD, getDy, stableExchange, stableRates, stableXp, type StableSwapParams } from "../../src/amm/stable-swap.ts"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { revertOf, startTestChain, type TestChain, type Wallet } from "../devnet/test-chain.ts"

const Pool = ownArtifact("StableSwapPool")
const Token = ownArtifact("TestToken")
const Multicall3 = ownArtifact("Multicall3")
const Evil = ownArtifact("MaliciousReentrantToken")
const poolAbi = Pool.abi
const erc20 = Token.abi

const DECIMALS = [6, 6, 18, 8] as const
const AMPS = [1n, 10n, 100n, 400n, 5000n] as const
const FEES = [0n, 1_000_000n, 4_000_000n] as const
/** the pool's storage: uint256[4] _balances at slots 0..3 (checked against balances(k) below) */
const BALANCE_SLOT = 0n

interface PoolInfo {
  readonly address: Address
  readonly n: number
  readonly coins: readonly Address[]
  readonly decimals: readonly number[]
  readonly A: bigint
  readonly fee: bigint
  readonly rates: readonly bigint[]
}

let t: TestChain
let owner: Wallet
let me: Address
let multicall: Address
let tokens: Address[] = []
const pools: PoolInfo[] = []

const read = <T>(address: Address, abi: Abi, functionName: string, args: ReadonlyArray<unknown> = []) =>
  t.publicClient.readContract({ address, abi, functionName, args } as never) as Promise<T>
const write = (address: Address, abi: Abi, functionName: string, args: ReadonlyArray<unknown> = [], wallet = owner) =>
  t.write(wallet, { address, abi, functionName, args })
const simulate = async <T>(address: Address, abi: Abi, functionName: string, args: ReadonlyArray<unknown> = [], wallet = owner) =>
  (await t.publicClient.simulateContract({ account: wallet.account, address, abi, functionName, args } as never)).result as T

const params = (p: PoolInfo, balances: readonly bigint[]): StableSwapParams => ({ balances, rates: p.rates, amp: p.A * 100n, fee: p.fee })

// ---------------------------------------------------------------- Multicall3 batches

interface Call {
  readonly target: Address
  readonly data: Hex
}
type Outcome = { ok: true; data: Hex } | { ok: false; data: Hex }

const aggregate = async (calls: readonly Call[], stateOverride?: ReadonlyArray<{ address: Address; stateDiff: { slot: Hex; value: Hex }[] }>) => {
  const { data } = await t.publicClient.call({
    to: multicall,
    data: encodeFunctionData({
      abi: Multicall3.abi,
      functionName: "aggregate3",
      args: [calls.map((c) => ({ target: c.target, allowFailure: true, callData: c.data }))],
    }),
    ...(stateOverride ? { stateOverride: stateOverride as never } : {}),
  })
  const results = decodeFunctionResult({ abi: Multicall3.abi, functionName: "aggregate3", data: data! }) as ReadonlyArray<{
    success: boolean
    returnData: Hex
  }>
  return results.map((r): Outcome => ({ ok: r.success, data: r.returnData }))
}

const word = (x: bigint): Hex => toHex(x, { size: 32 })
const balancesOverride = (pool: Address, balances: readonly bigint[]) => [
  { address: pool, stateDiff: balances.map((b, k) => ({ slot: word(BALANCE_SLOT + BigInt(k)), value: word(b) })) },
]

const getDyCall = (pool: Address, i: number, j: number, dx: bigint): Call => ({
  target: pool,
  data: encodeFunctionData({ abi: poolAbi, functionName: "get_dy", args: [BigInt(i), BigInt(j), dx] }),
})

/** The AmmRevert codes a pool revert corresponds to. */
const revertCodes = (data: Hex): readonly AmmRevertCode[] => {
  if (data.startsWith("0x4e487b71")) {
    const code = BigInt(`0x${data.slice(10)}`)
    if (code === 0x11n) return ["ArithmeticOverflow", "ArithmeticUnderflow"]
    if (code === 0x12n) return ["DivisionByZero"]
    throw new Error(`unexpected panic ${code}`)
  }
  const { errorName } = decodeErrorResult({ abi: poolAbi, data })
  const map: Record<string, AmmRevertCode> = {
    DidNotConverge: "DidNotConverge",
    IndexOutOfRange: "CoinIndexOutOfRange",
    SameCoin: "SameCoin",
  }
  const code = map[errorName]
  if (code === undefined) throw new Error(`unexpected pool error ${errorName}`)
  return [code]
}

/** TS getDy as an outcome: the value, or the AmmRevert code */
const tsDy = (pool: StableSwapParams, i: number, j: number, dx: bigint): { ok: true; dy: bigint } | { ok: false; code: AmmRevertCode } => {
  try {
    return { ok: true, dy: getDy(pool, i, j, dx) }
  } catch (e) {
    if (isAmmRevert(e)) return { ok: false, code: e.code }
    throw e
  }
}

// ---------------------------------------------------------------- set-up

const deployPool = (coins: readonly Address[], A: bigint, fee: bigint) => t.deploy(Pool, [coins, A, fee])

const setUpPool = async (n: number, A: bigint, fee: bigint, whole: readonly bigint[]): Promise<PoolInfo> => {
  const coins = tokens.slice(0, n)
  const decimals = DECIMALS.slice(0, n)
  const address = await deployPool(coins, A, fee)
  for (const coin of coins) await write(coin, erc20, "approve", [address, 2n ** 256n - 1n])
  const amounts = whole.slice(0, n).map((w, k) => w * 10n ** BigInt(decimals[k]!))
  await write(address, poolAbi, "add_liquidity", [amounts, 0n])
  return { address, n, coins, decimals, A, fee, rates: stableRates(decimals) }
}

beforeAll(async () => {
  t = await startTestChain(2)
  owner = t.wallets[0]!
  me = t.accounts[0]!
  multicall = await t.deploy(Multicall3)
  tokens = []
  for (const [k, dec] of DECIMALS.entries()) {
    const token = await t.deploy(Token, [`Coin ${k}`, `C${k}`, dec])
    await write(token, erc20, "mint", [me, 10n ** 40n])
    tokens.push(token)
  }
  // every A for every size, each A meeting every fee across the sizes
  for (const [ni, n] of [2, 3, 4].entries()) {
    for (const [ai, A] of AMPS.entries()) {
      pools.push(await setUpPool(n, A, FEES[(ai + ni) % 3]!, [1_000_000n, 1_200_000n, 900_000n, 1_100_000n]))
    }
  }
}, 120_000)

afterAll(async () => {
  await t?.stop()
})

const poolBalances = async (p: PoolInfo): Promise<bigint[]> =>
  (await aggregate(Array.from({ length: p.n }, (_, k) => ({ target: p.address, data: encodeFunctionData({ abi: poolAbi, functionName: "balances", args: [BigInt(k)] }) })))).map(
    (o) => BigInt(o.data),
  )

const tokenBalances = async (holder: Address, coins: readonly Address[]): Promise<bigint[]> =>
  (await aggregate(coins.map((c) => ({ target: c, data: encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [holder] }) })))).map((o) =>
    BigInt(o.data),
  )

// ---------------------------------------------------------------- tests

describe("StableSwapPool: Curve's plain-pool interface", () => {
  test("coins, balances, A, A_precise, fee, the LP token and get_virtual_price", async () => {
    const p = pools.find((x) => x.n === 3 && x.A === 400n)!
    for (let k = 0; k < 3; k++) expect(await read<Address>(p.address, poolAbi, "coins", [BigInt(k)])).toBe(p.coins[k]!)
    expect((await revertOf(() => read(p.address, poolAbi, "coins", [3n]))).name).toBe("IndexOutOfRange")
    expect((await revertOf(() => read(p.address, poolAbi, "balances", [3n]))).name).toBe("IndexOutOfRange")
    expect(await poolBalances(p)).toEqual([1_000_000n * 10n ** 6n, 1_200_000n * 10n ** 6n, 900_000n * 10n ** 18n])
    expect(await read<bigint>(p.address, poolAbi, "A", [])).toBe(400n)
    expect(await read<bigint>(p.address, poolAbi, "A_precise", [])).toBe(40_000n)
    expect(await read<bigint>(p.address, poolAbi, "fee", [])).toBe(p.fee)
    expect(await read<bigint>(p.address, poolAbi, "admin_fee", [])).toBe(0n)
    expect(await read<number>(p.address, poolAbi, "decimals", [])).toBe(18)
    expect(typeof (await read<string>(p.address, poolAbi, "symbol", []))).toBe("string")
    // the first deposit mints D, so the virtual price starts at exactly 1e18
    const supply = await read<bigint>(p.address, poolAbi, "totalSupply", [])
    expect(supply).toBe(getD(stableXp(p.rates, await poolBalances(p)), 40_000n))
    expect(await read<bigint>(p.address, poolAbi, "balanceOf", [me])).toBe(supply)
    expect(await read<bigint>(p.address, poolAbi, "get_virtual_price", [])).toBe(10n ** 18n)
  })

  test("balances live in storage slots 0..N-1 (what the state overrides below write)", async () => {
    for (const p of pools.filter((x) => x.A === 100n)) {
      const book = await poolBalances(p)
      for (let k = 0; k < p.n; k++) {
        expect(BigInt((await t.publicClient.getStorageAt({ address: p.address, slot: word(BALANCE_SLOT + BigInt(k)) }))!)).toBe(book[k]!)
      }
    }
  })

  test("the constructor refuses bad coins, A and fee", async () => {
    /** the custom error a deployment with these arguments reverts with */
    const deployError = async (coins: readonly Address[], A: bigint, fee: bigint) => {
      try {
        await t.publicClient.call({ account: me, data: encodeDeployData({ abi: poolAbi, bytecode: Pool.bytecode, args: [coins, A, fee] }) })
      } catch (e) {
        const raw = e instanceof BaseError ? e.walk((x) => typeof (x as { data?: unknown }).data === "string") : null
        const data = (raw as { data?: Hex } | null)?.data
        if (data === undefined) throw e
        return { name: decodeErrorResult({ abi: poolAbi, data }).errorName }
      }
      throw new Error("expected the deployment to revert")
    }
    const [a, b, c, d] = tokens as [Address, Address, Address, Address]
    const wide = await t.deploy(Token, ["Wide", "W", 19])
    expect((await deployError([a], 100n, 0n)).name).toBe("InvalidCoins")
    expect((await deployError([a, b, c, d, wide], 100n, 0n)).name).toBe("InvalidCoins")
    expect((await deployError([a, a], 100n, 0n)).name).toBe("InvalidCoins")
    expect((await deployError([a, zeroAddress], 100n, 0n)).name).toBe("InvalidCoins")
    expect((await deployError([a, me], 100n, 0n)).name).toBe("InvalidCoins")
    expect((await deployError([a, wide], 100n, 0n)).name).toBe("InvalidDecimals")
    expect((await deployError([a, b], 0n, 0n)).name).toBe("InvalidA")
    expect((await deployError([a, b], 1_000_001n, 0n)).name).toBe("InvalidA")
    expect((await deployError([a, b], 100n, 5_000_000_001n)).name).toBe("InvalidFee")
  })
})

describe("get_dy: the TypeScript math equals the pool to the unit", () => {
  /** balances of a pool's coins worth `total` whole tokens, from balanced to 95% (rarely 99.9%) in one coin */
  const arbState = fc.record({
    pool: fc.nat(),
    total: fc.bigInt({ min: 1_000n, max: 10_000_000_000n }),
    dominant: fc.nat(),
    // the dominant coin's share of the value, per mille, above an even split
    share: fc.oneof(
      { weight: 2, arbitrary: fc.constant(-1) }, // exactly balanced
      { weight: 12, arbitrary: fc.integer({ min: 0, max: 950 }) },
      { weight: 1, arbitrary: fc.integer({ min: 950, max: 999 }) },
    ),
    weights: fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 4, maxLength: 4 }),
    noise: fc.array(fc.bigInt({ min: 0n, max: 10n ** 18n }), { minLength: 4, maxLength: 4 }),
    trades: fc.array(
      fc.record({
        kind: fc.oneof(
          { weight: 40, arbitrary: fc.constant("ok" as const) },
          { weight: 1, arbitrary: fc.constantFrom("same" as const, "j-out" as const, "i-neg" as const) },
        ),
        i: fc.nat(),
        j: fc.nat(),
        // dx = balance_i * 10^(e/10) / 1e9 + low digits: from a billionth of the balance to 3x it
        e: fc.integer({ min: 0, max: 95 }),
        low: fc.bigInt({ min: 0n, max: 999n }),
        special: fc.oneof(
          { weight: 30, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom(0n, 1n, 2n, 10n ** 6n, 2n ** 200n, 2n ** 256n - 1n) },
        ),
      }),
      { minLength: 25, maxLength: 25 },
    ),
  })

  type State = typeof arbState extends fc.Arbitrary<infer T> ? T : never

  const balancesOf = (p: PoolInfo, s: State): bigint[] => {
    const n = p.n
    const d = s.dominant % n
    // each coin's share of the value, in millionths
    const even = 1_000_000n / BigInt(n)
    let shares: bigint[]
    if (s.share < 0) shares = Array(n).fill(even)
    else {
      // share 0..950: from an even split to 95% in coin d; 950..999: up to 99.9%
      const dom = s.share <= 950 ? even + ((950_000n - even) * BigInt(s.share)) / 950n : BigInt(s.share) * 1000n
      const ws = s.weights.slice(0, n).map((w, k) => (k === d ? 0n : BigInt(w)))
      const wsum = ws.reduce((a, b) => a + b, 0n)
      shares = ws.map((w, k) => (k === d ? dom : ((1_000_000n - dom) * w) / wsum))
    }
    // plus low digits below one whole token
    return shares.map((m, k) => {
      const unit = 10n ** BigInt(p.decimals[k]!)
      return (s.total * m * unit) / 1_000_000n + (s.noise[k]! % unit) + 1n
    })
  }

  test("thousands of trades over random balances, reverts included", async () => {
    let compared = 0
    let reverted = 0
    await fc.assert(
      fc.asyncProperty(arbState, async (s) => {
        const p = pools[s.pool % pools.length]!
        const balances = balancesOf(p, s)
        const pool = params(p, balances)
        const trades = s.trades.map((tr) => {
          let i = tr.i % p.n
          let j = tr.j % (p.n - 1)
          if (j >= i) j++
          if (tr.kind === "same") j = i
          if (tr.kind === "j-out") j = p.n
          if (tr.kind === "i-neg") i = -1
          const bi = balances[Math.max(i, 0)]!
          const dx = tr.special ?? (bi * BigInt(Math.round(10 ** (tr.e / 10)))) / 10n ** 9n + tr.low
          return { i, j, dx }
        })
        const outcomes = await aggregate(
          trades.map(({ i, j, dx }) => getDyCall(p.address, i, j, dx)),
          balancesOverride(p.address, balances),
        )
        outcomes.forEach((o, k) => {
          const { i, j, dx } = trades[k]!
          const ts = tsDy(pool, i, j, dx)
          const where = `pool ${p.n} coins A=${p.A} fee=${p.fee} balances=[${balances}] get_dy(${i}, ${j}, ${dx})`
          if (o.ok) {
            expect(ts.ok ? ts.dy : `reverted ${(ts as { code: string }).code}`, where).toBe(BigInt(o.data))
          } else {
            reverted++
            expect(ts.ok ? "returned" : "reverted", where).toBe("reverted")
            if (!ts.ok) expect(revertCodes(o.data), where).toContain(ts.code)
          }
          compared++
        })
      }),
      { numRuns: 160 },
    )
    expect(compared).toBeGreaterThanOrEqual(4000)
    expect(reverted).toBeGreaterThan(0)
    expect(reverted).toBeLessThan(compared / 5)
  }, 60_000)

  test("the pools' deposited states and a pool stuck at extreme imbalance (DidNotConverge) agree too", async () => {
    for (const p of pools) {
      const balances = await poolBalances(p)
      const calls: { i: number; j: number; dx: bigint }[] = []
      for (let i = 0; i < p.n; i++) for (let j = 0; j < p.n; j++) if (i !== j) for (const dx of [1n, 1000n, 10n ** 9n, 10n ** 20n]) calls.push({ i, j, dx })
      const outcomes = await aggregate(calls.map(({ i, j, dx }) => getDyCall(p.address, i, j, dx)))
      outcomes.forEach((o, k) => {
        const { i, j, dx } = calls[k]!
        const ts = tsDy(params(p, balances), i, j, dx)
        if (o.ok) expect(ts.ok && ts.dy).toBe(BigInt(o.data))
        else expect(!ts.ok && revertCodes(o.data).includes(ts.code)).toBe(true)
      })
    }
    // A = 1, 99.98% of the value in coin 0 of a two-coin pool: Curve's integer get_D cycles
    // between two values two apart, and the pool reverts as the math does
    const p = pools.find((x) => x.n === 2 && x.A === 1n)!
    const stuck = [539712085505665463n, 107662494833300n]
    expect(tsDy(params(p, stuck), 0, 1, 10n ** 6n)).toEqual({ ok: false, code: "DidNotConverge" })
    const [o] = await aggregate([getDyCall(p.address, 0, 1, 10n ** 6n)], balancesOverride(p.address, stuck))
    expect(o!.ok).toBe(false)
    expect(revertCodes(o!.data)).toEqual(["DidNotConverge"])
  })
})

describe("exchange: real transactions pay exactly get_dy and leave the balances the math predicts", () => {
  test("random trades on every pool, pushing balances towards one side", async () => {
    let sent = 0
    let checkedEvent = false
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.nat(),
        fc.nat(),
        // dx as a share of coin i's balance: 1e-7 to ~3x
        fc.integer({ min: 0, max: 75 }),
        async (pi, i0, j0, e) => {
          const p = pools[pi % pools.length]!
          const i = i0 % p.n
          let j = j0 % (p.n - 1)
          if (j >= i) j++
          const before = await poolBalances(p)
          const dx = (before[i]! * BigInt(Math.round(10 ** (e / 10)))) / 10n ** 7n + 1n
          const predicted = (() => {
            try {
              return stableExchange(params(p, before), i, j, dx)
            } catch (err) {
              if (isAmmRevert(err)) return undefined
              throw err
            }
          })()
          const args = [BigInt(i), BigInt(j), dx, predicted?.dy ?? 0n]
          if (predicted === undefined) {
            // the pool refuses it as well
            expect(simulate(p.address, poolAbi, "exchange", args)).rejects.toThrow()
            const [o] = await aggregate([getDyCall(p.address, i, j, dx)])
            expect(o!.ok).toBe(false)
            return
          }
          // one unit more than the pool pays is refused by the slippage check
          expect((await revertOf(() => simulate(p.address, poolAbi, "exchange", [BigInt(i), BigInt(j), dx, predicted.dy + 1n]))).name).toBe("Slippage")
          expect(await simulate<bigint>(p.address, poolAbi, "exchange", args)).toBe(predicted.dy)
          const mine = await tokenBalances(me, p.coins)
          const receipt = await write(p.address, poolAbi, "exchange", args)
          sent++
          const after = await tokenBalances(me, p.coins)
          expect(after[j]! - mine[j]!).toBe(predicted.dy)
          expect(mine[i]! - after[i]!).toBe(dx)
          expect(await poolBalances(p)).toEqual([...predicted.balances])
          // no admin fee: the pool holds exactly its book balances
          expect(await tokenBalances(p.address, p.coins)).toEqual([...predicted.balances])
          const logs = parseEventLogs({ abi: poolAbi, logs: receipt.logs, eventName: "TokenExchange" }) as unknown as { args: Record<string, unknown> }[]
          expect(logs.length).toBe(1)
          expect(logs[0]!.args).toEqual({ buyer: me, sold_id: BigInt(i), tokens_sold: dx, bought_id: BigInt(j), tokens_bought: predicted.dy })
          checkedEvent = true
        },
      ),
      { numRuns: 120 },
    )
    expect(sent).toBeGreaterThan(80)
    expect(checkedEvent).toBe(true)
  }, 60_000)
})

describe("liquidity", () => {
  test("add_liquidity: first deposit mints D; later imbalanced deposits mint what calcAddLiquidity says; wrong sizes refused", async () => {
    const coins = tokens.slice(0, 3)
    const decimals = DECIMALS.slice(0, 3)
    const address = await deployPool(coins, 200n, 4_000_000n)
    const p: PoolInfo = { address, n: 3, coins, decimals, A: 200n, fee: 4_000_000n, rates: stableRates(decimals) }
    for (const coin of coins) await write(coin, erc20, "approve", [address, 2n ** 256n - 1n])

    expect((await revertOf(() => simulate(address, poolAbi, "add_liquidity", [[1n, 1n], 0n]))).name).toBe("WrongCoinCount")
    expect((await revertOf(() => simulate(address, poolAbi, "add_liquidity", [[1n, 1n, 1n, 1n], 0n]))).name).toBe("WrongCoinCount")
    expect((await revertOf(() => simulate(address, poolAbi, "add_liquidity", [[10n ** 6n, 0n, 10n ** 18n], 0n]))).name).toBe("InitialDepositNeedsAllCoins")

    let supply = 0n
    const deposits: bigint[][] = [
      [500_000n * 10n ** 6n, 400_000n * 10n ** 6n, 600_000n * 10n ** 18n],
      [100_000n * 10n ** 6n, 0n, 0n],
      [0n, 3n * 10n ** 6n, 7n * 10n ** 17n],
      [1n, 1n, 1n],
      [250_000n * 10n ** 6n, 200_000n * 10n ** 6n, 300_000n * 10n ** 18n],
    ]
    for (const amounts of deposits) {
      const before = await poolBalances(p)
      const want = calcAddLiquidity(params(p, before), amounts, supply)
      expect((await revertOf(() => simulate(address, poolAbi, "add_liquidity", [amounts, want.mint + 1n]))).name).toBe("Slippage")
      const receipt = await write(address, poolAbi, "add_liquidity", [amounts, want.mint])
      supply += want.mint
      expect(await read<bigint>(address, poolAbi, "totalSupply", [])).toBe(supply)
      expect(await poolBalances(p)).toEqual([...want.balances])
      const [log] = parseEventLogs({ abi: poolAbi, logs: receipt.logs, eventName: "AddLiquidity" }) as unknown as { args: Record<string, unknown> }[]
      expect(log!.args).toEqual({ provider: me, token_amounts: amounts, fees: [...want.fees], invariant: want.invariant, token_supply: supply })
    }
    // a deposit of nothing does not raise D
    expect((await revertOf(() => simulate(address, poolAbi, "add_liquidity", [[0n, 0n, 0n], 0n]))).name).toBe("InvariantNotIncreased")

    // remove_liquidity: each coin's balance * burn / supply, to the caller
    const before = await poolBalances(p)
    const mine = await tokenBalances(me, coins)
    const burn = supply / 3n + 12345n
    const out = before.map((b) => (b * burn) / supply)
    expect((await revertOf(() => simulate(address, poolAbi, "remove_liquidity", [burn, [0n, 0n]]))).name).toBe("WrongCoinCount")
    expect((await revertOf(() => simulate(address, poolAbi, "remove_liquidity", [burn, [0n, out[1]! + 1n, 0n]]))).name).toBe("Slippage")
    expect((await revertOf(() => simulate(address, poolAbi, "remove_liquidity", [supply + 1n, [0n, 0n, 0n]]))).name).toBe("InsufficientBalance")
    const receipt = await write(address, poolAbi, "remove_liquidity", [burn, out])
    expect(await poolBalances(p)).toEqual(before.map((b, k) => b - out[k]!))
    expect((await tokenBalances(me, coins)).map((b, k) => b - mine[k]!)).toEqual(out)
    expect(await read<bigint>(address, poolAbi, "totalSupply", [])).toBe(supply - burn)
    expect(await read<bigint>(address, poolAbi, "balanceOf", [me])).toBe(supply - burn)
    const [log] = parseEventLogs({ abi: poolAbi, logs: receipt.logs, eventName: "RemoveLiquidity" }) as unknown as { args: Record<string, unknown> }[]
    expect(log!.args).toEqual({ provider: me, token_amounts: out, fees: [0n, 0n, 0n], token_supply: supply - burn })

    // the LP token moves like an ERC-20
    const bob = t.accounts[1]!
    await write(address, poolAbi, "transfer", [bob, 10n ** 18n])
    expect(await read<bigint>(address, poolAbi, "balanceOf", [bob])).toBe(10n ** 18n)
    expect(await read<bigint>(address, poolAbi, "balanceOf", [me])).toBe(supply - burn - 10n ** 18n)
  })

  test("exchange and liquidity calls are not reentrant", async () => {
    const evil = await t.deploy(Evil)
    const other = tokens[0]!
    const address = await deployPool([evil, other], 100n, 4_000_000n)
    await write(evil, Evil.abi, "mint", [me, 10n ** 30n])
    await write(evil, erc20, "approve", [address, 2n ** 256n - 1n])
    await write(other, erc20, "approve", [address, 2n ** 256n - 1n])
    await write(address, poolAbi, "add_liquidity", [[10n ** 24n, 10n ** 12n], 0n])
    const attacks = [
      encodeFunctionData({ abi: poolAbi, functionName: "exchange", args: [1n, 0n, 1000n, 0n] }),
      encodeFunctionData({ abi: poolAbi, functionName: "add_liquidity", args: [[1000n, 1000n], 0n] }),
      encodeFunctionData({ abi: poolAbi, functionName: "remove_liquidity", args: [0n, [0n, 0n]] }),
    ]
    const reentrancy = encodeFunctionData({ abi: [{ type: "function", name: "Reentrancy", inputs: [], outputs: [] }], functionName: "Reentrancy" })
    for (const data of attacks) {
      await write(evil, Evil.abi, "setAttack", [address, data])
      // the evil coin is paid in (transferFrom) during the exchange and calls the pool back
      await write(address, poolAbi, "exchange", [0n, 1n, 10n ** 18n, 0n])
      expect(await read<boolean>(evil, Evil.abi, "lastAttackSucceeded", [])).toBe(false)
      expect(await read<Hex>(evil, Evil.abi, "lastAttackResult", [])).toBe(reentrancy)
    }
  })
})
