// Gasless orders on the devnet: a sender signs a SwapOrder (viem signTypedData of
// swapOrderTypedData), a relayer sends executeOrder with a route of its choosing, for real.
// The sender holds no USDC and sends nothing; every balance is checked to the wei against
// the pools' own quoters; the executor keeps nothing. Then every refusal, each with its error.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import {
  decodeFunctionResult,
  encodeFunctionData,
  hashTypedData,
  keccak256,
  parseSignature,
  serializeSignature,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
  type TransactionReceipt,
} from "viem"
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts"
import { encodeExecute, type ExecuteParams, type ExecutorError } from "../../src/chain/execute-call.ts"
import {
  decodeExecuteOrder,
  decodeOrderFilled,
  encodeCancelNonce,
  encodeExecuteOrder,
  EXECUTE_ORDER_ABI,
  ORDER_ENTRY_GAS_OVERHEAD,
  readNonceUsed,
  type ExecuteOrderParams,
  type OrderPermit,
} from "../../src/chain/order-call.ts"
import { encodeRoute, type Route } from "../../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { swapOrderTypedData, type SwapOrder } from "../../src/domain/order.ts"
import { permitTypedData } from "../../src/domain/permit.ts"
import { grossForNet } from "../../src/pricer/index.ts"
import { freshAddress, setupFixture, splitFees, USDC, users, type Fixture } from "./executor-fixture.ts"

const permitTokenAbi = ownArtifact("PermitToken").abi
const walletAbi = ownArtifact("SmartWallet").abi
const NATIVE_OUT: Address = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
let f: Fixture
let bps: number
let EURC: Address
let WETH: Address
let chainId: number
const relayer = users[0]!
let seed = 0
const fresh = () => freshAddress(17_300 + ++seed)
let keySeed = 0
/** A new key that has never held anything (no USDC, so no gas). */
const newSender = (): PrivateKeyAccount => privateKeyToAccount(keccak256(toHex(`gasless order sender ${++keySeed}`)))
let nonceSeed = 1_000n

