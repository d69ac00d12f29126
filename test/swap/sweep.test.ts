// Every ordered pair of the market's tokens, USDC in both its forms, at 1%,
// 10% and 50% of the deepest pool that holds the input: /swap never answers
// 5xx because of how the simulation is built; every transaction is simulated
// (from an empty sender with its funds filled in, and `issues.balance` saying
// what is short); a funded sender's transaction sent exactly as returned pays
// what the response says, to the wei.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { erc20Abi, maxUint256, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts"
import { DEFAULT_SCENARIO_PATH, testAccounts } from "../../src/devnet/index.ts"
import { NATIVE, startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

const WHALE = 5
const MODEST = 6
/** the default market, one account holding many times every pool's depth and one holding a little of each token */
const scenario = (() => {
  const base = JSON.parse(readFileSync(DEFAULT_SCENARIO_PATH, "utf8"))
  base.balances.push({
    account: WHALE,
    amounts: { USDC: "40000000", EURC: "20000000", USDT: "40000000", DAI: "40000000", cirBTC: "400", WBTC: "400", WETH: "20000" },
  })
  base.balances.push({
    account: MODEST,
    amounts: { USDC: "2000", EURC: "1000", USDT: "1000", DAI: "1000", cirBTC: "0.01", WBTC: "0.01", WETH: "0.3" },
  })
  return JSON.stringify(base)
})()

let s: SwapOnDevnet
beforeAll(async () => {
  // the limit on price impact is off: the sweep is about how every amount is simulated, and half a pool's depth moves its price further
  s = await startSwapOnDevnet({ scenarioText: scenario, env: { MAX_PRICE_IMPACT_BPS: "10000" } })
}, 120_000)
afterAll(async () => {
  await s?.stop()
})

const whale = testAccounts[WHALE]!.address
const modest = testAccounts[MODEST]!.address
const deadline = () => Math.floor(Date.now() / 1000) + 600
const WEI_PER_UNIT = 10n ** 12n

/** The input's depth: its balance in the deepest V2, V3 or stable pool of the market that holds it (V4 pools share one PoolManager). */
const depthOf = async (symbol: string): Promise<bigint> => {
  const address = s.token(symbol)
  let deepest = 0n
  for (const pool of s.manifest.pools) {
    if (!(pool.tokens as readonly string[]).includes(symbol) || pool.pool.length !== 42) continue
    const held = await s.balanceOf(address, pool.pool as Address)
    if (held > deepest) deepest = held
  }
  return deepest
}

describe("/swap over every pair, amount and sender", () => {
  test("1M native USDC -> DAI from a sender holding little: simulated, the shortfall reported (was 502)", async () => {
    const sender = testAccounts[0]!.address
    const amountIn = 1_000_000n * 10n ** 18n
    const res = await s.post("swap", { tokenIn: NATIVE, tokenOut: s.token("DAI"), amountIn: amountIn.toString(), sender, recipient: sender, slippageBps: 2000, deadline: deadline() })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.simulated).toBe(true)
    const held = await s.balanceOf(NATIVE, sender)
    expect(BigInt(res.body.issues.balance.actual)).toBe(held)
    expect(BigInt(res.body.issues.balance.expected)).toBeGreaterThan(amountIn)
  })

  test("every ordered pair, native and ERC-20 USDC, at 1%, 10% and 50% of the deepest pool, from a funded, a modest and an empty sender", async () => {
    const listed = await s.post("tokens", {})
    expect(listed.status).toBe(200)
    const symbols = ["USDC", "EURC", "USDT", "DAI", "cirBTC", "WBTC", "WETH"]
    // the market's tokens the sweep covers are the ones /tokens lists
    const addresses = new Set(listed.body.tokens.map((t: any) => String(t.address).toLowerCase()))
    for (const symbol of symbols) expect(addresses.has(s.token(symbol).toLowerCase())).toBe(true)

    // the whale approves each ERC-20 once, so that every transaction below is the swap alone
    for (const symbol of symbols) {
      const hash = await s.devnet.client.writeContract({ address: s.token(symbol), abi: erc20Abi, functionName: "approve", args: [s.manifest.executor as Address, maxUint256], account: whale, chain: s.devnet.client.chain })
      await s.devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    }
    const depths = new Map<string, bigint>()
    for (const symbol of symbols) depths.set(symbol, await depthOf(symbol))
    const forms = [{ name: "native USDC", symbol: "USDC", address: NATIVE }, ...symbols.map((symbol) => ({ name: symbol, symbol, address: s.token(symbol) }))]

    const answered = { ok: 0, noRoute: 0 }
    const failures: string[] = []
    for (const tokenIn of forms) {
      for (const tokenOut of forms) {
        if (tokenIn.symbol === tokenOut.symbol) continue
        for (const share of [1n, 10n, 50n]) {
          // native USDC counts 18 decimals, its pools hold the ERC-20's 6
          const depth = depths.get(tokenIn.symbol)! * (tokenIn.address === NATIVE ? WEI_PER_UNIT : 1n)
          const amountIn = (depth * share) / 100n
          const label = `${tokenIn.name} -> ${tokenOut.name} at ${share}% (${amountIn})`
          const empty = privateKeyToAddress(generatePrivateKey())
          for (const sender of [empty, modest, whale]) {
            const res = await s.post("swap", { tokenIn: tokenIn.address, tokenOut: tokenOut.address, amountIn: amountIn.toString(), sender, recipient: sender, slippageBps: 100, deadline: deadline() })
            if (res.status >= 500) failures.push(`${label} from ${sender === whale ? "the funded" : sender === modest ? "the modest" : "an empty"} sender: ${res.status} ${JSON.stringify(res.body)}`)
            if (res.status === 422 && res.body.error?.code === "NO_ROUTE") {
              answered.noRoute++
              continue
            }
            expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(200)
            answered.ok++
            const swap = res.body
            expect(swap.simulated, label).toBe(true)
            if (sender === empty) {
              // an empty sender lacks the whole input (and, paying in USDC, the gas too)
              expect(swap.issues.balance, label).not.toBeNull()
              expect(BigInt(swap.issues.balance.actual), label).toBe(0n)
              expect(BigInt(swap.issues.balance.expected) >= amountIn, label).toBe(true)
              continue
            }
            if (sender === modest) {
              // it holds a little of the input: the shortfall, when there is one, starts from what it holds
              const held = await s.balanceOf(tokenIn.address, modest)
              if (swap.issues.balance === null) expect(held >= amountIn, label).toBe(true)
              else {
                expect(BigInt(swap.issues.balance.actual), label).toBe(held)
                expect(BigInt(swap.issues.balance.expected) > held, label).toBe(true)
              }
              continue
            }
            expect(swap.issues.balance, label).toBeNull()
            expect(swap.issues.allowance, label).toBeNull()
            await sendAndCheck(swap, label, tokenIn.address, tokenOut.address, amountIn)
          }
        }
      }
    }
    expect(failures).toEqual([])
    // most of the sweep is priced and executed; a pair that a trade has drained may have no route
    expect(answered.ok).toBeGreaterThan(answered.noRoute * 4)
  }, 600_000)
})

