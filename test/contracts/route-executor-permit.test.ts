// RouteExecutor.permitAndCall on the devnet: a permit signed with viem's signTypedData (EURC, a
// scenario token with EIP-2612), then execute or executeExactOutput in the same transaction,
// sent for real. Balances are checked to the wei against the pools' own quoters, and the
// allowance left is what the permit set minus what the swap pulled. A permit that fails
// (submitted first by someone else, signed by the wrong key, expired) leaves the swap to the
// allowance there is.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { decodeErrorResult, decodeFunctionResult, encodeFunctionData, hexToBigInt, parseSignature, type Address, type Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { encodeExecute, routeExecutorAbi, type ExecuteParams } from "../../src/chain/execute-call.ts"
import { encodeExecuteExactOutput, type ExactOutputParams } from "../../src/chain/exact-output-call.ts"
import { decodePermitAndCall, encodePermitAndCall, type SignedPermit } from "../../src/chain/permit-call.ts"
import type { Route } from "../../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { testAccounts } from "../../src/devnet/accounts.ts"
import { permitTypedData } from "../../src/domain/permit.ts"
import { grossForNet } from "../../src/pricer/index.ts"
import { freshAddress, revertData, setupFixture, splitFees, USDC, users, type Fixture } from "./executor-fixture.ts"

const permitTokenAbi = ownArtifact("PermitToken").abi
let f: Fixture
let bps: number
let EURC: Address
let seed = 0
const fresh = () => freshAddress(9_100 + ++seed)

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  EURC = f.token("EURC")
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const signer = (index: number) => privateKeyToAccount(testAccounts[index]!.privateKey)
const nonceOf = async (owner: Address) =>
  (await f.client.readContract({ address: EURC, abi: permitTokenAbi, functionName: "nonces", args: [owner] })) as bigint

/** `by` signs owner's permit of `value` EURC for the executor (by default the owner signs). */
const signPermit = async (owner: number, value: bigint, deadline: bigint, by = owner): Promise<SignedPermit> => {
  const ownerAddress = signer(owner).address
  const { name, version } = f.devnet.manifest.tokens.EURC!.permit!
  const typed = permitTypedData({
    token: EURC, name, version, chainId: f.devnet.manifest.chainId, owner: ownerAddress, spender: f.executor, value, nonce: await nonceOf(ownerAddress), deadline,
  })
  return { token: EURC, value, deadline, signature: await signer(by).signTypedData(typed) }
}

const eurcToUsdc = (): Route => [{ shareBps: 10_000, hops: [f.hop("uniswap-v3", "EURC", "USDC", 500)] }]
const executeParams = async (amountIn: bigint): Promise<ExecuteParams> => ({
  tokenIn: EURC, tokenOut: USDC, amountIn, minAmountOut: 0n, recipient: fresh(), deadline: await f.deadline(), feeBps: 0, protocolFeeBps: bps, route: eurcToUsdc(),
})

/** A fresh start for `owner`: no allowance for the executor. */
const clearAllowance = (owner: Address) => f.approve(owner, EURC, 0n)

const permitAndCall = (from: Address, permit: SignedPermit, call: Hex) => f.send(from, f.executor, encodePermitAndCall(permit, call))

/** The revert data of an eth_call of permitAndCall, decoded with the executor's and the token's ABIs. */
const permitAndCallRevert = async (from: Address, permit: SignedPermit, call: Hex) => {
  try {
    await f.client.call({ account: from, to: f.executor, data: encodePermitAndCall(permit, call) })
  } catch (error) {
    const data = revertData(error)
    if (data === undefined) throw error
    return decodeErrorResult({ abi: [...routeExecutorAbi, ...permitTokenAbi], data })
  }
  throw new Error("permitAndCall did not revert")
}

