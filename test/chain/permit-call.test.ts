// permitAndCall's calldata: a permit signature of 65 bytes (v 27/28 or 0/1) or 64 (EIP-2098)
// gives the same (v, r, s); the call rides along unchanged.
import { describe, expect, test } from "bun:test"
import { parseSignature, serializeCompactSignature, serializeSignature, signatureToCompactSignature, type Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { decodePermitAndCall, encodePermitAndCall, splitPermitSignature } from "../../src/chain/index.ts"
import { permitTypedData } from "../../src/domain/index.ts"

const account = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d")
const token = "0x3600000000000000000000000000000000000000"
const spender = "0x00000000000000000000000000000000000000E0"
const call: Hex = "0x0ade78c0deadbeef"

const signed = async (nonce: bigint) =>
  account.signTypedData(permitTypedData({ token, name: "USDC", version: "2", chainId: 5042, owner: account.address, spender, value: 10n, nonce, deadline: 99n }))

describe("encodePermitAndCall", () => {
  test("65-byte (v 27/28 and 0/1) and 64-byte signatures encode the same permit", async () => {
    for (const nonce of [0n, 1n, 2n, 3n]) {
      const signature = await signed(nonce)
      const parts = parseSignature(signature)
      const withParity = serializeSignature({ r: parts.r, s: parts.s, yParity: parts.yParity })
      const compact = serializeCompactSignature(signatureToCompactSignature(parts))
      const encoded = [signature, withParity, compact].map((sig) => encodePermitAndCall({ token, value: 10n, deadline: 99n, signature: sig }, call))
      expect(new Set(encoded).size).toBe(1)
      const decoded = decodePermitAndCall(encoded[0]!)
      expect(decoded.call).toBe(call)
      expect(decoded.permit).toEqual({ token, value: 10n, deadline: 99n, v: 27 + parts.yParity!, r: parts.r, s: parts.s })
      expect(splitPermitSignature(compact)).toEqual({ v: 27 + parts.yParity!, r: parts.r, s: parts.s })
    }
  })

  test("a signature of another length is refused", () => {
    for (const signature of ["0x", `0x${"11".repeat(63)}`, `0x${"11".repeat(66)}`] as Hex[]) {
      expect(() => encodePermitAndCall({ token, value: 1n, deadline: 1n, signature }, call)).toThrow("65 or 64 bytes")
    }
  })
})
