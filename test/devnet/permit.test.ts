// EIP-2612 permits on the devnet's tokens: the ERC-20 USDC (domain "USDC", "2", as on Arc) and a
// scenario token with "permit": true (EURC in the default scenario, domain = its symbol, "2").
// Signatures come from viem's signTypedData; the domain is checked against viem's hashDomain.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import {
  decodeEventLog,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  getTypesForEIP712Domain,
  hashDomain,
  keccak256,
  parseSignature,
  toHex,
  zeroAddress,
  zeroHash,
  type Abi,
  type Address,
  type Hex,
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { testAccounts } from "../../src/devnet/accounts.ts"
import { USDC_NONCES_SLOT, usdcAllowanceSlot } from "../../src/devnet/usdc.ts"
import { permitTypedData } from "../../src/domain/permit.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { revertOf } from "./test-chain.ts"

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const permitAbi: Abi = ownArtifact("PermitToken").abi
const usdcAbi: Abi = ownArtifact("ArcUsdc").abi

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
}, 120_000)
afterAll(async () => {
  await devnet?.stop()
})

const owner = privateKeyToAccount(testAccounts[0]!.privateKey)
const spender = getAddress(testAccounts[5]!.address)

interface PermitCase {
  readonly symbol: string
  readonly abi: Abi
}
const cases: PermitCase[] = [
  { symbol: "USDC", abi: usdcAbi },
  { symbol: "EURC", abi: permitAbi },
]

