// The storage keys of a token's balances[holder] and allowances[owner][spender]
// under a mapping slot, for Solidity's layout (key, slot) and Vyper's (slot, key):
// the keccak256 of the two ABI-encoded words, as viem's encoder writes them.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { encodeAbiParameters, getAddress, keccak256, toHex, type Address, type Hex } from "viem"
import { allowanceKey, balanceKey, type MappingLayout } from "../../src/chain/storage-slots.ts"

const reference = (layout: MappingLayout, key: Address, slot: bigint | Hex): Hex => {
  const slotType = typeof slot === "bigint" ? "uint256" : "bytes32"
  return layout === "solidity"
    ? keccak256(encodeAbiParameters([{ type: "address" }, { type: slotType }], [key, slot as never]))
    : keccak256(encodeAbiParameters([{ type: slotType }, { type: "address" }], [slot as never, key]))
}

const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).chain((bytes) => fc.boolean().map((checksummed) => {
  const hex = toHex(bytes)
  return (checksummed ? getAddress(hex) : hex) as Address
}))
const layout = fc.constantFrom<MappingLayout>("solidity", "vyper")
const slot = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n })

describe("storage keys", () => {
  test("balances[holder]: as the ABI encoder and keccak256 give it, either layout, any slot", () => {
    fc.assert(fc.property(layout, slot, address, (l, s, holder) => {
      expect(balanceKey({ layout: l, slot: s }, holder)).toBe(reference(l, holder, s))
    }), { numRuns: 500 })
  })

  test("allowances[owner][spender]: the inner key is the outer mapping's slot", () => {
    fc.assert(fc.property(layout, slot, address, address, (l, s, owner, spender) => {
      expect(allowanceKey({ layout: l, slot: s }, owner, spender)).toBe(reference(l, spender, reference(l, owner, s)))
    }), { numRuns: 500 })
  })

  test("a known key: balances[0x…01] at Solidity slot 0", () => {
    // keccak256(abi.encode(address(1), uint256(0)))
    expect(balanceKey({ layout: "solidity", slot: 0n }, "0x0000000000000000000000000000000000000001")).toBe("0xada5013122d395ba3c54772283fb069b10426056ef8ca54750cb9bb552a59e7d")
  })
})
