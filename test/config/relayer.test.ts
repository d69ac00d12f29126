// RELAYER_PRIVATE_KEY and RELAYER_FEE_MARGIN_BPS: gasless swaps are off without a key; a bad key
// stops the start with a message naming the variable and never repeating the key.
import { describe, expect, test } from "bun:test"
import { Effect, Either, Redacted } from "effect"
import { AppConfig, ChainConfig, chainSettings, ServiceConfigLive, withManifest, type ManifestSource } from "../../src/config/index.ts"

const manifest: ManifestSource = {
  chainId: 5042,
  rpcUrl: "http://127.0.0.1:8545",
  executor: "0x1111111111111111111111111111111111111111",
  multicall3: "0xcA11bde05977b3631167028862bE2a173976CA11",
  tokens: {},
  dexes: {},
  priceFeeds: {},
  aggregators: [],
}
const KEY = `0x${"ab".repeat(32)}` as const

const refusal = (env: Record<string, string>) => {
  const result = chainSettings(env, manifest)
  if (Either.isRight(result)) throw new Error("accepted")
  return result.left
}

describe("the relayer's settings", () => {
  test("unset or blank: no relayer (gasless swaps off)", () => {
    expect(Either.getOrThrow(chainSettings({}, manifest)).relayer).toBeUndefined()
    expect(Either.getOrThrow(chainSettings({ RELAYER_PRIVATE_KEY: " ", RELAYER_FEE_MARGIN_BPS: "10" }, manifest)).relayer).toBeUndefined()
  })

  test("a key: redacted, margin 2000 bps unless RELAYER_FEE_MARGIN_BPS says", () => {
    const relayer = Either.getOrThrow(chainSettings({ RELAYER_PRIVATE_KEY: KEY.toUpperCase().replace("0X", "0x") }, manifest)).relayer!
    expect(Redacted.value(relayer.privateKey)).toBe(KEY)
    expect(relayer.feeMarginBps).toBe(2000)
    expect(String(relayer.privateKey)).not.toContain("abab")
    expect(JSON.stringify(relayer)).not.toContain("abab")
    expect(Either.getOrThrow(chainSettings({ RELAYER_PRIVATE_KEY: KEY, RELAYER_FEE_MARGIN_BPS: "0" }, manifest)).relayer!.feeMarginBps).toBe(0)
    expect(Either.getOrThrow(chainSettings({ RELAYER_PRIVATE_KEY: KEY, RELAYER_FEE_MARGIN_BPS: "10000" }, manifest)).relayer!.feeMarginBps).toBe(10_000)
  })

  test("a bad key or margin is refused, naming the variable, never printing the key", () => {
    for (const bad of ["abab", `0x${"ab".repeat(31)}`, `0x${"zz".repeat(32)}`, `0x${"00".repeat(32)}`, `0x${"ff".repeat(32)}`]) {
      const message = refusal({ RELAYER_PRIVATE_KEY: bad })
      expect(message).toStartWith("RELAYER_PRIVATE_KEY: ")
      if (bad.length > 8) expect(message).not.toContain(bad.slice(2, 20))
    }
    expect(refusal({ RELAYER_PRIVATE_KEY: KEY, RELAYER_FEE_MARGIN_BPS: "10001" })).toBe('RELAYER_FEE_MARGIN_BPS: must be an integer from 0 to 10000, got "10001"')
    expect(refusal({ RELAYER_PRIVATE_KEY: KEY, RELAYER_FEE_MARGIN_BPS: "1.5" })).toContain("RELAYER_FEE_MARGIN_BPS: ")
  })
})

test("serve's start stops on a bad key with a message naming RELAYER_PRIVATE_KEY", async () => {
  const bad = `0x${"cd".repeat(31)}`
  const error = await Effect.runPromise(Effect.flip(Effect.provide(Effect.all([AppConfig, ChainConfig]), ServiceConfigLive(withManifest({ RELAYER_PRIVATE_KEY: bad }, manifest)))))
  expect(error.message).toBe("invalid configuration:\nRELAYER_PRIVATE_KEY: must be 0x followed by 64 hex digits (a secp256k1 private key), got 64 characters")
  expect(error.message).not.toContain("cdcd")
})
