// AGGREGATORS as a deployment sets it: every field checked at start with a
// message naming the entry; the manifest's list when the variable is unset.
import { describe, expect, test } from "bun:test"
import { Either } from "effect"
import { chainSettings } from "../../src/swap/chain-settings.ts"

const base = {
  RPC_URL: "http://127.0.0.1:8545",
  EXECUTOR_ADDRESS: "0x13f6928e5b43913b358cfb40c3ab111dc1ac213c",
  MULTICALL3_ADDRESS: "0xca11bde05977b3631167028862be2a173976ca11",
}
const settings = (aggregators: unknown, extra: Record<string, string> = {}) =>
  chainSettings({ ...base, AGGREGATORS: typeof aggregators === "string" ? aggregators : JSON.stringify(aggregators), ...extra })
const problem = (aggregators: unknown, extra: Record<string, string> = {}) => {
  const result = settings(aggregators, extra)
  if (Either.isRight(result)) throw new Error("accepted")
  return result.left
}

describe("AGGREGATORS", () => {
  test("entries of both kinds, with the optional fields", () => {
    const result = settings([
      { name: "zeroex", kind: "0x-v2", url: "https://api.0x.org", apiKey: "k", timeoutMs: 800, failureThreshold: 4, cooldownMs: 10_000 },
      { name: "kyber", kind: "kyberswap", url: "https://aggregator-api.kyberswap.com/arc" },
    ])
    expect(Either.getOrThrow(result).aggregators).toEqual([
      { name: "zeroex", kind: "0x-v2", url: "https://api.0x.org", apiKey: "k", timeoutMs: 800, failureThreshold: 4, cooldownMs: 10_000 },
      { name: "kyber", kind: "kyberswap", url: "https://aggregator-api.kyberswap.com/arc" },
    ])
  })

  test("unset: none", () => {
    expect(Either.getOrThrow(chainSettings(base)).aggregators).toEqual([])
  })

  test("refusals name the entry and the field", () => {
    expect(problem("[{")).toContain("AGGREGATORS must be a JSON array")
    expect(problem({ name: "x" })).toContain("not an array")
    expect(problem([{ name: "a", kind: "paraswap", url: "https://x" }])).toContain('kind "paraswap" is not one of 0x-v2, kyberswap')
    expect(problem([{ name: "a", kind: "0x-v2", url: "ftp://x" }])).toContain('url "ftp://x" is not an http(s) URL')
    expect(problem([{ name: "router", kind: "0x-v2", url: "https://x" }])).toContain("the own router's")
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x" }, { name: "a", kind: "kyberswap", url: "https://y" }])).toContain("the name a is used twice")
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x", timeoutMs: "fast" }])).toContain("timeoutMs must be a number")
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x", failureThreshold: 0 }])).toContain("failureThreshold must be an integer from 1")
  })

  test("a source's budget must sit inside the quote's", () => {
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x", timeoutMs: 5_000 }])).toContain("timeoutMs 5000 must be below the quote budget of 5000 ms")
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x" }], { QUOTE_TIMEOUT_MS: "1000" })).toContain("timeoutMs 1500 must be below the quote budget of 1000 ms")
    expect(Either.isRight(settings([{ name: "a", kind: "0x-v2", url: "https://x", timeoutMs: 900 }], { QUOTE_TIMEOUT_MS: "1000" }))).toBe(true)
  })
})
