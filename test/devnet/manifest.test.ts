// The manifest on disk: whole or not at all, and readable by its owner alone
// (it holds private keys and the demo API key), whatever was there before.
import { afterEach, describe, expect, test } from "bun:test"
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { readManifest, writeManifest, type Manifest } from "../../src/devnet/manifest.ts"

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
  tokens: { USDC: { address: `0x36${"0".repeat(38)}`, decimals: 6, native: address("0") } },
  dexes: {
    "uniswap-v2": { factory: address("4") },
    "uniswap-v3": { factory: address("5"), quoter: address("6") },
    "uniswap-v4": { poolManager: address("7"), quoter: address("8"), stateView: address("9") },
  },
  pools: [],
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
