// `bun run devnet` as a user runs it: the manifest appears when the chain is
// ready (readable by its owner alone), SIGINT/SIGTERM stop everything, a killed
// parent leaves no node, a bad scenario is refused before any node starts, a
// busy port is named at once.
import { describe, expect, test } from "bun:test"
import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { readManifest } from "../../src/devnet/index.ts"
import { alive, answers, anvilUnder, cliTestResources, nodesOnPort, waitFor } from "./processes.ts"

const ROOT = resolve(import.meta.dir, "../..")
const { tempDir, track, hold } = cliTestResources("devnet-cli-")

const spawnDevnet = (args: string[]) => {
  const proc = Bun.spawn([process.execPath, "run", "devnet", ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" })
  return track(proc)
}

describe("bun run devnet", () => {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    test(`writes the manifest when ready and stops the node on ${signal}`, async () => {
      const manifestPath = join(tempDir(), "m.json")
      const proc = spawnDevnet(["--port", "0", "--manifest", manifestPath])
      await waitFor(() => existsSync(manifestPath), 30_000, "the manifest")
      const manifest = readManifest(manifestPath)
      // the default scenario's venues, by name and kind
      expect(Object.entries(manifest.dexes).map(([name, venue]) => `${name}:${venue.kind}`)).toEqual([
        "uniswap-v2:uniswap-v2", "uniswap-v3:uniswap-v3", "uniswap-v4:uniswap-v4", "arcade-v2:uniswap-v2", "synthra-v3:uniswap-v3", "xylonet:curve-stableswap",
      ])
      // it holds private keys: its owner alone reads it, and no temporary file is left beside it
      expect(statSync(manifestPath).mode & 0o777).toBe(0o600)
      expect(readdirSync(join(manifestPath, ".."))).toEqual(["m.json"])
      expect(await answers(manifest.rpcUrl)).toBe("0x13b2")
      const nodes = await anvilUnder(proc.pid)
      expect(nodes).toHaveLength(1)
      proc.kill(signal)
      expect(await proc.exited).toBe(0)
      expect(await answers(manifest.rpcUrl)).toBeUndefined()
      expect(alive(nodes[0]!)).toBe(false)
    }, 60_000)
  }

  for (const target of ["the runner", "the devnet process"] as const) {
    test(`killing ${target} with SIGKILL leaves no node behind`, async () => {
      const manifestPath = join(tempDir(), "m.json")
      const proc = spawnDevnet(["--port", "0", "--manifest", manifestPath])
      await waitFor(() => existsSync(manifestPath), 30_000, "the manifest")
      const manifest = readManifest(manifestPath)
      const [nodePid] = await anvilUnder(proc.pid)
      expect(nodePid).toBeGreaterThan(0)
      if (target === "the runner") {
        // `bun run` itself: its script is left without a parent
        proc.kill("SIGKILL")
      } else {
        const script = (await new Response(Bun.spawn(["pgrep", "-P", String(proc.pid)]).stdout).text()).split("\n").filter(Boolean).map(Number)
        expect(script.length).toBeGreaterThan(0)
        for (const pid of script) process.kill(pid, "SIGKILL")
      }
      await waitFor(() => !alive(nodePid!), 10_000, "the node to stop")
      expect(await answers(manifest.rpcUrl)).toBeUndefined()
    }, 60_000)
  }

  test("a scenario that cannot be built is refused before any node starts", async () => {
    const dir = tempDir()
    const scenarioPath = join(dir, "bad.json")
    const manifestPath = join(dir, "m.json")
    writeFileSync(scenarioPath, JSON.stringify({ tokens: [], pools: [{ dex: "uniswap-v2", tokens: ["USDC", "NOPE"], reserves: ["1", "1"] }] }))
    const port = 20_000 + Math.floor(Math.random() * 20_000)
    const proc = spawnDevnet(["--scenario", scenarioPath, "--port", String(port), "--manifest", manifestPath])
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    expect(code).toBe(1)
    expect(stderr).toContain("pools[0] (uniswap-v2 USDC/NOPE): unknown token NOPE")
    expect(existsSync(manifestPath)).toBe(false)
    expect(await answers(`http://127.0.0.1:${port}`)).toBeUndefined()
  }, 30_000)

  test("a busy --port is named at once, and no node is left", async () => {
    const { port } = hold()
    const manifestPath = join(tempDir(), "m.json")
    const started = Date.now()
    const proc = spawnDevnet(["--port", String(port), "--manifest", manifestPath])
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    expect(code).toBe(1)
    expect(stderr).toContain(`error: port ${port} on 127.0.0.1 is already in use (--port to choose another)`)
    expect(Date.now() - started).toBeLessThan(5_000)
    expect(await nodesOnPort(port)).toEqual([])
    expect(existsSync(manifestPath)).toBe(false)
  }, 30_000)

  test("a bad flag is a usage error", async () => {
    const proc = spawnDevnet(["--port", "eighty"])
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    expect(code).toBe(2)
    expect(stderr).toContain("--port must be a port number")
    const unknown = spawnDevnet(["--scenaro", "x.json"])
    const [code2, stderr2] = await Promise.all([unknown.exited, new Response(unknown.stderr).text()])
    expect(code2).toBe(2)
    expect(stderr2).toContain("--scenaro")
  }, 30_000)

  test("a missing scenario file is named", async () => {
    const proc = spawnDevnet(["--scenario", "/nonexistent/s.json", "--port", "0", "--manifest", join(tempDir(), "m.json")])
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    expect(code).toBe(1)
    expect(stderr).toContain("/nonexistent/s.json")
  }, 30_000)
})
