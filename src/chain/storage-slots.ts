// Where an ERC-20 keeps a holder's balance and an owner's allowance, found by
// overriding candidate storage slots in one eth_call each and seeing which
// value the token reports. Lets /swap simulate from a sender before the
// sender holds or has approved anything.
import { Effect } from "effect"
import { encodeFunctionData, hexToBigInt, keccak256, numberToHex, parseAbi, type Address, type Hex } from "viem"
import type { RpcService } from "./rpc.ts"

export type MappingLayout = "solidity" | "vyper"

export interface MappingSlot {
  readonly layout: MappingLayout
  /** the mapping's declared slot */
  readonly slot: bigint
}

/** Declared slots tried for each layout: tokens keep balances among their first variables. */
const CANDIDATE_SLOTS = 64n
/** A value no real balance has, plus the candidate's index. */
const MARKER = 0x5eed_0000_0000_0000_0000_0000_0000_0000n

const ERC20 = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function allowance(address, address) view returns (uint256)",
])

const word = (value: bigint): Hex => numberToHex(value, { size: 32 })

/** A 32-byte ABI word's 64 hex digits: an address left-padded, a uint256, or a bytes32 as it is. */
const addressWord = (a: Address): string => a.slice(2).toLowerCase().padStart(64, "0")
const slotWord = (slot: bigint | Hex): string => (typeof slot === "bigint" ? slot.toString(16).padStart(64, "0") : slot.slice(2).toLowerCase())

/** keccak256 of the key's and the slot's words, in the layout's order (Solidity: key first; Vyper: slot first). */
const keyOf = (layout: MappingLayout, key: Address, slot: bigint | Hex): Hex =>
  keccak256(layout === "solidity" ? `0x${addressWord(key)}${slotWord(slot)}` : `0x${slotWord(slot)}${addressWord(key)}`)

/** The storage key of balances[holder] under a mapping slot. */
export const balanceKey = (m: MappingSlot, holder: Address): Hex => keyOf(m.layout, holder, m.slot)

/** The storage key of allowances[owner][spender] under a mapping slot. */
export const allowanceKey = (m: MappingSlot, owner: Address, spender: Address): Hex =>
  keyOf(m.layout, spender, keyOf(m.layout, owner, m.slot))

const candidates = (): MappingSlot[] => {
  const all: MappingSlot[] = []
  for (let slot = 0n; slot < CANDIDATE_SLOTS; slot++) {
    all.push({ layout: "solidity", slot }, { layout: "vyper", slot })
  }
  return all
}

/**
 * Overrides every candidate key at once with a distinct marker and reads the
 * token: the marker it reports names the slot. Undefined when the token keeps
 * the value elsewhere (namespaced storage, or no storage at all).
 */
const findSlot = (rpc: RpcService, token: Address, data: Hex, keyFor: (m: MappingSlot) => Hex) =>
  Effect.gen(function* () {
    const all = candidates()
    const stateDiff = all.map((m, i) => ({ slot: keyFor(m), value: word(MARKER + BigInt(i)) }))
    const answer = yield* rpc.call({ to: token, data, stateOverride: [{ address: token, stateDiff }] }).pipe(
      Effect.map((r) => (r.length === 66 ? hexToBigInt(r) : undefined)),
      // a token that reverts on the read has no slot we can use
      Effect.catchTag("RpcError", (e) => (e.reason === "revert" ? Effect.succeed(undefined) : Effect.fail(e))),
    )
    if (answer === undefined || answer < MARKER || answer >= MARKER + BigInt(all.length)) return undefined
    return all[Number(answer - MARKER)]
  })

/** Probe accounts: never real holders, so no real balance interferes. */
const PROBE_OWNER: Address = "0x5eed00000000000000000000000000000000a11c"
const PROBE_SPENDER: Address = "0x5eed00000000000000000000000000000000b0b0"

export const findBalanceSlot = (rpc: RpcService, token: Address) =>
  findSlot(rpc, token, encodeFunctionData({ abi: ERC20, functionName: "balanceOf", args: [PROBE_OWNER] }), (m) => balanceKey(m, PROBE_OWNER))

export const findAllowanceSlot = (rpc: RpcService, token: Address) =>
  findSlot(
    rpc,
    token,
    encodeFunctionData({ abi: ERC20, functionName: "allowance", args: [PROBE_OWNER, PROBE_SPENDER] }),
    (m) => allowanceKey(m, PROBE_OWNER, PROBE_SPENDER),
  )
