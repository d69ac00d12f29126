// permitTypedData: EIP-2612's Permit in the token's EIP-712 domain, as viem signs and hashes it.
import { expect, test } from "bun:test"
import { encodeAbiParameters, hashDomain, hashTypedData, keccak256, recoverTypedDataAddress, toHex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { permitTypedData, PERMIT_TYPES } from "../../src/domain/index.ts"

const account = privateKeyToAccount("0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a")
const params = {
  token: "0x89205A3A3b2A69De6Dbf7f01ED13B2108B2c43e7",
  name: "EURC",
  version: "2",
  chainId: 5042002,
  owner: account.address,
  spender: "0x00000000000000000000000000000000000000E0",
  value: 123n,
  nonce: 4n,
  deadline: 1_800_000_000n,
} as const

test("the digest is EIP-2612's: \\x19\\x01 ‖ domain separator ‖ hash of the Permit struct", () => {
  const typed = permitTypedData(params)
  expect(typed.primaryType).toBe("Permit")
  expect(typed.domain).toEqual({ name: "EURC", version: "2", chainId: 5042002, verifyingContract: params.token })
  const domainSeparator = keccak256(encodeAbiParameters(
    [{ type: "bytes32" }, { type: "bytes32" }, { type: "bytes32" }, { type: "uint256" }, { type: "address" }],
    [keccak256(toHex("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")), keccak256(toHex("EURC")), keccak256(toHex("2")), 5042002n, params.token],
  ))
  const EIP712Domain = [{ name: "name", type: "string" }, { name: "version", type: "string" }, { name: "chainId", type: "uint256" }, { name: "verifyingContract", type: "address" }]
  expect(hashDomain({ domain: typed.domain, types: { EIP712Domain } } as Parameters<typeof hashDomain>[0])).toBe(domainSeparator)
  const structHash = keccak256(encodeAbiParameters(
    [{ type: "bytes32" }, { type: "address" }, { type: "address" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
    [keccak256(toHex("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)")), params.owner, params.spender, 123n, 4n, 1_800_000_000n],
  ))
  expect(hashTypedData(typed)).toBe(keccak256(`0x1901${domainSeparator.slice(2)}${structHash.slice(2)}`))
  expect(PERMIT_TYPES.Permit.map((f) => f.name)).toEqual(["owner", "spender", "value", "nonce", "deadline"])
})

test("signed with viem's signTypedData, it recovers to the owner", async () => {
  const typed = permitTypedData(params)
  const signature = await account.signTypedData(typed)
  expect(await recoverTypedDataAddress({ ...typed, signature })).toBe(account.address)
})
