// The manifest on disk: whole or not at all, and readable by its owner alone
// (it holds private keys and the demo API key), whatever was there before.
import { afterEach, describe, expect, test } from "bun:test"
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  decodeManifest,
  executorVenueIds,
  isStablePool,
  manifestVenue,
  ManifestVenueError,
  pairPoolsOfKind,
  poolKind,
  readManifest,
  stablePools,
  venuesOfKind,
  writeManifest,
  type Manifest,
} from "../../src/devnet/manifest.ts"

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "manifest-"))
  dirs.push(dir)
  return dir
}

const address = (digit: string) => `0x${digit.repeat(40)}`
const manifest: Manifest = {
  chainId: 5042,
  rpcUrl: "http://127.0.0.1:8545",
  executor: address("1"),
  owner: { address: address("2"), privateKey: `0x${"ab".repeat(32)}` },
  feeCollector: address("3"),
  tokens: {
    USDC: { address: `0x36${"0".repeat(38)}`, decimals: 6, native: address("0"), permit: { name: "USDC", version: "2" } },
    EURC: { address: address("e"), decimals: 6, permit: { name: "EURC", version: "2" } },
  },
  dexes: {
    "uniswap-v2": { kind: "uniswap-v2", factory: address("4") },
    "uniswap-v3": { kind: "uniswap-v3", factory: address("5"), quoter: address("6") },
    "uniswap-v4": { kind: "uniswap-v4", poolManager: address("7"), quoter: address("8"), stateView: address("9") },
    "arcade-v2": { kind: "uniswap-v2", factory: address("b"), feeBps: 25 },
    "synthra-v3": { kind: "uniswap-v3", factory: address("c") },
    xylonet: { kind: "curve-stableswap", pools: [address("d"), address("f")], factory: `0x${"12".repeat(20)}` },
  },
  pools: [
    { dex: "arcade-v2", pool: address("e"), tokens: ["USDC", "EURC"] },
    { dex: "uniswap-v4", pool: `0x${"f".repeat(64)}`, tokens: ["EURC", "USDC"], fee: 100, tickSpacing: 1, hooks: address("0") },
    { dex: "xylonet", pool: address("d"), tokens: ["USDC", "USDT"], A: 1000, fee: 1_000_000 },
    { dex: "xylonet", pool: address("f"), tokens: ["USDC", "USDT", "DAI"], A: 400, fee: 4_000_000 },
  ],
  priceFeeds: {},
  multicall3: address("a"),
  aggregators: [],
  accounts: [],
  api: { baseUrl: "http://127.0.0.1:8080/api/v1", apiKey: "arc_0123456789abcdef_secret" },
}

const mode = (path: string) => statSync(path).mode & 0o777

describe("writeManifest", () => {
  test("writes mode 0600 in a new directory, and nothing else beside it", () => {
    const path = join(tempDir(), "new", "manifest.json")
    writeManifest(path, manifest)
    expect(mode(path)).toBe(0o600)
    expect(readManifest(path)).toEqual(manifest)
    expect(readdirSync(join(path, ".."))).toEqual(["manifest.json"])
  })

  test("replaces a manifest anyone could read with one only its owner reads", () => {
    const path = join(tempDir(), "manifest.json")
    writeFileSync(path, "{}")
    chmodSync(path, 0o644)
    writeManifest(path, manifest)
    expect(mode(path)).toBe(0o600)
    expect(readManifest(path).owner.privateKey).toBe(manifest.owner.privateKey)
  })

  test("a write that fails leaves what was there, and no temporary file", () => {
    const dir = tempDir()
    // a directory where the manifest should go: the rename into place fails
    const path = join(dir, "manifest.json")
    mkdirSync(path)
    expect(() => writeManifest(path, manifest)).toThrow()
    expect(statSync(path).isDirectory()).toBe(true)
    expect(readdirSync(dir)).toEqual(["manifest.json"])
  })
})

