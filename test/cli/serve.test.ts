// `bun run serve` as an operator runs it: over a devnet's manifest (the
// environment always winning), the API and the admin listener until SIGTERM;
// settings that cannot be served refused at start with a message naming the
// variable and the entry, before anything listens.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { makeApiKeys } from "../../src/access/index.ts"
import { loadKeyStoreConfig } from "../../src/config/index.ts"
import { manifestVenue, stablePools, writeManifest } from "../../src/devnet/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { cliTestResources, linesOf, waitFor } from "./processes.ts"

const ROOT = resolve(import.meta.dir, "../..")
const { tempDir, track } = cliTestResources("serve-cli-")

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet.stop()
})

/** `bun run serve` with only the given variables of the chain side and the key store (none from this process). */
const spawnServe = (args: string[], vars: Record<string, string>) => {
  const env: Record<string, string | undefined> = { ...process.env, PORT: "0", LOG_LEVEL: "error", ...vars }
  for (const name of ["CHAIN_ID", "RPC_URL", "EXECUTOR_ADDRESS", "MULTICALL3_ADDRESS", "DEXES", "PRICE_FEEDS", "AGGREGATORS", "V2_FACTORY", "V3_FACTORY", "V4_POOL_MANAGER", "V4_STATE_VIEW", "KEY_HASH_SECRET", "ADMIN_PORT", "ADMIN_HOST", "ADMIN_TOKEN", "REDIS_URL", "MARKET_SNAPSHOT"]) {
    if (!(name in vars)) delete env[name]
  }
  return track(Bun.spawn([process.execPath, "run", "--silent", "serve", ...args], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" }))
}

const refused = async (proc: ReturnType<typeof spawnServe>) => {
  const [code, stdout, stderr] = await Promise.all([proc.exited, new Response(proc.stdout).text(), new Response(proc.stderr).text()])
  expect(code).toBe(1)
  expect(stdout).not.toContain("API ready")
  return stderr.trim().split("\n")
}

describe("bun run serve", () => {
  test("--manifest: serves quotes over the devnet it names, /health sees its market; SIGTERM stops it with exit 0", async () => {
    const dir = tempDir()
    const manifestPath = join(dir, "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const databaseUrl = join(dir, "keys.sqlite")
    const proc = spawnServe(["--manifest", manifestPath], { DATABASE_URL: databaseUrl, ADMIN_PORT: "0", LOG_LEVEL: "info" })
    const stdout = linesOf(proc.stdout)
    await waitFor(() => stdout.some((l) => l.startsWith("API ready at ")), 30_000, "the API")
    const ready = stdout.find((l) => l.startsWith("API ready at "))!
    expect(ready).toMatch(new RegExp(`^API ready at http://127\\.0\\.0\\.1:\\d+/api/v1 \\(executor ${devnet.manifest.executor}\\)$`))
    const baseUrl = ready.split(" ")[3]!

    const { key } = await Effect.runPromise(
      Effect.scoped(Effect.flatMap(loadKeyStoreConfig({ DATABASE_URL: databaseUrl }), (config) => Effect.flatMap(makeApiKeys(config), (keys) => keys.create({ name: "serve" })))),
    )
    const tokens = devnet.manifest.tokens
    const quote = await fetch(`${baseUrl}/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ tokenIn: tokens.USDC!.address, tokenOut: tokens.EURC!.address, amountIn: "1000000" }),
    })
    expect(quote.status).toBe(200)
    // every venue of the manifest is served: DAI is only in the stable pools of xylonet
    const dai = await fetch(`${baseUrl}/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ tokenIn: tokens.USDC!.address, tokenOut: tokens.DAI!.address, amountIn: "1000000" }),
    })
    expect(dai.status).toBe(200)
    const daiHops = ((await dai.json()) as { route: { hops: { dex: string; pool: string }[] }[] }).route.flatMap((split) => split.hops)
    expect(daiHops.at(-1)).toMatchObject({ dex: "xylonet" })
    expect(stablePools(devnet.manifest).map((p) => p.pool.toLowerCase())).toContain(daiHops.at(-1)!.pool.toLowerCase())

    // the admin listener, named in the start's log line, checks the market the programs follow
    const listening = stdout.map((l) => (l.startsWith("{") ? (JSON.parse(l) as { message: string }).message : "")).find((m) => m.startsWith("API listening on "))!
    const adminUrl = /; admin on (http:\/\/[^ ]+) \(\/metrics, \/health\)$/.exec(listening)![1]!
    const health = await fetch(`${adminUrl}/health`)
    expect(health.status).toBe(200)
    expect(((await health.json()) as { checks: { market: { ok: boolean } } }).checks.market.ok).toBe(true)

    proc.kill("SIGTERM")
    expect(await proc.exited).toBe(0)
    for (const url of [`${baseUrl}/quote`, `${adminUrl}/health`]) {
      expect(await fetch(url, { method: "POST" }).then(() => "answered", () => "refused")).toBe("refused")
    }
  }, 60_000)

  test("a variable wins over the manifest: a wrong one is refused even where the manifest is right", async () => {
    const manifestPath = join(tempDir(), "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const lines = await refused(spawnServe(["--manifest", manifestPath], { DATABASE_URL: ":memory:", EXECUTOR_ADDRESS: "0x12" }))
    expect(lines).toEqual(["error: invalid configuration:", "EXECUTOR_ADDRESS: is not an address (all-lowercase or correctly checksummed): 0x12"])
  }, 30_000)

  test("an admin listener on 0.0.0.0 without ADMIN_TOKEN is refused at start, naming ADMIN_TOKEN", async () => {
    const manifestPath = join(tempDir(), "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const lines = await refused(spawnServe(["--manifest", manifestPath], { DATABASE_URL: ":memory:", ADMIN_PORT: "0", ADMIN_HOST: "0.0.0.0" }))
    expect(lines).toEqual([
      "error: invalid configuration:",
      'ADMIN_TOKEN: required when ADMIN_HOST is not loopback (got "0.0.0.0"): admin requests must then carry Authorization: Bearer <ADMIN_TOKEN>',
    ])
  }, 30_000)

  test("a CHAIN_ID that is not the node's stops the start, naming both chains; one that is not Arc's is a bad setting", async () => {
    const manifestPath = join(tempDir(), "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const lines = await refused(spawnServe(["--manifest", manifestPath], { DATABASE_URL: ":memory:", CHAIN_ID: "5042002" }))
    expect(lines).toEqual([
      "error: CHAIN_ID: the endpoint serves chain 5042, expected 5042002; it must be the node's chain, 5042 (Arc) or 5042002 (Arc testnet)",
    ])
    const other = await refused(spawnServe(["--manifest", manifestPath], { DATABASE_URL: ":memory:", CHAIN_ID: "1" }))
    expect(other).toEqual(["error: invalid configuration:", "CHAIN_ID: must be 5042 (Arc) or 5042002 (Arc testnet), got 1"])
  }, 60_000)

  test("an RPC_URL in plain http to a host that is not loopback is refused at start, naming it, before anything listens", async () => {
    const manifestPath = join(tempDir(), "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const lines = await refused(spawnServe(["--manifest", manifestPath], { DATABASE_URL: ":memory:", RPC_URL: `${devnet.manifest.rpcUrl},http://10.11.12.13:8545/key` }))
    expect(lines).toEqual([
      "error: invalid configuration:",
      "RPC_URL: http://10.11.12.13:8545 is plain http to a host that is not loopback, so its answers could be changed on the way: use https, or set RPC_ALLOW_INSECURE=1 for a network you trust",
    ])
  }, 30_000)

  test("DEXES the service cannot serve are refused at start, naming each venue, with the API's bad settings", async () => {
    const manifestPath = join(tempDir(), "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const v2Factory = manifestVenue(devnet.manifest, "uniswap-v2", "uniswap-v2").factory
    const dexes = [
      { name: "uniswap-v2", kind: "uniswap-v2", factory: v2Factory },
      // a second venue over the same factory
      { name: "arcade-v2", kind: "uniswap-v2", factory: v2Factory },
      // a stable venue whose factory is another venue's
      { name: "xylonet", kind: "curve-stableswap", factory: v2Factory },
    ]
    const lines = await refused(spawnServe(["--manifest", manifestPath], { DATABASE_URL: ":memory:", DEXES: JSON.stringify(dexes), MAX_IN_FLIGHT: "0" }))
    expect(lines).toEqual([
      "error: invalid configuration:",
      'MAX_IN_FLIGHT: must be an integer from 1 to 1000000, got "0"',
      `DEXES: venue arcade-v2 (uniswap-v2) cannot be served: its contract ${v2Factory.toLowerCase()} is venue uniswap-v2's too`,
      `DEXES: venue xylonet (curve-stableswap) cannot be served: its contract ${v2Factory.toLowerCase()} is venue uniswap-v2's too`,
    ])
  }, 30_000)

  test("without a manifest, each missing chain setting is named", async () => {
    const lines = await refused(spawnServe([], { DATABASE_URL: ":memory:" }))
    expect(lines).toEqual([
      "error: invalid configuration:",
      "RPC_URL: is not set (and no manifest gives it)",
      "EXECUTOR_ADDRESS: is not set (and no manifest gives it)",
      "MULTICALL3_ADDRESS: is not set (and no manifest gives it)",
    ])
  }, 30_000)

  test("a manifest that cannot be read is named; a bad flag is a usage error", async () => {
    const path = join(tempDir(), "broken.json")
    writeFileSync(path, "{")
    const lines = await refused(spawnServe(["--manifest", path], {}))
    expect(lines[0]).toStartWith(`error: cannot read the manifest ${path}: `)
    const usage = spawnServe(["--manifets", path], {})
    const [code, stderr] = await Promise.all([usage.exited, new Response(usage.stderr).text()])
    expect(code).toBe(2)
    expect(stderr).toContain("usage: bun run serve [--manifest FILE]")
  }, 30_000)

  test("the market's snapshot is signed under the key store's secret: restored by a start with that secret, refused under another, not kept without a lasting one", async () => {
    const dir = tempDir()
    const manifestPath = join(dir, "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const snapshot = join(dir, "market.sqlite")
    /** A start until the API is ready, then SIGTERM: the market's log lines. */
    const run = async (vars: Record<string, string>) => {
      const proc = spawnServe(["--manifest", manifestPath], { MARKET_SNAPSHOT: snapshot, LOG_LEVEL: "info", ...vars })
      const stdout = linesOf(proc.stdout)
      await waitFor(() => stdout.some((l) => l.startsWith("API ready at ")), 60_000, "the API")
      proc.kill("SIGTERM")
      expect(await proc.exited).toBe(0)
      return stdout.map((l) => (l.startsWith("{") ? (JSON.parse(l) as { message: string }).message : "")).filter((m) => m.startsWith("MarketState"))
    }
    const restored = (lines: string[]) => lines.some((l) => l.includes("restored the market"))

    // a SQLite key store: its secret file beside it, generated at this start, signs the snapshot
    const keys = join(dir, "keys.sqlite")
    expect(restored(await run({ DATABASE_URL: keys }))).toBe(false)
    // that secret given as KEY_HASH_SECRET (keys in memory): the same snapshot key, the snapshot restored
    const secret = readFileSync(`${keys}.hash-secret`, "utf8").trim()
    expect(restored(await run({ DATABASE_URL: ":memory:", KEY_HASH_SECRET: secret }))).toBe(true)
    // another key store, another secret: refused, and the market loaded from the chain
    const other = await run({ DATABASE_URL: join(dir, "other-keys.sqlite") })
    expect(other.filter((l) => l.includes("stored snapshot not used"))).toEqual([expect.stringContaining("does not verify")])
    expect(restored(other)).toBe(false)
    // keys in memory without KEY_HASH_SECRET: no secret outlives the process, no snapshot is kept or read
    const memory = await run({ DATABASE_URL: ":memory:" })
    expect(memory).toContainEqual(expect.stringContaining(`no snapshot kept in ${snapshot}: no secret outlives this process`))
    expect(restored(memory)).toBe(false)
  }, 300_000)
})
