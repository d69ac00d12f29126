// minAmountOut is judged on what reaches the recipient (its balance change over its own
// payment), not on what the executor sends: a token that takes a fee on transfer delivers
// less, and a fee the recipient also receives as the partner does not count.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { decodeEventLog, type Address, type TransactionReceipt } from "viem"
import { routeExecutorAbi, type ExecuteParams } from "../../src/chain/execute-call.ts"
import type { Route, RouteHop } from "../../src/chain/route-encoding.ts"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { freshAddress, NATIVE, setupFixture, splitFees, USDC, users, type Fixture } from "./executor-fixture.ts"

let f: Fixture
let bps: number
/** TAX's fee on every transfer, in bps */
let taxBps: bigint
const user = users[2]!

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  taxBps = BigInt((await f.client.readContract({ address: f.token("TAX"), abi: ownArtifact("FeeOnTransferToken").abi, functionName: "feeBps" })) as number)
  for (const s of ["USDC", "EURC"]) await f.approve(user, f.token(s), 10n ** 40n)
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const one = (...hops: RouteHop[]): Route => [{ shareBps: 10_000, hops }]

/** What arrives of a TAX transfer of `value`. */
const taxed = (value: bigint) => value - (value * taxBps) / 10_000n

const params = async (p: Partial<ExecuteParams> = {}): Promise<ExecuteParams> => ({
  tokenIn: USDC,
  tokenOut: f.token("TAX"),
  amountIn: 25_000_000n, // 25 USDC
  minAmountOut: 0n,
  recipient: freshAddress(Math.floor(Math.random() * 1e9)),
  deadline: await f.deadline(),
  feeBps: 0,
  protocolFeeBps: bps,
  route: one(f.hop("uniswap-v2", "USDC", "TAX")),
  ...p,
})

/** USDC -> TAX over the TAX/USDC V2 pair: what the executor sends each party and what arrives. */
const taxAmounts = async (amountIn: bigint, feeBps: number) => {
  // the pair sends its quote; the executor's balance rises by that less the tax
  const gross = taxed(await f.quoteHop(f.hop("uniswap-v2", "USDC", "TAX"), amountIn))
  const sent = splitFees(gross, bps, feeBps)
  return { ...sent, received: taxed(sent.amountOut) }
}

const swapEvents = (r: TransactionReceipt) =>
  r.logs
    .filter((l) => l.address.toLowerCase() === f.executor.toLowerCase())
    .map((l) => decodeEventLog({ abi: routeExecutorAbi, data: l.data, topics: l.topics }) as { eventName: string; args: unknown })

describe("a token that takes a fee on transfer as the output", () => {
  test("minAmountOut at the amount the executor sends reverts Slippage with what the recipient would receive, also as a mined transaction", async () => {
    const TAX = f.token("TAX")
    const p = await params()
    const { amountOut: sent, received } = await taxAmounts(p.amountIn, 0)
    expect(received).toBeLessThan(sent)
    const atSent = { ...p, minAmountOut: sent }
    expect(await f.executeError(user, atSent)).toEqual({ name: "Slippage", args: [received, sent], reason: "Slippage" })

    const executorTax = await f.balance(TAX, f.executor)
    const receipt = await f.execute(user, atSent)
    expect(receipt.status).toBe("reverted")
    expect(await f.balance(TAX, p.recipient)).toBe(0n)
    expect(await f.balance(TAX, f.executor)).toBe(executorTax)
  })

  test("minAmountOut at or below what arrives passes; the recipient's balance, the return value and the Swap event are what arrived", async () => {
    const TAX = f.token("TAX")
    const p = await params()
    const { protocolAmount, partnerAmount, received } = await taxAmounts(p.amountIn, 0)
    expect(await f.simulate(user, { ...p, minAmountOut: received - 1n })).toBe(received)
    expect(await f.executeError(user, { ...p, minAmountOut: received + 1n })).toEqual({ name: "Slippage", args: [received, received + 1n], reason: "Slippage" })

    const collectorBefore = await f.balance(TAX, f.feeCollector)
    const executorTax = await f.balance(TAX, f.executor)
    const exact = { ...p, minAmountOut: received }
    expect(await f.simulate(user, exact)).toBe(received)
    const receipt = await f.execute(user, exact)
    expect(receipt.status).toBe("success")
    expect(await f.balance(TAX, p.recipient)).toBe(received)
    expect((await f.balance(TAX, f.feeCollector)) - collectorBefore).toBe(taxed(protocolAmount))
    expect(await f.balance(TAX, f.executor)).toBe(executorTax)
    expect(swapEvents(receipt)).toEqual([
      {
        eventName: "Swap",
        args: { sender: user, recipient: p.recipient, tokenIn: USDC, tokenOut: TAX, amountIn: p.amountIn, amountOut: received, protocolAmount, partnerAmount },
      },
    ])
  })

  test("a recipient that is also the partner fee recipient: only its own payment counts toward the minimum", async () => {
    const TAX = f.token("TAX")
    const feeBps = 50
    const recipient: Address = freshAddress(5_000)
    const p = await params({ recipient, feeBps, feeRecipient: recipient })
    const { partnerAmount, received } = await taxAmounts(p.amountIn, feeBps)
    // the partner fee alone would cover the shortfall
    expect(taxed(partnerAmount)).toBeGreaterThan(1n)
    expect(await f.executeError(user, { ...p, minAmountOut: received + 1n })).toEqual({ name: "Slippage", args: [received, received + 1n], reason: "Slippage" })

    const receipt = await f.execute(user, { ...p, minAmountOut: received })
    expect(receipt.status).toBe("success")
    expect(await f.balance(TAX, recipient)).toBe(taxed(partnerAmount) + received)
    expect(swapEvents(receipt)[0]!.args).toMatchObject({ amountOut: received, partnerAmount })
  })
})

describe("native output", () => {
  test("the exact minimum still passes and one wei more reverts, with the recipient as partner fee recipient too", async () => {
    const EURC = f.token("EURC")
    const amountIn = 300_000_000n // 300 EURC
    const route = one(f.hop("uniswap-v3", "EURC", "USDC", 500))
    const feeBps = 30
    const { protocolAmount, partnerAmount, amountOut } = splitFees((await f.quoteRoute(route, amountIn)) * 10n ** 12n, bps, feeBps)
    const recipient = freshAddress(5_001)
    const p = await params({ tokenIn: EURC, tokenOut: NATIVE, amountIn, route, recipient, feeBps, feeRecipient: recipient, minAmountOut: amountOut })
    expect(await f.executeError(user, { ...p, minAmountOut: amountOut + 1n })).toEqual({ name: "Slippage", args: [amountOut, amountOut + 1n], reason: "Slippage" })
    expect(await f.simulate(user, p)).toBe(amountOut)

    const receipt = await f.execute(user, p)
    expect(receipt.status).toBe("success")
    expect(await f.native(recipient)).toBe(amountOut + partnerAmount)
    expect(swapEvents(receipt)[0]!.args).toMatchObject({ tokenOut: NATIVE, amountOut, protocolAmount, partnerAmount })
  })
})
