// A reverted order's reason in words: the executor's own error by name (and
// arguments), Solidity's Error(string) and Panic(uint256), or nothing for empty data.
import { decodeErrorResult, type Hex } from "viem"
import { decodeExecutorError } from "../chain/index.ts"

const SOLIDITY_ERRORS = [
  { type: "error", name: "Error", inputs: [{ name: "message", type: "string" }] },
  { type: "error", name: "Panic", inputs: [{ name: "code", type: "uint256" }] },
] as const

export const describeRevert = (data: Hex): string | undefined => {
  if (data === "0x") return undefined
  const executor = decodeExecutorError(data)
  if (executor !== undefined) return executor.args.length === 0 ? executor.name : `${executor.name}(${executor.args.map(String).join(", ")})`
  try {
    const { errorName, args } = decodeErrorResult({ abi: SOLIDITY_ERRORS, data })
    return errorName === "Error" ? String(args[0]) : `panic ${String(args[0])}`
  } catch {
    return `revert data ${data.length > 74 ? `${data.slice(0, 74)}…` : data}`
  }
}
