// A small EVM assembler: the opcodes the header hasher uses, pushes of one or two bytes, and
// labels resolved to jump destinations.
import { bytesToHex, type Hex } from "viem"

const OPCODES = {
  ADD: 0x01, EQ: 0x14, OR: 0x17, SHL: 0x1b, SHA3: 0x20, CALLDATALOAD: 0x35, CALLDATACOPY: 0x37, POP: 0x50, MSTORE: 0x52,
  JUMP: 0x56, JUMPI: 0x57, JUMPDEST: 0x5b, DUP1: 0x80, DUP2: 0x81, DUP3: 0x82, DUP5: 0x84, SWAP2: 0x91, RETURN: 0xf3,
} as const
export type Instruction = keyof typeof OPCODES | readonly ["PUSH", number] | readonly ["LABEL", string] | readonly ["PUSHLABEL", string]
export const assemble = (program: readonly Instruction[]): Hex => {
  const size = (ins: Instruction) => (typeof ins === "string" ? 1 : ins[0] === "PUSH" ? (ins[1] < 256 ? 2 : 3) : ins[0] === "LABEL" ? 1 : 3)
  const labels = new Map<string, number>()
  let at = 0
  for (const ins of program) {
    if (typeof ins !== "string" && ins[0] === "LABEL") labels.set(ins[1], at)
    at += size(ins)
  }
  const bytes: number[] = []
  for (const ins of program) {
    if (typeof ins === "string") bytes.push(OPCODES[ins])
    else if (ins[0] === "LABEL") bytes.push(OPCODES.JUMPDEST)
    else {
      const value = ins[0] === "PUSH" ? ins[1] : labels.get(ins[1])!
      if (ins[0] === "PUSH" && value < 256) bytes.push(0x60, value)
      else bytes.push(0x61, value >> 8, value & 0xff)
    }
  }
  return bytesToHex(Uint8Array.from(bytes))
}