beforeAll(async () => {
  f = await setupFixture()
  bps = await f.protocolFeeBps()
  EURC = f.token("EURC")
  WETH = f.token("WETH")
  chainId = f.devnet.manifest.chainId
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const eurcToUsdc = (): Route => [{ shareBps: 10_000, hops: [f.hop("uniswap-v3", "EURC", "USDC", 500)] }]
const eurcToWeth = (): Route => [{ shareBps: 10_000, hops: [f.hop("uniswap-v3", "EURC", "USDC", 500), f.hop("uniswap-v3", "USDC", "WETH", 500)] }]

const baseOrder = async (sender: Address, o: Partial<SwapOrder> = {}): Promise<SwapOrder> => ({
  sender,
  recipient: fresh(),
  tokenIn: EURC,
  tokenOut: USDC,
  exactOutput: false,
  amountIn: 100_000_000n,
  amountOut: 0n,
  maxRelayerFee: 500_000n,
  feeBps: 0,
  feeRecipient: zeroAddress,
  nonce: (nonceSeed += 257n), // a new bitmap word each time: the worst case for gas
  deadline: await f.deadline(),
  ...o,
})

const sign = (by: PrivateKeyAccount, order: SwapOrder, domain: { chainId?: number; executor?: Address } = {}) =>
  by.signTypedData(swapOrderTypedData(domain.chainId ?? chainId, domain.executor ?? f.executor, order))

const orderHash = (order: SwapOrder) => hashTypedData(swapOrderTypedData(chainId, f.executor, order))

/** The account sends `data` to `to` itself, with just enough native balance lent for the gas, then holds none again. */
const sendAs = async (account: Address, to: Address, data: Hex) => {
  await f.client.setBalance({ address: account, value: 10n ** 18n })
  await f.client.impersonateAccount({ address: account })
  const r = await f.send(account, to, data)
  await f.client.stopImpersonatingAccount({ address: account })
  await f.client.setBalance({ address: account, value: 0n })
  expect(r.status).toBe("success")
}

const approveAs = (account: Address, token: Address, amount: bigint) =>
  sendAs(account, token, encodeFunctionData({ abi: permitTokenAbi, functionName: "approve", args: [f.executor, amount] }))

const signPermit = async (owner: PrivateKeyAccount, value: bigint, deadline: bigint): Promise<OrderPermit> => {
  const { name, version } = f.devnet.manifest.tokens.EURC!.permit!
  const nonce = (await f.client.readContract({ address: EURC, abi: permitTokenAbi, functionName: "nonces", args: [owner.address] })) as bigint
  const typed = permitTypedData({ token: EURC, name, version, chainId, owner: owner.address, spender: f.executor, value, nonce, deadline })
  return { value, deadline, signature: await owner.signTypedData(typed) }
}

const params = (order: SwapOrder, signature: Hex, o: Partial<ExecuteOrderParams> = {}): ExecuteOrderParams => ({
  order,
  signature,
  permit: null,
  relayerFee: order.maxRelayerFee,
  protocolFeeBps: bps,
  route: order.tokenIn === WETH ? [] : order.tokenOut === WETH ? eurcToWeth() : eurcToUsdc(),
  ...o,
})

const sendOrder = (p: ExecuteOrderParams): Promise<TransactionReceipt> => f.send(relayer, f.executor, encodeExecuteOrder(p))
const orderError = (p: ExecuteOrderParams): Promise<ExecutorError> => f.callError(relayer, encodeExecuteOrder(p))
const simulateOrder = async (p: ExecuteOrderParams) => {
  const { data } = await f.client.call({ account: relayer, to: f.executor, data: encodeExecuteOrder(p) })
  return decodeFunctionResult({ abi: EXECUTE_ORDER_ABI, functionName: "executeOrder", data: data! }) as readonly [bigint, bigint]
}
const gasCost = (r: TransactionReceipt) => r.gasUsed * r.effectiveGasPrice

const expectExecutorEmpty = async () => {
  for (const token of [EURC, WETH, USDC]) expect(await f.balance(token, f.executor)).toBe(0n)
  expect(await f.native(f.executor)).toBe(0n)
}

const quoteExactOutputV3 = async (tokenIn: Address, tokenOut: Address, amount: bigint, fee: number) => {
  const { result } = await f.client.simulateContract({
    address: f.dex.v3Quoter,
    abi: uniswapArtifact("QuoterV2").abi,
    functionName: "quoteExactOutputSingle",
    args: [{ tokenIn, tokenOut, amount, fee, sqrtPriceLimitX96: 0n }],
  })
  return (result as readonly bigint[])[0]!
}

describe("executeOrder", () => {
  test("exact input, EURC -> WETH over two V3 hops with a partner fee: the sender (no USDC, never a transaction of its own for the swap) pays amountIn, the recipient gets the quote net of all three fees, the relayer pays the gas and gets its fee", async () => {
    const sender = newSender()
    const amountIn = 250_000_000n
    await f.mint("EURC", sender.address, amountIn)
    await approveAs(sender.address, EURC, amountIn)
    const partner = fresh()
    const { amountOut: net, protocolAmount, partnerAmount } = splitFees(await f.quoteRoute(eurcToWeth(), amountIn), bps, 20)
    const relayerFee = 10n ** 13n
    const order = await baseOrder(sender.address, {
      tokenOut: WETH, amountIn, amountOut: net - relayerFee, maxRelayerFee: 2n * relayerFee, feeBps: 20, feeRecipient: partner,
    })
    const p = params(order, await sign(sender, order), { relayerFee })
    expect(decodeExecuteOrder(encodeExecuteOrder(p)).order).toEqual(order)
    expect(await simulateOrder(p)).toEqual([amountIn, net - relayerFee])

    expect(await f.native(sender.address)).toBe(0n)
    const [relayerWeth, relayerNative, collector] = [await f.balance(WETH, relayer), await f.native(relayer), await f.balance(WETH, f.feeCollector)]
    const receipt = await sendOrder(p)
    expect(receipt.status).toBe("success")
    expect(await f.balance(EURC, sender.address)).toBe(0n)
    expect(await f.native(sender.address)).toBe(0n)
    expect(await f.balance(USDC, sender.address)).toBe(0n)
    expect(await f.balance(WETH, order.recipient)).toBe(net - relayerFee)
    expect(await f.balance(WETH, partner)).toBe(partnerAmount)
    expect(await f.balance(WETH, f.feeCollector)).toBe(collector + protocolAmount)
    expect(await f.balance(WETH, relayer)).toBe(relayerWeth + relayerFee)
    expect(await f.native(relayer)).toBe(relayerNative - gasCost(receipt))
    await expectExecutorEmpty()

    const filled = receipt.logs.map(decodeOrderFilled).filter((l) => l !== undefined)
    expect(filled).toEqual([{ orderHash: orderHash(order), sender: sender.address, relayer, amountIn, amountOut: net - relayerFee, relayerFee }])
    expect(await readNonceUsed(f.client, f.executor, sender.address, order.nonce)).toBe(true)
    expect(await readNonceUsed(f.client, f.executor, sender.address, order.nonce + 1n)).toBe(false)
  })

  test("with no protocol fee and no partner fee (where execute pays the recipient straight from the pool), the order's swap still comes to the executor, and OrderEntry pays the relayer and the recipient", async () => {
    expect((await f.ownerWrite("setProtocolFeeBps", [0])).status).toBe("success")
    try {
      const sender = newSender()
      const amountIn = 100_000_000n
      await f.mint("EURC", sender.address, amountIn)
      await approveAs(sender.address, EURC, amountIn)
      const gross = await f.quoteRoute(eurcToUsdc(), amountIn)
      const relayerFee = 300_000n
      const order = await baseOrder(sender.address, { amountIn, amountOut: gross - relayerFee, maxRelayerFee: relayerFee })
      const p = params(order, await sign(sender, order), { protocolFeeBps: 0 })
      expect(await simulateOrder(p)).toEqual([amountIn, gross - relayerFee])
      const relayerNative = await f.native(relayer)
      const receipt = await sendOrder(p)
      expect(receipt.status).toBe("success")
      expect(await f.balance(USDC, order.recipient)).toBe(gross - relayerFee)
      // USDC out: the relayer's fee arrives in the balance that also pays its gas
      expect(await f.native(relayer)).toBe(relayerNative - gasCost(receipt) + relayerFee * 10n ** 12n)
      await expectExecutorEmpty()
    } finally {
      await f.ownerWrite("setProtocolFeeBps", [bps])
    }
  })

  test("exact output, EURC -> USDC: the recipient gets amountOut, the sender pays what the quoter says and gets the rest of amountIn back in the same transaction", async () => {
    const sender = newSender()
    const maxIn = 100_000_000n
    await f.mint("EURC", sender.address, maxIn + 5n)
    await approveAs(sender.address, EURC, maxIn)
    const amountOut = 40_000_000n
    const relayerFee = 300_000n
    const gross = grossForNet(amountOut + relayerFee, { protocolBps: bps, partnerBps: 0 })
    const needed = await quoteExactOutputV3(EURC, USDC, gross, 500)
    const received = splitFees(gross, bps, 0).amountOut - relayerFee
    expect(received - amountOut).toBeLessThanOrEqual(1n)
    const order = await baseOrder(sender.address, { exactOutput: true, amountIn: maxIn, amountOut, maxRelayerFee: relayerFee })
    const p = params(order, await sign(sender, order))
    const relayerNative = await f.native(relayer)
    const receipt = await sendOrder(p)
    expect(receipt.status).toBe("success")
    expect(await f.balance(EURC, sender.address)).toBe(maxIn + 5n - needed)
    expect(await f.balance(USDC, order.recipient)).toBe(received)
    expect(await f.native(relayer)).toBe(relayerNative - gasCost(receipt) + relayerFee * 10n ** 12n)
    expect(await f.native(sender.address)).toBe(0n)
    await expectExecutorEmpty()
    expect(receipt.logs.map(decodeOrderFilled).filter((l) => l !== undefined)).toEqual([
      { orderHash: orderHash(order), sender: sender.address, relayer, amountIn: needed, amountOut: received, relayerFee },
    ])
  })

  test("native tokenOut (0xEeee…), exact input and exact output: the recipient and the relayer are paid in native value", async () => {
    const sender = newSender()
    await f.mint("EURC", sender.address, 300_000_000n)
    await approveAs(sender.address, EURC, 300_000_000n)
    // exact input: the gross is the route's USDC output in wei
    const amountIn = 120_000_000n
    const { amountOut: net } = splitFees((await f.quoteRoute(eurcToUsdc(), amountIn)) * 10n ** 12n, bps, 0)
    const relayerFee = 123_456_789_000_000n // 0.000123456789 USDC in wei
    const order = await baseOrder(sender.address, { tokenOut: NATIVE_OUT, amountIn, amountOut: net - relayerFee, maxRelayerFee: relayerFee })
    const relayerNative = await f.native(relayer)
    const receipt = await sendOrder(params(order, await sign(sender, order)))
    expect(receipt.status).toBe("success")
    expect(await f.native(order.recipient)).toBe(net - relayerFee)
    expect(await f.native(relayer)).toBe(relayerNative - gasCost(receipt) + relayerFee)
    await expectExecutorEmpty()

    // exact output: the route delivers whole ERC-20 units; the wei above the gross go to the recipient too
    const amountOut = 7_000_000_000_000_000_123n
    const gross = grossForNet(amountOut + relayerFee, { protocolBps: bps, partnerBps: 0 })
    const units = (gross + 10n ** 12n - 1n) / 10n ** 12n
    const needed = await quoteExactOutputV3(EURC, USDC, units, 500)
    const received = units * 10n ** 12n - splitFees(gross, bps, 0).protocolAmount - relayerFee
    const xo = await baseOrder(sender.address, { tokenOut: NATIVE_OUT, exactOutput: true, amountIn: 100_000_000n, amountOut, maxRelayerFee: relayerFee })
    const eurc = await f.balance(EURC, sender.address)
    const relayerNative2 = await f.native(relayer)
    const r2 = await sendOrder(params(xo, await sign(sender, xo)))
    expect(r2.status).toBe("success")
    expect(await f.native(xo.recipient)).toBe(received)
    expect(received - amountOut).toBeLessThan(2n * 10n ** 12n)
    expect(await f.balance(EURC, sender.address)).toBe(eurc - needed)
    expect(await f.native(relayer)).toBe(relayerNative2 - gasCost(r2) + relayerFee)
    await expectExecutorEmpty()
  })

  test("with a permit from an account that never approved: the permit sets the allowance, the swap takes it all", async () => {
    const sender = newSender()
    const amountIn = 80_000_000n
    await f.mint("EURC", sender.address, amountIn)
    expect(await f.allowance(EURC, sender.address, f.executor)).toBe(0n)
    const { amountOut: net } = splitFees(await f.quoteRoute(eurcToUsdc(), amountIn), bps, 0)
    const order = await baseOrder(sender.address, { amountIn, amountOut: net - 200_000n, maxRelayerFee: 200_000n })
    const permit = await signPermit(sender, amountIn, await f.deadline())
    const receipt = await sendOrder(params(order, await sign(sender, order), { permit }))
    expect(receipt.status).toBe("success")
    expect(await f.balance(USDC, order.recipient)).toBe(net - 200_000n)
    expect(await f.balance(EURC, sender.address)).toBe(0n)
    expect(await f.native(sender.address)).toBe(0n)
    expect(await f.allowance(EURC, sender.address, f.executor)).toBe(0n)
    await expectExecutorEmpty()
  })

  test("a permit submitted first by someone else: the order still fills on the allowance it set", async () => {
    const sender = newSender()
    const amountIn = 60_000_000n
    await f.mint("EURC", sender.address, amountIn)
    const permit = await signPermit(sender, amountIn, await f.deadline())
    const { v, r, s } = parseSignature(permit.signature)
    const front = await f.send(users[3]!, EURC, encodeFunctionData({
      abi: permitTokenAbi, functionName: "permit", args: [sender.address, f.executor, amountIn, permit.deadline, Number(v), r, s],
    }))
    expect(front.status).toBe("success")
    const { amountOut: net } = splitFees(await f.quoteRoute(eurcToUsdc(), amountIn), bps, 0)
    const order = await baseOrder(sender.address, { amountIn, amountOut: net - 100_000n, maxRelayerFee: 100_000n })
    const receipt = await sendOrder(params(order, await sign(sender, order), { permit }))
    expect(receipt.status).toBe("success")
    expect(await f.balance(USDC, order.recipient)).toBe(net - 100_000n)
    expect(await f.balance(EURC, sender.address)).toBe(0n)
    await expectExecutorEmpty()
  })

  test("an ERC-1271 wallet's order, signed by its owner; another key's signature is refused; the wallet cancels a nonce", async () => {
    const owner = newSender()
    const wallet = await f.deploy("SmartWallet", [owner.address])
    const amountIn = 50_000_000n
    await f.mint("EURC", wallet, amountIn)
    const viaWallet = (to: Address, data: Hex) => sendAs(owner.address, wallet, encodeFunctionData({ abi: walletAbi, functionName: "execute", args: [to, data] }))
    await viaWallet(EURC, encodeFunctionData({ abi: permitTokenAbi, functionName: "approve", args: [f.executor, amountIn] }))
    const { amountOut: net } = splitFees(await f.quoteRoute(eurcToUsdc(), amountIn), bps, 0)
    const order = await baseOrder(wallet, { amountIn, amountOut: net - 100_000n, maxRelayerFee: 100_000n })
    expect(await orderError(params(order, await sign(newSender(), order)))).toMatchObject({ name: "InvalidSignature" })
    const receipt = await sendOrder(params(order, await sign(owner, order)))
    expect(receipt.status).toBe("success")
    expect(await f.balance(USDC, order.recipient)).toBe(net - 100_000n)
    expect(await f.balance(EURC, wallet)).toBe(0n)
    await expectExecutorEmpty()

    const cancelled = await baseOrder(wallet, { amountIn: 1n })
    await viaWallet(f.executor, encodeCancelNonce(cancelled.nonce))
    expect(await readNonceUsed(f.client, f.executor, wallet, cancelled.nonce)).toBe(true)
    expect(await orderError(params(cancelled, await sign(owner, cancelled)))).toMatchObject({ name: "NonceUsed", args: [wallet, cancelled.nonce] })
  })
})

describe("executeOrder refuses", () => {
  let sender: PrivateKeyAccount
  let order: SwapOrder
  let signature: Hex
  beforeAll(async () => {
    sender = newSender()
    await f.mint("EURC", sender.address, 1_000_000_000n)
    await approveAs(sender.address, EURC, 1_000_000_000n)
    const { amountOut: net } = splitFees(await f.quoteRoute(eurcToUsdc(), 100_000_000n), bps, 0)
    order = await baseOrder(sender.address, { amountOut: net - 600_000n })
    signature = await sign(sender, order)
    // the order as signed fills (eth_call): every refusal below is of one change
    expect((await simulateOrder(params(order, signature)))[1]).toBe(net - 500_000n)
  })

  test("a signature by someone else, and the order with any field altered (InvalidSignature)", async () => {
    expect(await orderError(params(order, await sign(newSender(), order)))).toEqual({ name: "InvalidSignature", args: [] })
    for (const altered of [
      { amountIn: order.amountIn - 1n },
      { amountOut: order.amountOut - 1n },
      { recipient: fresh() },
      { maxRelayerFee: order.maxRelayerFee + 1n },
      { feeBps: 1, feeRecipient: fresh() },
      { nonce: order.nonce + 1n },
    ]) {
      expect(await orderError(params({ ...order, ...altered }, signature))).toMatchObject({ name: "InvalidSignature" })
    }
  })

  test("a signature for another chain or another executor (InvalidSignature)", async () => {
    expect(await orderError(params(order, await sign(sender, order, { chainId: chainId + 1 })))).toMatchObject({ name: "InvalidSignature" })
    expect(await orderError(params(order, await sign(sender, order, { executor: fresh() })))).toMatchObject({ name: "InvalidSignature" })
  })

  test("the high-s twin of a valid signature, a v of 0/1, a 64-byte signature (InvalidSignature)", async () => {
    const { r, s, yParity } = parseSignature(signature)
    const highS = serializeSignature({ r, s: toHex(SECP256K1_N - BigInt(s), { size: 32 }), yParity: 1 - yParity! })
    expect(await orderError(params(order, highS))).toMatchObject({ name: "InvalidSignature" })
    const v01 = `${signature.slice(0, 130)}${yParity === 0 ? "00" : "01"}` as Hex
    expect(await orderError(params(order, v01))).toMatchObject({ name: "InvalidSignature" })
    expect(await orderError(params(order, signature.slice(0, 130) as Hex))).toMatchObject({ name: "InvalidSignature" })
  })

  test("past its deadline (Expired)", async () => {
    const expired = { ...order, deadline: (await f.client.getBlock()).timestamp - 1n }
    expect(await orderError(params(expired, await sign(sender, expired)))).toEqual({ name: "Expired", args: [expired.deadline], reason: "Expired" })
  })

  test("a relayer fee above the signed maximum (RelayerFeeTooHigh)", async () => {
    expect(await orderError(params(order, signature, { relayerFee: order.maxRelayerFee + 1n }))).toEqual({
      name: "RelayerFeeTooHigh", args: [order.maxRelayerFee + 1n, order.maxRelayerFee],
    })
  })

  test("native tokenIn (NativeOrderInput), a permit of another token (PermitTokenMismatch)", async () => {
    for (const tokenIn of [NATIVE_OUT, zeroAddress]) {
      const native = { ...order, tokenIn }
      expect(await orderError(params(native, await sign(sender, native), { route: encodeRoute(eurcToUsdc(), "exactInput") }))).toEqual({ name: "NativeOrderInput", args: [] })
    }
    // encodeExecuteOrder names the order's tokenIn in the permit: another token, encoded by hand
    const { v, r, s } = parseSignature(await sign(sender, order))
    const permit = { token: WETH, value: order.amountIn, deadline: order.deadline, v: Number(v), r, s }
    const data = encodeFunctionData({ abi: EXECUTE_ORDER_ABI, functionName: "executeOrder", args: [order, signature, permit, 0n, bps, decodeExecuteOrder(encodeExecuteOrder(params(order, signature))).routeBytes] })
    expect(await f.callError(relayer, data)).toEqual({ name: "PermitTokenMismatch", args: [WETH] })
  })

  test("a recipient that is nobody or the executor itself (InvalidConfig Recipient)", async () => {
    for (const recipient of [zeroAddress, f.executor]) {
      const o = { ...order, recipient }
      expect(await orderError(params(o, await sign(sender, o)))).toMatchObject({ name: "InvalidConfig", fault: "Recipient" })
    }
  })

  test("a minimum the route cannot pay (Slippage)", async () => {
    const greedy = { ...order, amountOut: order.amountOut + 100_001n }
    expect(await orderError(params(greedy, await sign(sender, greedy)))).toMatchObject({ name: "Slippage", reason: "Slippage" })
    // a relayer fee below the maximum leaves the recipient more
    expect((await simulateOrder(params(greedy, await sign(sender, greedy), { relayerFee: 0n })))[1]).toBeGreaterThanOrEqual(greedy.amountOut)
  })

  test("the same order twice (NonceUsed), a cancelled nonce (NonceUsed), and nonceUsed says so", async () => {
    const once = await baseOrder(sender.address, { amountOut: order.amountOut - 1_000n })
    const p = params(once, await sign(sender, once))
    expect((await sendOrder(p)).status).toBe("success")
    expect(await orderError(p)).toEqual({ name: "NonceUsed", args: [sender.address, once.nonce] })
    expect((await sendOrder(p)).status).toBe("reverted")

    const cancelled = await baseOrder(sender.address, { amountOut: order.amountOut - 1_000n })
    expect(await readNonceUsed(f.client, f.executor, sender.address, cancelled.nonce)).toBe(false)
    await sendAs(sender.address, f.executor, encodeCancelNonce(cancelled.nonce))
    expect(await readNonceUsed(f.client, f.executor, sender.address, cancelled.nonce)).toBe(true)
    expect(await orderError(params(cancelled, await sign(sender, cancelled)))).toEqual({ name: "NonceUsed", args: [sender.address, cancelled.nonce] })
  })

  test("a plain native transfer to the executor still reverts", async () => {
    await expect(f.client.call({ account: relayer, to: f.executor, value: 1n })).rejects.toThrow()
  })
})

describe("gas", () => {
  test("executeOrder's overhead over the sender's own execute of the same route (one V3 hop, ERC-20 in and out) is within ORDER_ENTRY_GAS_OVERHEAD", async () => {
    const user = users[1]!
    await f.approve(user, EURC, 10n ** 12n)
    const direct: ExecuteParams = {
      tokenIn: EURC, tokenOut: USDC, amountIn: 100_000_000n, minAmountOut: 0n, recipient: fresh(), deadline: await f.deadline(), feeBps: 0, protocolFeeBps: bps, route: eurcToUsdc(),
    }
    const own = await f.send(user, f.executor, encodeExecute(direct))
    expect(own.status).toBe("success")

    const sender = newSender()
    await f.mint("EURC", sender.address, 100_000_000n)
    await approveAs(sender.address, EURC, 100_000_000n)
    const order = await baseOrder(sender.address, { recipient: fresh() })
    const relayed = await sendOrder(params(order, await sign(sender, order)))
    expect(relayed.status).toBe("success")
    const overhead = relayed.gasUsed - own.gasUsed
    console.log(`execute ${own.gasUsed} gas, executeOrder ${relayed.gasUsed} gas: overhead ${overhead}`)
    expect(overhead).toBeGreaterThan(0n)
    expect(overhead).toBeLessThanOrEqual(ORDER_ENTRY_GAS_OVERHEAD)
    expect(overhead).toBeGreaterThan((ORDER_ENTRY_GAS_OVERHEAD * 8n) / 10n)
  })
})