describe("permitAndCall", () => {
  test("permit then execute: the sender pays exactly amountIn, the recipient gets the quote net of fees, the allowance left is the permit's value minus amountIn", async () => {
    const owner = users[1]!
    await clearAllowance(owner)
    const amountIn = 250_000_000n // 250 EURC
    const spare = 7n
    const p = await executeParams(amountIn)
    const { amountOut, protocolAmount } = splitFees(await f.quoteRoute(eurcToUsdc(), amountIn), bps, 0)
    const permit = await signPermit(1, amountIn + spare, await f.deadline())
    const data = encodePermitAndCall(permit, encodeExecute(p))
    expect(decodePermitAndCall(data).call).toBe(encodeExecute(p))
    // the entry's result, as execute's own ABI-encoded return
    const simulated = await f.client.call({ account: owner, to: f.executor, data })
    const [result] = [decodeFunctionResult({ abi: routeExecutorAbi, functionName: "permitAndCall", data: simulated.data! }) as Hex]
    expect(hexToBigInt(result)).toBe(amountOut)

    const nonce = await nonceOf(owner)
    const [eurcBefore, collectorBefore] = [await f.balance(EURC, owner), await f.balance(USDC, f.feeCollector)]
    const receipt = await permitAndCall(owner, permit, encodeExecute(p))
    expect(receipt.status).toBe("success")
    expect(await f.balance(EURC, owner)).toBe(eurcBefore - amountIn)
    expect(await f.balance(USDC, p.recipient)).toBe(amountOut)
    expect(await f.balance(USDC, f.feeCollector)).toBe(collectorBefore + protocolAmount)
    expect(await f.balance(EURC, f.executor)).toBe(0n)
    expect(await f.balance(USDC, f.executor)).toBe(0n)
    expect(await f.allowance(EURC, owner, f.executor)).toBe(spare)
    expect(await nonceOf(owner)).toBe(nonce + 1n)
  })

  test("permit then executeExactOutput: the recipient gets exactly amountOut, the sender pays what the quoter says, the allowance left is maxAmountIn minus that", async () => {
    const owner = users[2]!
    await clearAllowance(owner)
    const amountOut = 40_000_000n // 40 USDC net
    const maxAmountIn = 100_000_000n
    const p: ExactOutputParams = {
      tokenIn: EURC, tokenOut: USDC, amountOut, maxAmountIn, recipient: fresh(), deadline: await f.deadline(), feeBps: 0, protocolFeeBps: bps, route: eurcToUsdc(),
    }
    const gross = grossForNet(amountOut, { protocolBps: bps, partnerBps: 0 })
    const { result } = await f.client.simulateContract({
      address: f.dex.v3Quoter,
      abi: uniswapArtifact("QuoterV2").abi,
      functionName: "quoteExactOutputSingle",
      args: [{ tokenIn: EURC, tokenOut: USDC, amount: gross, fee: 500, sqrtPriceLimitX96: 0n }],
    })
    const amountIn = (result as readonly bigint[])[0]!
    const permit = await signPermit(2, maxAmountIn, await f.deadline())
    const eurcBefore = await f.balance(EURC, owner)
    const receipt = await permitAndCall(owner, permit, encodeExecuteExactOutput(p))
    expect(receipt.status).toBe("success")
    expect(await f.balance(USDC, p.recipient)).toBe(amountOut)
    expect(await f.balance(EURC, owner)).toBe(eurcBefore - amountIn)
    expect(await f.allowance(EURC, owner, f.executor)).toBe(maxAmountIn - amountIn)
    expect(await f.balance(EURC, f.executor)).toBe(0n)
    expect(await f.balance(USDC, f.executor)).toBe(0n)
  })

  test("a permit submitted first by someone else: the swap still runs, on the allowance that permit set", async () => {
    const owner = users[3]!
    await clearAllowance(owner)
    const amountIn = 30_000_000n
    const permit = await signPermit(3, amountIn, await f.deadline())
    const { v, r, s } = parseSignature(permit.signature)
    const nonce = await nonceOf(owner)
    // a watcher submits the permit on its own
    const direct = await f.send(users[0]!, EURC, encodeFunctionData({
      abi: permitTokenAbi, functionName: "permit", args: [owner, f.executor, amountIn, permit.deadline, Number(v), r, s],
    }))
    expect(direct.status).toBe("success")
    expect(await f.allowance(EURC, owner, f.executor)).toBe(amountIn)
    const p = await executeParams(amountIn)
    const { amountOut } = splitFees(await f.quoteRoute(eurcToUsdc(), amountIn), bps, 0)
    const eurcBefore = await f.balance(EURC, owner)
    expect((await permitAndCall(owner, permit, encodeExecute(p))).status).toBe("success")
    expect(await f.balance(EURC, owner)).toBe(eurcBefore - amountIn)
    expect(await f.balance(USDC, p.recipient)).toBe(amountOut)
    expect(await f.allowance(EURC, owner, f.executor)).toBe(0n)
    expect(await nonceOf(owner)).toBe(nonce + 1n)
  })

  test("a permit signed by another key, or expired: the swap fails only because the allowance is short", async () => {
    const owner = users[1]!
    const amountIn = 20_000_000n
    const forged = await signPermit(1, amountIn, await f.deadline(), 2)
    const expired = await signPermit(1, amountIn, (await f.client.getBlock()).timestamp - 1n)
    for (const permit of [forged, expired]) {
      await clearAllowance(owner)
      const p = await executeParams(amountIn)
      const refused = await permitAndCallRevert(owner, permit, encodeExecute(p))
      expect(refused.errorName).toBe("ERC20InsufficientAllowance")
      expect(refused.args).toEqual([f.executor, 0n, amountIn])
      // with the allowance there, the same call swaps, and the permit changes nothing
      await f.approve(owner, EURC, amountIn)
      const nonce = await nonceOf(owner)
      const eurcBefore = await f.balance(EURC, owner)
      expect((await permitAndCall(owner, permit, encodeExecute(p))).status).toBe("success")
      expect(await f.balance(EURC, owner)).toBe(eurcBefore - amountIn)
      expect(await f.allowance(EURC, owner, f.executor)).toBe(0n)
      expect(await nonceOf(owner)).toBe(nonce)
    }
  })

  test("a call that is not execute or executeExactOutput is refused: InvalidRoute(Malformed), and nothing runs", async () => {
    const permit = await signPermit(1, 1n, await f.deadline())
    const execute = encodeExecute(await executeParams(1_000_000n))
    const calls: Hex[] = [
      "0x",
      execute.slice(0, 8) as Hex, // 3 bytes of execute's selector
      encodeFunctionData({ abi: routeExecutorAbi, functionName: "pause" }),
      encodeFunctionData({ abi: routeExecutorAbi, functionName: "setProtocolFeeBps", args: [0] }),
      encodePermitAndCall(permit, execute),
    ]
    for (const call of calls) {
      // from the owner too: permitAndCall is no way around the selector check
      for (const from of [users[1]!, f.owner]) {
        const data = encodePermitAndCall(permit, call)
        const error = await f.callError(from, data)
        expect(error.name).toBe("InvalidRoute")
        expect(error.fault).toBe("Malformed")
      }
    }
    expect(await f.client.readContract({ address: f.executor, abi: routeExecutorAbi, functionName: "paused" })).toBe(false)
  })

  test("the entry's own checks apply: an expired swap reverts Expired, the permit with it", async () => {
    const owner = users[1]!
    await clearAllowance(owner)
    const permit = await signPermit(1, 5_000_000n, await f.deadline())
    const p = { ...(await executeParams(5_000_000n)), deadline: (await f.client.getBlock()).timestamp - 1n }
    const error = await f.callError(owner, encodePermitAndCall(permit, encodeExecute(p)))
    expect(error.name).toBe("Expired")
    const receipt = await permitAndCall(owner, permit, encodeExecute(p))
    expect(receipt.status).toBe("reverted")
    expect(await f.allowance(EURC, owner, f.executor)).toBe(0n)
  })

  test("native input through permitAndCall: msg.value reaches execute, the dust below one ERC-20 unit comes back", async () => {
    const owner = users[2]!
    const amountIn = 3n * 10n ** 18n + 123n // 3 USDC and 123 wei
    const route: Route = [{ shareBps: 10_000, hops: [f.hop("uniswap-v3", "USDC", "EURC", 500)] }]
    const { amountOut } = splitFees(await f.quoteRoute(route, 3_000_000n), bps, 0)
    const p: ExecuteParams = {
      tokenIn: "0x0000000000000000000000000000000000000000", tokenOut: EURC, amountIn, minAmountOut: 0n, recipient: fresh(), deadline: await f.deadline(), feeBps: 0, protocolFeeBps: bps, route,
    }
    // a permit for nothing: the ERC-20 USDC refuses it (wrong signer), which is ignored
    const permit = { ...(await signPermit(2, 0n, await f.deadline())), token: USDC }
    const before = await f.native(owner)
    const receipt = await f.send(owner, f.executor, encodePermitAndCall(permit, encodeExecute(p)), amountIn)
    expect(receipt.status).toBe("success")
    expect(await f.balance(EURC, p.recipient)).toBe(amountOut)
    expect(await f.native(owner)).toBe(before - (amountIn - 123n) - receipt.gasUsed * receipt.effectiveGasPrice)
    expect(await f.native(f.executor)).toBe(0n)
  })
})
