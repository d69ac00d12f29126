// eth_simulateV1's request and answer, written and read as viem's simulateBlocks
// does, without what this service does not use: viem formats every simulated
// block and every log of every call, and builds an error object for each call
// that fails (each /swap simulates twice; the first gas search of a route's
// shape fails most of its calls on purpose).
import type { BlockOverrides, Hex, StateOverride } from "viem"

/** The JSON-RPC quantity of a non-negative integer, as viem's numberToHex writes it. */
const quantity = (n: bigint | number): Hex => `0x${n.toString(16)}`

export interface SimulateCall {
  readonly to: Hex
  readonly data: Hex
  readonly from?: Hex
  readonly value?: bigint
  readonly gas?: bigint
}

export interface SimulateBlock {
  readonly blockOverrides?: BlockOverrides
  readonly stateOverrides?: StateOverride
  readonly calls: readonly SimulateCall[]
}

const blockOverridesRpc = (o: BlockOverrides): Record<string, unknown> => ({
  ...(o.baseFeePerGas !== undefined ? { baseFeePerGas: quantity(o.baseFeePerGas) } : {}),
  ...(o.blobBaseFee !== undefined ? { blobBaseFee: quantity(o.blobBaseFee) } : {}),
  ...(o.feeRecipient !== undefined ? { feeRecipient: o.feeRecipient } : {}),
  ...(o.gasLimit !== undefined ? { gasLimit: quantity(o.gasLimit) } : {}),
  ...(o.number !== undefined ? { number: quantity(o.number) } : {}),
  ...(o.prevRandao !== undefined ? { prevRandao: quantity(o.prevRandao) } : {}),
  ...(o.time !== undefined ? { time: quantity(o.time) } : {}),
  ...(o.withdrawals !== undefined
    ? { withdrawals: o.withdrawals.map((w) => ({ address: w.address, amount: quantity(w.amount), index: quantity(w.index), validatorIndex: quantity(w.validatorIndex) })) }
    : {}),
})

const slots = (entries: readonly { readonly slot: Hex; readonly value: Hex }[]): Record<string, Hex> => {
  const out: Record<string, Hex> = {}
  for (const { slot, value } of entries) {
    if (slot.length !== 66 || value.length !== 66) throw new Error(`state override: slot ${slot} and value ${value} must be 32 bytes each`)
    out[slot] = value
  }
  return out
}

const stateOverridesRpc = (overrides: StateOverride): Record<string, unknown> => {
  const out: Record<string, Record<string, unknown>> = {}
  for (const { address, balance, nonce, code, state, stateDiff } of overrides) {
    if (out[address] !== undefined) throw new Error(`state override: ${address} is overridden twice`)
    if (state !== undefined && stateDiff !== undefined) throw new Error(`state override: ${address} has both state and stateDiff`)
    out[address] = {
      ...(code !== undefined ? { code } : {}),
      ...(balance !== undefined ? { balance: quantity(balance) } : {}),
      ...(nonce !== undefined ? { nonce: quantity(nonce) } : {}),
      ...(state !== undefined && state.length > 0 ? { state: slots(state) } : {}),
      ...(stateDiff !== undefined && stateDiff.length > 0 ? { stateDiff: slots(stateDiff) } : {}),
    }
  }
  return out
}

/** eth_simulateV1's two parameters: the blocks, and the block they build on (latest when not given). */
export const simulateParams = (blocks: readonly SimulateBlock[], blockNumber: bigint | undefined) =>
  [
    {
      blockStateCalls: blocks.map((block) => ({
        ...(block.blockOverrides !== undefined ? { blockOverrides: blockOverridesRpc(block.blockOverrides) } : {}),
        calls: block.calls.map((c) => ({
          data: c.data,
          ...(c.from !== undefined ? { from: c.from } : {}),
          ...(c.gas !== undefined ? { gas: quantity(c.gas) } : {}),
          to: c.to,
          ...(c.value !== undefined ? { value: quantity(c.value) } : {}),
        })),
        ...(block.stateOverrides !== undefined ? { stateOverrides: stateOverridesRpc(block.stateOverrides) } : {}),
      })),
    },
    blockNumber !== undefined ? quantity(blockNumber) : "latest",
  ] as const

/** One call's outcome in the node's answer: its status, its return (or revert) data, the gas it used. */
export interface SimulatedCallRpc {
  readonly status?: Hex
  readonly returnData?: Hex
  readonly gasUsed?: Hex
  readonly error?: { readonly data?: Hex }
}

export const simulatedCall = (call: SimulatedCallRpc) => ({
  success: call.status === "0x1",
  data: call.error?.data ?? call.returnData ?? "0x",
  gasUsed: BigInt(call.gasUsed ?? "0x0"),
})
