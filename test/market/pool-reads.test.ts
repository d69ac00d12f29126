// A pool's state reads, which a step decodes by the hundred: every answer (any
// words, within each output's type or not) decodes to what viem's
// decodeFunctionResult gives, an answer too short fails as viem's does, and
// a pool's reads keep nothing of their own between blocks.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { decodeFunctionResult, encodeFunctionData, type Abi, type Address, type Hex } from "viem"
import type { Read } from "../../src/chain/index.ts"
import { STABLE_POOL_ABI, V2_PAIR_ABI, V3_POOL_ABI, V4_STATE_VIEW_ABI } from "../../src/market/abis.ts"
import type { Meta } from "../../src/market/pool-meta.ts"
import { poolReads } from "../../src/market/pool-reads.ts"

const A = "0x1111111111111111111111111111111111111111" as Address
const B = "0x2222222222222222222222222222222222222222" as Address
const V4_ID = `0x${"ab".repeat(32)}` as Hex
const base = { venue: "v", key: "k" }

/** each pool kind, with the functions its reads call, in order */
const POOLS: { meta: Meta; calls: { abi: Abi; functionName: string }[] }[] = [
  { meta: { ...base, kind: "uniswap-v2", id: A, token0: A, token1: B, feeBps: 30 }, calls: [{ abi: V2_PAIR_ABI, functionName: "getReserves" }] },
  {
    meta: { ...base, kind: "uniswap-v3", id: A, token0: A, token1: B, fee: 500, tickSpacing: 10 },
    calls: [{ abi: V3_POOL_ABI, functionName: "slot0" }, { abi: V3_POOL_ABI, functionName: "liquidity" }],
  },
  {
    meta: { ...base, kind: "uniswap-v4", id: V4_ID, token0: A, token1: B, fee: 500, tickSpacing: 10, hooks: A, poolManager: B, stateView: B },
    calls: [{ abi: V4_STATE_VIEW_ABI, functionName: "getSlot0" }, { abi: V4_STATE_VIEW_ABI, functionName: "getLiquidity" }],
  },
  {
    meta: { ...base, kind: "curve-stableswap", id: A, coins: [A, B], rates: [1n, 1n] },
    calls: ["balances", "balances", "A_precise", "fee", "future_A_time", "admin_fee"].map((functionName) => ({ abi: STABLE_POOL_ABI, functionName })),
  },
]

const readsOf = (meta: Meta, reads = poolReads()): Read<unknown>[] => {
  const out: Read<unknown>[] = []
  reads.baseReadsOf(meta, (r) => out.push(r as Read<unknown>) - 1)
  return out
}

const outcome = (f: () => unknown) => {
  try {
    return { value: f() }
  } catch {
    return { threw: true }
  }
}

// words as a node answers them: small values, values at the edge of their type, any 32 bytes
const word = fc.oneof(
  fc.bigInt({ min: 0n, max: 2n ** 24n }),
  fc.constantFrom(0n, 1n, 2n ** 23n - 1n, 2n ** 24n - 1n, 2n ** 112n - 1n, 2n ** 160n - 1n, 2n ** 256n - 1n, 2n ** 256n - 100n),
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
).map((v) => v.toString(16).padStart(64, "0"))

describe("a pool's state reads", () => {
  for (const { meta, calls } of POOLS) {
    test(`${meta.kind}: every answer decodes as viem decodes it; a short one fails as viem's does`, () => {
      const reads = readsOf(meta)
      expect(reads.length).toBe(calls.length)
      fc.assert(
        fc.property(fc.array(word, { minLength: 8, maxLength: 8 }), fc.nat({ max: 8 }), (words, kept) => {
          for (const [i, { abi, functionName }] of calls.entries()) {
            for (const data of [`0x${words.join("")}`, `0x${words.slice(0, kept).join("")}`] as Hex[]) {
              const ours = outcome(() => reads[i]!.decode(data))
              const viem = outcome(() => decodeFunctionResult({ abi, functionName, data }))
              expect(ours).toEqual(viem)
            }
          }
        }),
        { numRuns: 300 },
      )
    })
  }

  test("a pool's reads call what viem encodes, and keep nothing of their own: one decoder per function, shared by every pool", () => {
    const reads = poolReads()
    const other = "0x3333333333333333333333333333333333333333" as Address
    const argsOf = (meta: Meta, functionName: string, i: number): readonly unknown[] =>
      meta.kind === "uniswap-v4" ? [meta.id] : functionName === "balances" ? [BigInt(i)] : []
    for (const { meta, calls } of POOLS) {
      const first = readsOf(meta, reads)
      const elsewhere = readsOf({ ...meta, id: meta.kind === "uniswap-v4" ? (`0x${"cd".repeat(32)}` as Hex) : other } as Meta, reads)
      for (const [i, { abi, functionName }] of calls.entries()) {
        expect(first[i]!.callData).toBe(encodeFunctionData({ abi, functionName, args: argsOf(meta, functionName, i) } as never))
        expect(first[i]!.target).toBe(meta.kind === "uniswap-v4" ? meta.stateView : meta.id)
        expect(elsewhere[i]!.decode).toBe(first[i]!.decode)
      }
    }
  })
})