const tokenOf = (symbol: string) => getAddress(devnet.manifest.tokens[symbol]!.address)
const read = (symbol: string, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
  devnet.client.readContract({ address: tokenOf(symbol), abi, functionName, args })
const deadline = async (offset = 3600n) => (await devnet.client.getBlock()).timestamp + offset

const sign = async (symbol: string, value: bigint, deadlineAt: bigint, to = spender, nonce?: bigint) => {
  const { name, version } = devnet.manifest.tokens[symbol]!.permit!
  const typed = permitTypedData({
    token: tokenOf(symbol),
    name,
    version,
    chainId: devnet.manifest.chainId,
    owner: owner.address,
    spender: to,
    value,
    nonce: nonce ?? ((await read(symbol, permitAbi, "nonces", [owner.address])) as bigint),
    deadline: deadlineAt,
  })
  return parseSignature(await owner.signTypedData(typed))
}

const permitArgs = (to: Address, value: bigint, deadlineAt: bigint, v: number, r: Hex, s: Hex) => [owner.address, to, value, deadlineAt, v, r, s] as const
const simulatePermit = (symbol: string, abi: Abi, args: readonly unknown[]) =>
  revertOf(() => devnet.client.simulateContract({ account: spender, address: tokenOf(symbol), abi, functionName: "permit", args }))

describe("the manifest", () => {
  test("records the permit domain of USDC and EURC, and none for a routable token without one", () => {
    const tokens = devnet.manifest.tokens
    expect(tokens.USDC!.permit).toEqual({ name: "USDC", version: "2" })
    expect(tokens.EURC!.permit).toEqual({ name: "EURC", version: "2" })
    expect(tokens.cirBTC!.permit).toBeUndefined()
    expect(devnet.manifest.pools.some((p) => p.tokens.includes("cirBTC"))).toBe(true)
  })

  test("a token without a permit has no permit functions", async () => {
    await expect(read("cirBTC", permitAbi, "nonces", [owner.address])).rejects.toThrow()
    await expect(read("cirBTC", permitAbi, "DOMAIN_SEPARATOR")).rejects.toThrow()
  })
})

describe.each(cases)("$symbol's permit", ({ symbol, abi }) => {
  test("DOMAIN_SEPARATOR and eip712Domain match viem's hashDomain; name and version", async () => {
    const { name, version } = devnet.manifest.tokens[symbol]!.permit!
    const domain = { name, version, chainId: devnet.manifest.chainId, verifyingContract: tokenOf(symbol) }
    const expected = hashDomain({ domain, types: { EIP712Domain: getTypesForEIP712Domain({ domain }) } } as Parameters<typeof hashDomain>[0])
    expect(await read(symbol, abi, "DOMAIN_SEPARATOR")).toBe(expected)
    expect(await read(symbol, abi, "eip712Domain")).toEqual(["0x0f", name, version, BigInt(devnet.manifest.chainId), tokenOf(symbol), zeroHash, []])
    expect(await read(symbol, abi, "name")).toBe(name)
    expect(await read(symbol, abi, "version")).toBe(version)
  })

  test("a signed permit sets the allowance and emits Approval; the nonce moves on by one; a replay is refused", async () => {
    const value = 123_456_789n
    const at = await deadline()
    const nonce = (await read(symbol, abi, "nonces", [owner.address])) as bigint
    const { v, r, s } = await sign(symbol, value, at)
    // anyone may submit it
    const hash = await devnet.client.writeContract({ account: spender, address: tokenOf(symbol), abi, functionName: "permit", args: permitArgs(spender, value, at, Number(v), r, s), chain: devnet.client.chain })
    const receipt = await devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(receipt.status).toBe("success")
    expect(await read(symbol, abi, "allowance", [owner.address, spender])).toBe(value)
    expect(await read(symbol, abi, "nonces", [owner.address])).toBe(nonce + 1n)
    const events: unknown[] = receipt.logs.map((log) => decodeEventLog({ abi, data: log.data, topics: log.topics }))
    expect(events).toEqual([{ eventName: "Approval", args: { owner: owner.address, spender, value } }])
    // the same signature again: it now recovers to someone else (the nonce it signed is used)
    const replay = await simulatePermit(symbol, abi, permitArgs(spender, value, at, Number(v), r, s))
    expect(replay.name).toBe("ERC2612InvalidSigner")
    expect((replay.args as readonly unknown[])[1]).toBe(owner.address)
    // a second permit with the next nonce works
    const next = await sign(symbol, 5n, at)
    await devnet.client.waitForTransactionReceipt({
      hash: await devnet.client.writeContract({ account: spender, address: tokenOf(symbol), abi, functionName: "permit", args: permitArgs(spender, 5n, at, Number(next.v), next.r, next.s), chain: devnet.client.chain }),
      pollingInterval: 20,
    })
    expect(await read(symbol, abi, "allowance", [owner.address, spender])).toBe(5n)
    expect(await read(symbol, abi, "nonces", [owner.address])).toBe(nonce + 2n)
  })

  test("refused: high s, v other than 27/28, a zero signer, another signer, an expired deadline, a zero spender", async () => {
    const at = await deadline()
    const { v, r, s } = await sign(symbol, 1n, at)
    // the malleable twin: s' = n - s with the other v recovers the same signer
    const highS = toHex(SECP256K1_N - BigInt(s), { size: 32 })
    const twinV = v === 27n ? 28 : 27
    expect(await simulatePermit(symbol, abi, permitArgs(spender, 1n, at, twinV, r, highS))).toEqual({ name: "ECDSAInvalidSignatureS", args: [highS] })
    for (const badV of [0, 1, 29]) {
      expect(await simulatePermit(symbol, abi, permitArgs(spender, 1n, at, badV, r, s))).toEqual({ name: "ECDSAInvalidSignatureV", args: [badV] })
    }
    // r = 0 recovers nothing
    expect(await simulatePermit(symbol, abi, permitArgs(spender, 1n, at, Number(v), zeroHash, s))).toEqual({ name: "ERC2612InvalidSigner", args: [zeroAddress, owner.address] })
    // nor for the zero address as owner: no one approves on its behalf
    const forZero = [zeroAddress, spender, 1n, at, Number(v), zeroHash, s] as const
    expect(await simulatePermit(symbol, abi, forZero)).toEqual({ name: "ERC2612InvalidSigner", args: [zeroAddress, zeroAddress] })
    // a value other than the one signed recovers another address
    const tampered = await simulatePermit(symbol, abi, permitArgs(spender, 2n, at, Number(v), r, s))
    expect(tampered.name).toBe("ERC2612InvalidSigner")
    const past = (await devnet.client.getBlock()).timestamp - 1n
    const expired = await sign(symbol, 1n, past)
    expect(await simulatePermit(symbol, abi, permitArgs(spender, 1n, past, Number(expired.v), expired.r, expired.s))).toEqual({ name: "ERC2612ExpiredSignature", args: [past] })
    const toZero = await sign(symbol, 1n, at, zeroAddress)
    expect(await simulatePermit(symbol, abi, permitArgs(zeroAddress, 1n, at, Number(toZero.v), toZero.r, toZero.s))).toEqual({ name: "ERC20InvalidSpender", args: [zeroAddress] })
    // a signature for one token is no signature for the other
    const other = cases.find((c) => c.symbol !== symbol)!
    const foreign = await simulatePermit(other.symbol, other.abi, permitArgs(spender, 1n, at, Number(v), r, s))
    expect(foreign.name).toBe("ERC2612InvalidSigner")
  })
})

test("USDC keeps its storage layout: allowances in slot 0 (what the simulator overrides), nonces in slot 2", async () => {
  const usdc = tokenOf("USDC")
  const allowance = (await read("USDC", usdcAbi, "allowance", [owner.address, spender])) as bigint
  expect(BigInt((await devnet.client.getStorageAt({ address: usdc, slot: usdcAllowanceSlot(owner.address, spender) }))!)).toBe(allowance)
  const nonceSlot = keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [owner.address, USDC_NONCES_SLOT]))
  const nonce = (await read("USDC", usdcAbi, "nonces", [owner.address])) as bigint
  expect(nonce).toBeGreaterThan(0n)
  expect(BigInt((await devnet.client.getStorageAt({ address: usdc, slot: nonceSlot }))!)).toBe(nonce)
  // an overridden allowance is what transferFrom sees
  const data = encodeFunctionData({ abi: usdcAbi, functionName: "allowance", args: [owner.address, spender] })
  const { data: overridden } = await devnet.client.call({
    to: usdc, data, stateOverride: [{ address: usdc, stateDiff: [{ slot: usdcAllowanceSlot(owner.address, spender), value: toHex(77n, { size: 32 }) }] }],
  })
  expect(BigInt(overridden!)).toBe(77n)
})
