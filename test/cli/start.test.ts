// `bun start` as a user runs it, in a working directory of its own: the demo key
// lives in the key store beside the manifest (never in the store `bun run serve`
// uses by default) and the previous run's is revoked there; a busy port, the
// API's or the chain's, is named at once and leaves nothing running; a failure
// after the devnet started stops it.
import { describe, expect, test } from "bun:test"
import { existsSync, mkdirSync, rmSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import { devnetRelayer, readManifest, type Manifest } from "../../src/devnet/index.ts"
import { answers, cliTestResources, freePort, nodesOnPort, waitFor } from "./processes.ts"

const ROOT = resolve(import.meta.dir, "../..")
const MAIN = join(ROOT, "src/main.ts")
const { tempDir, track, hold } = cliTestResources("start-cli-")

/** The environment of a user who set none of the key store's variables. */
const userEnv = (vars: Record<string, string>) => {
  const env: Record<string, string | undefined> = { ...process.env, HOST: "127.0.0.1", LOG_LEVEL: "error", ...vars }
  if (!("DATABASE_URL" in vars)) delete env.DATABASE_URL
  delete env.KEY_HASH_SECRET
  return env
}

/** `bun start` (package.json: `bun src/main.ts`), run from `cwd`. */
const spawnStart = (cwd: string, vars: Record<string, string>) => {
  const proc = Bun.spawn([process.execPath, MAIN], { cwd, env: userEnv(vars), stdout: "pipe", stderr: "pipe" })
  return track(proc)
}

const keysList = async (cwd: string, databaseUrl: string) => {
  const proc = Bun.spawn([process.execPath, join(ROOT, "src/cli/keys.ts"), "list", "--json"], {
    cwd,
    env: userEnv({ DATABASE_URL: databaseUrl }),
    stdout: "pipe",
    stderr: "pipe",
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  if (code !== 0) throw new Error(`bun run keys list failed: ${stderr}`)
  return JSON.parse(stdout) as Array<{ id: string; name: string; revokedAt: string | null }>
}

/** Runs `bun start` until its manifest names the API, then stops it with SIGTERM. */
const startAndStop = async (cwd: string, manifestPath: string): Promise<Manifest> => {
  rmSync(manifestPath, { force: true })
  const proc = spawnStart(cwd, { MANIFEST_PATH: manifestPath, PORT: "0", DEVNET_PORT: "0" })
  await waitFor(() => existsSync(manifestPath) && readManifest(manifestPath).api !== undefined, 30_000, "the manifest with the API")
  const manifest = readManifest(manifestPath)
  const quote = await fetch(`${manifest.api!.baseUrl}/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": manifest.api!.apiKey },
    body: JSON.stringify({ tokenIn: manifest.tokens.USDC!.address, tokenOut: manifest.tokens.EURC!.address, amountIn: "1000000" }),
  })
  // the server knows the key: it reads the store the key was put in
  expect(quote.status).not.toBe(401)
  // gasless swaps are on, sent from the devnet's funded relayer account, which no test account is
  expect(manifest.relayer).toEqual({ address: devnetRelayer.address })
  expect(manifest.accounts.map((a) => a.address)).not.toContain(devnetRelayer.address)
  const gasless = await fetch(`${manifest.api!.baseUrl}/gasless/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": manifest.api!.apiKey },
    body: JSON.stringify({ tokenIn: manifest.tokens.EURC!.address, tokenOut: manifest.tokens.USDC!.address, amountIn: "1000000", sender: manifest.accounts[0]!.address }),
  })
  expect(gasless.status).toBe(200)
  expect(((await gasless.json()) as any).order.typedData.domain.verifyingContract).toBe(manifest.executor)
  proc.kill("SIGTERM")
  expect(await proc.exited).toBe(0)
  expect(await answers(manifest.rpcUrl)).toBeUndefined()
  return manifest
}

/** Checks a start that failed: exit 1, the message, and nothing of it left running or written. */
const expectRefused = async (proc: ReturnType<typeof spawnStart>, message: string, chainPort: number, manifestPath: string) => {
  const started = Date.now()
  const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
  expect(stderr).toContain(message)
  expect(code).toBe(1)
  expect(Date.now() - started).toBeLessThan(10_000)
  expect(await answers(`http://127.0.0.1:${chainPort}`)).toBeUndefined()
  expect(await nodesOnPort(chainPort)).toEqual([])
  expect(existsSync(manifestPath)).toBe(false)
}

describe("bun start", () => {
  test("keeps its demo key beside the manifest, never in the serve store, and revokes the previous one", async () => {
    const cwd = tempDir()
    const manifestPath = join(cwd, ".devnet", "manifest.json")
    const store = join(cwd, ".devnet", "keys.sqlite")

    const first = await startAndStop(cwd, manifestPath)
    expect(statSync(manifestPath).mode & 0o777).toBe(0o600)
    expect(statSync(`${store}.hash-secret`).mode & 0o777).toBe(0o600)
    // `bun run serve`'s default store (.data/keys.sqlite of the working directory) is never touched
    expect(existsSync(join(cwd, ".data"))).toBe(false)
    const firstId = first.api!.apiKey.slice(4, 20)
    expect(await keysList(cwd, store)).toEqual([expect.objectContaining({ id: firstId, name: "demo (bun start)", revokedAt: null })])

    const second = await startAndStop(cwd, manifestPath)
    const secondId = second.api!.apiKey.slice(4, 20)
    expect(secondId).not.toBe(firstId)
    const keys = await keysList(cwd, store)
    expect(keys.map((k) => [k.id, k.revokedAt === null])).toEqual([[firstId, false], [secondId, true]])
    expect(existsSync(join(cwd, ".data"))).toBe(false)
  }, 90_000)

  test("a DATABASE_URL of the user's wins over the store beside the manifest", async () => {
    const cwd = tempDir()
    const manifestPath = join(cwd, "m.json")
    const databaseUrl = `sqlite:${join(cwd, "mine", "keys.sqlite")}`
    const proc = spawnStart(cwd, { MANIFEST_PATH: manifestPath, PORT: "0", DEVNET_PORT: "0", DATABASE_URL: databaseUrl })
    await waitFor(() => existsSync(manifestPath) && readManifest(manifestPath).api !== undefined, 30_000, "the manifest with the API")
    const id = readManifest(manifestPath).api!.apiKey.slice(4, 20)
    proc.kill("SIGTERM")
    expect(await proc.exited).toBe(0)
    expect((await keysList(cwd, databaseUrl)).map((k) => k.id)).toEqual([id])
    expect(existsSync(join(cwd, "keys.sqlite"))).toBe(false)
  }, 60_000)

  test("a busy API port is named at once, and nothing is left running", async () => {
    const cwd = tempDir()
    const { port } = hold()
    const chainPort = freePort()
    const manifestPath = join(cwd, "m.json")
    const proc = spawnStart(cwd, { MANIFEST_PATH: manifestPath, PORT: String(port), DEVNET_PORT: String(chainPort) })
    await expectRefused(proc, `error: port ${port} on 127.0.0.1 is already in use (PORT to choose another)`, chainPort, manifestPath)
  }, 30_000)

  test("a busy chain port is named at once, and nothing is left running", async () => {
    const cwd = tempDir()
    const { port } = hold()
    const manifestPath = join(cwd, "m.json")
    const proc = spawnStart(cwd, { MANIFEST_PATH: manifestPath, PORT: "0", DEVNET_PORT: String(port) })
    await expectRefused(proc, `error: port ${port} on 127.0.0.1 is already in use (DEVNET_PORT to choose another)`, port, manifestPath)
  }, 30_000)

  test("a failure after the devnet started stops the devnet", async () => {
    const cwd = tempDir()
    // a directory where the key store's file should be: it cannot be opened
    const notAFile = join(cwd, "keys.sqlite")
    mkdirSync(notAFile)
    const chainPort = freePort()
    const manifestPath = join(cwd, "m.json")
    const proc = spawnStart(cwd, { MANIFEST_PATH: manifestPath, PORT: "0", DEVNET_PORT: String(chainPort), DATABASE_URL: notAFile })
    await expectRefused(proc, `cannot open the key store ${notAFile}`, chainPort, manifestPath)
  }, 30_000)

  test("a bad DEVNET_PORT is named", async () => {
    const proc = spawnStart(tempDir(), { DEVNET_PORT: "eighty" })
    const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()])
    expect(code).toBe(1)
    expect(stderr).toContain('error: DEVNET_PORT must be a port number from 0 to 65535, got "eighty"')
  }, 30_000)
})
