// The initialized ticks of many pools' tick windows through the TickWindowLens:
// its code placed at an address without code (an eth_call state override), it
// reads every bitmap word of each window next to the pools and answers with the
// ticks they mark and their liquidityNet. Most of a window's words are empty (a
// 1-spaced pool's window is 257 words): read one by one through Multicall3 they
// were most of a start's requests, bytes and time. The call data and the answer
// are fixed shapes, written and read by hand.
import { toFunctionSelector, type Address, type Hex } from "viem"
import { ownArtifact } from "../contracts/index.ts"
import type { TickInfo } from "../amm/index.ts"
import type { ConcentratedMeta } from "./pool-meta.ts"
import type { TickWindow } from "./tick-window.ts"

/** Where the lens's code is placed for the call; no contract lives there. */
export const TICK_LENS_ADDRESS: Address = "0x1e25000000000000000000000000000000001e25"

const SELECTOR = toFunctionSelector("windowTicks((address,bytes32,int24,int16,int16)[])")

let code: Hex | undefined
/** The lens's runtime code, read from its artifact once. */
export const tickLensCode = (): Hex => (code ??= ownArtifact("TickWindowLens").deployedBytecode)

const word = (n: bigint | number): string => BigInt.asUintN(256, BigInt(n)).toString(16).padStart(64, "0")

/** windowTicks(windows): a V3 pool by its address, a V4 pool by its StateView and id. */
export const encodeWindowTicks = (windows: readonly { readonly meta: ConcentratedMeta; readonly window: TickWindow }[]): Hex => {
  const parts: string[] = [SELECTOR, word(32), word(windows.length)]
  for (const { meta, window } of windows) {
    const v4 = meta.kind === "uniswap-v4"
    parts.push(
      (v4 ? meta.stateView : meta.id).slice(2).toLowerCase().padStart(64, "0"),
      v4 ? meta.id.slice(2).padStart(64, "0") : word(0),
      word(meta.tickSpacing),
      word(window.minWord),
      word(window.maxWord),
    )
  }
  return parts.join("") as Hex
}

/** One window's answer: its ticks, or that a read of it failed, or that the call's gas ran short before it. */
export type LensWindow = { readonly ticks: readonly TickInfo[] } | "failed" | "not-read"

/** The lens's int256[] answer, one entry per window asked; throws on an answer that is not one. */
export const decodeWindowTicks = (data: Hex, windows: number): LensWindow[] => {
  const hex = data.slice(2)
  const words = hex.length / 64
  const at = (i: number): bigint => {
    if (i >= words) throw new Error(`tick lens answer: word ${i} lies past its ${words} words`)
    return BigInt.asIntN(256, BigInt(`0x${hex.slice(i * 64, i * 64 + 64)}`))
  }
  if (hex.length % 64 !== 0 || at(0) !== 32n) throw new Error("tick lens answer: not an int256[]")
  const length = Number(at(1))
  if (length !== words - 2) throw new Error(`tick lens answer: ${length} values in ${words - 2} words`)
  const out: LensWindow[] = []
  let i = 2
  while (out.length < windows) {
    const count = at(i++)
    if (count === -1n) out.push("failed")
    else if (count === -2n) out.push("not-read")
    else if (count < 0n) throw new Error(`tick lens answer: window ${out.length} has count ${count}`)
    else {
      const ticks: TickInfo[] = []
      for (let k = 0; k < Number(count); k++) {
        const tick = Number(at(i++))
        ticks.push({ tick, liquidityNet: at(i++) })
      }
      out.push({ ticks })
    }
  }
  if (i !== words) throw new Error(`tick lens answer: ${words - i} words past the last window`)
  return out
}
