// RPC endpoints at start: https anywhere, plain http only to this machine,
// unless RPC_ALLOW_INSECURE=1; from the environment and from a manifest alike.
import { describe, expect, test } from "bun:test"
import { Either } from "effect"
import { chainSettings, type ManifestSource } from "../../src/config/index.ts"

const base = {
  EXECUTOR_ADDRESS: "0x13f6928e5b43913b358cfb40c3ab111dc1ac213c",
  MULTICALL3_ADDRESS: "0xca11bde05977b3631167028862be2a173976ca11",
}
const accepted = (env: Record<string, string>) => Either.getOrThrow(chainSettings({ ...base, ...env })).rpcUrls
const refused = (env: Record<string, string>, manifest?: ManifestSource) => {
  const result = chainSettings({ ...(manifest === undefined ? base : {}), ...env }, manifest)
  if (Either.isRight(result)) throw new Error(`accepted: ${result.right.rpcUrls.join(", ")}`)
  return result.left.split("\n")
}
const insecure = (origin: string) =>
  `RPC_URL: ${origin} is plain http to a host that is not loopback, so its answers could be changed on the way: use https, or set RPC_ALLOW_INSECURE=1 for a network you trust`

describe("RPC_URL", () => {
  test("https anywhere; plain http to 127.0.0.0/8, ::1 and localhost", () => {
    const urls = ["https://rpc.arc.network", "http://127.0.0.1:8545", "http://127.3.2.1:8545/", "http://[::1]:8545", "http://localhost:8545", "http://LOCALHOST:8545"]
    expect(accepted({ RPC_URL: urls.join(",") })).toEqual(urls)
  })

  test("plain http to any other host is refused at start, naming the endpoint by its origin (never a key in its path or user part)", () => {
    expect(refused({ RPC_URL: "http://10.0.0.5:8545" })).toEqual([insecure("http://10.0.0.5:8545")])
    expect(refused({ RPC_URL: "https://rpc-1.example, http://user:secret@rpc-2.example/v2/KEY" })).toEqual([insecure("http://rpc-2.example")])
    // names that look like loopback but are not
    expect(refused({ RPC_URL: "http://localhost.evil.example,http://127.0.0.1.nip.io,http://[::2]:8545,http://128.0.0.1" })).toEqual([
      insecure("http://localhost.evil.example"),
      insecure("http://127.0.0.1.nip.io"),
      insecure("http://[::2]:8545"),
      insecure("http://128.0.0.1"),
    ])
  })

  test("RPC_ALLOW_INSECURE=1 accepts plain http anywhere; 0 or unset does not", () => {
    expect(accepted({ RPC_URL: "http://10.0.0.5:8545", RPC_ALLOW_INSECURE: "1" })).toEqual(["http://10.0.0.5:8545"])
    expect(refused({ RPC_URL: "http://10.0.0.5:8545", RPC_ALLOW_INSECURE: "0" })).toEqual([insecure("http://10.0.0.5:8545")])
    expect(refused({ RPC_URL: "http://10.0.0.5:8545", RPC_ALLOW_INSECURE: "maybe" })).toEqual(['RPC_ALLOW_INSECURE: must be true or false, got "maybe"'])
  })

  test("a manifest's rpcUrl is held to the same rule", () => {
    const manifest: ManifestSource = {
      chainId: 5042,
      rpcUrl: "http://192.168.1.20:8545",
      executor: base.EXECUTOR_ADDRESS,
      multicall3: base.MULTICALL3_ADDRESS,
      tokens: {},
      dexes: {},
      priceFeeds: {},
      aggregators: [],
    }
    expect(refused({}, manifest)).toEqual([insecure("http://192.168.1.20:8545")])
    expect(Either.getOrThrow(chainSettings({ RPC_ALLOW_INSECURE: "true" }, manifest)).rpcUrls).toEqual(["http://192.168.1.20:8545"])
  })
})

describe("MAX_PRICE_IMPACT_BPS", () => {
  test("3000 unless set; 0 to 10000", () => {
    const limit = (env: Record<string, string>) => Either.getOrThrow(chainSettings({ ...base, RPC_URL: "http://127.0.0.1:8545", ...env })).maxPriceImpactBps
    expect(limit({})).toBe(3000)
    expect(limit({ MAX_PRICE_IMPACT_BPS: "500" })).toBe(500)
    expect(limit({ MAX_PRICE_IMPACT_BPS: "10000" })).toBe(10_000)
    expect(refused({ RPC_URL: "http://127.0.0.1:8545", MAX_PRICE_IMPACT_BPS: "10001" })).toEqual(['MAX_PRICE_IMPACT_BPS: must be an integer from 0 to 10000, got "10001"'])
    expect(refused({ RPC_URL: "http://127.0.0.1:8545", MAX_PRICE_IMPACT_BPS: "30%" })).toEqual(['MAX_PRICE_IMPACT_BPS: must be an integer from 0 to 10000, got "30%"'])
  })
})