/** Sends the transaction exactly as returned and checks every balance it moved, in wei for USDC. */
const sendAndCheck = async (swap: any, label: string, tokenIn: Address, tokenOut: Address, amountIn: bigint) => {
  const usdc = s.token("USDC")
  const usdcIn = tokenIn === NATIVE || tokenIn === usdc
  const usdcOut = tokenOut === NATIVE || tokenOut === usdc
  const inAsset = usdcIn ? NATIVE : tokenIn
  const outAsset = usdcOut ? NATIVE : tokenOut
  const outScale = tokenOut === usdc ? WEI_PER_UNIT : 1n
  const collector = s.manifest.feeCollector as Address
  const executor = s.manifest.executor as Address
  const balances = () => Promise.all([s.balanceOf(inAsset, whale), s.balanceOf(outAsset, whale), s.balanceOf(outAsset, collector)])
  const before = await balances()
  const hash = await s.devnet.client.sendTransaction({
    account: whale,
    to: swap.tx.to as Address,
    data: swap.tx.data as Hex,
    value: BigInt(swap.tx.value),
    gas: BigInt(swap.tx.gas),
    chain: s.devnet.client.chain,
  })
  const receipt = await s.devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  expect(receipt.status, label).toBe("success")
  const after = await balances()
  const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice
  // the sender pays amountIn (native: whole ERC-20 units, the dust below one comes back) and, in USDC, the gas
  const paid = tokenIn === NATIVE ? amountIn - (amountIn % WEI_PER_UNIT) : tokenIn === usdc ? amountIn * WEI_PER_UNIT : amountIn
  expect(before[0] - after[0] - (usdcIn ? gasPaid : 0n), label).toBe(paid)
  expect(after[1] - before[1] + (usdcOut ? gasPaid : 0n), label).toBe(BigInt(swap.amountOut) * outScale)
  expect(after[2] - before[2], label).toBe(BigInt(swap.fees.protocolAmount) * outScale)
  for (const asset of new Set([inAsset, outAsset])) expect(await s.balanceOf(asset, executor), label).toBe(0n)
}