describe("venues", () => {
  test("the order of dexes survives a write and a read, and gives the executor's venue ids", () => {
    const path = join(tempDir(), "manifest.json")
    writeManifest(path, manifest)
    const read = readManifest(path)
    expect(Object.keys(read.dexes)).toEqual(["uniswap-v2", "uniswap-v3", "uniswap-v4", "arcade-v2", "synthra-v3", "xylonet"])
    // the stable venue has no id: its pools are registered one by one
    expect([...executorVenueIds(read)]).toEqual([["uniswap-v2", 1], ["uniswap-v3", 2], ["uniswap-v4", 3], ["arcade-v2", 4], ["synthra-v3", 5]])
  })

  test("a venue by name and kind, typed by its kind", () => {
    expect(manifestVenue(manifest, "uniswap-v3", "uniswap-v3").quoter).toBe(address("6"))
    expect(manifestVenue(manifest, "synthra-v3", "uniswap-v3").quoter).toBeUndefined()
    expect(manifestVenue(manifest, "uniswap-v4", "uniswap-v4").stateView).toBe(address("9"))
    expect(manifestVenue(manifest, "xylonet", "curve-stableswap").pools).toEqual([address("d"), address("f")])
    expect(manifestVenue(manifest, "xylonet", "curve-stableswap").factory).toBe(`0x${"12".repeat(20)}`)
    expect(() => manifestVenue(manifest, "nope", "uniswap-v2")).toThrow(new ManifestVenueError("the manifest has no venue nope"))
    expect(() => manifestVenue(manifest, "xylonet", "uniswap-v2")).toThrow(new ManifestVenueError("the manifest's venue xylonet is curve-stableswap, not uniswap-v2"))
    expect(venuesOfKind(manifest, "uniswap-v2").map((v) => [v.name, v.factory])).toEqual([["uniswap-v2", address("4")], ["arcade-v2", address("b")]])
  })

  test("pools by their venue's kind; stable pools with their coins, A and fee", () => {
    expect(pairPoolsOfKind(manifest, "uniswap-v2").map((p) => p.pool)).toEqual([address("e")])
    expect(pairPoolsOfKind(manifest, "uniswap-v4").map((p) => p.tokens)).toEqual([["EURC", "USDC"]])
    expect(stablePools(manifest).map((p) => [p.tokens.length, p.A, p.fee])).toEqual([[2, 1000, 1_000_000], [3, 400, 4_000_000]])
    expect(manifest.pools.map((p) => poolKind(manifest, p))).toEqual(["uniswap-v2", "uniswap-v4", "curve-stableswap", "curve-stableswap"])
    // a two-coin stable pool keeps its A and fee through a write and a read (not read as a pair)
    const path = join(tempDir(), "manifest.json")
    writeManifest(path, manifest)
    const two = readManifest(path).pools[2]!
    expect(isStablePool(two)).toBe(true)
    expect(two).toEqual({ dex: "xylonet", pool: address("d"), tokens: ["USDC", "USDT"], A: 1000, fee: 1_000_000 })
  })

  test("a venue without kind takes the kind of its name; any other is refused", () => {
    const json = JSON.parse(JSON.stringify(manifest))
    delete json.dexes["uniswap-v2"].kind
    expect(decodeManifest(json).dexes["uniswap-v2"]).toEqual({ kind: "uniswap-v2", factory: address("4") })
    delete json.dexes["arcade-v2"].kind
    expect(() => decodeManifest(json)).toThrow()
  })

  test("a token's permit domain is read as { name, version }; any other shape is refused", () => {
    const json = JSON.parse(JSON.stringify(manifest))
    expect(decodeManifest(json).tokens.EURC!.permit).toEqual({ name: "EURC", version: "2" })
    expect(decodeManifest(json).tokens.USDC!.permit).toEqual({ name: "USDC", version: "2" })
    for (const permit of [true, { name: "EURC" }, { name: "EURC", version: 2 }]) {
      json.tokens.EURC.permit = permit
      expect(() => decodeManifest(json)).toThrow()
    }
  })
})
