// `bun run keys` as an operator runs it, against the database of a running server:
// the key printed once on the last line, list never showing it, revoke taking
// effect on the server's next request, with no restart.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { startApiServer, syntheticPrograms, SYNTHETIC, type RunningApi } from "../../src/api/index.ts"

const ROOT = resolve(import.meta.dir, "../..")
let dir: string
let databaseUrl: string
let server: RunningApi

const keysCli = async (...args: string[]) => {
  const env: Record<string, string | undefined> = { ...process.env, DATABASE_URL: databaseUrl }
  delete env.KEY_HASH_SECRET
  const proc = Bun.spawn([process.execPath, "run", "--silent", "keys", ...args], { cwd: ROOT, env, stdout: "pipe", stderr: "pipe" })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { stdout, stderr, code }
}

const quote = (key: string) =>
  fetch(`${server.baseUrl}/quote`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify({ tokenIn: SYNTHETIC.tokens.usdc, tokenOut: SYNTHETIC.tokens.tokenA, amountIn: "1000" }),
  })

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "keys-cli-"))
  // the sqlite: URL form, shared by the server and each CLI process
  databaseUrl = `sqlite:${join(dir, "keys.sqlite")}`
  server = await startApiServer({ programs: syntheticPrograms(), env: { PORT: "0", DATABASE_URL: databaseUrl, LOG_LEVEL: "error" } })
})
afterAll(async () => {
  await server.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe("bun run keys", () => {
  test("create → works on the running server → list never shows it → revoke → refused on the next request", async () => {
    const created = await keysCli("create", "--name", "Partner One", "--rpm", "5", "--concurrency", "3")
    expect(created.code).toBe(0)
    const lines = created.stdout.trimEnd().split("\n")
    const key = lines.at(-1)!
    expect(key).toMatch(/^arc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
    const id = key.slice(4, 20)
    expect(created.stdout.split(key).length - 1).toBe(1)
    expect(lines.slice(0, -1).join("\n")).toContain(id)

    const first = await quote(key)
    expect(first.status).toBe(200)
    expect(first.headers.get("x-ratelimit-limit")).toBe("5")

    const listed = await keysCli("list")
    expect(listed.code).toBe(0)
    expect(listed.stdout).not.toContain(key.slice(21))
    const row = listed.stdout.split("\n").find((l) => l.startsWith(id))!
    expect(row.split(/\s{2,}/)).toEqual([id, "Partner One", "5", "3", expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), "-"])
    expect(listed.stdout.split("\n")[0]!.split(/\s+/)).toEqual(["id", "name", "rpm", "concurrency", "created", "revoked"])

    const json = await keysCli("list", "--json")
    const records = JSON.parse(json.stdout) as Array<Record<string, unknown>>
    expect(records.find((r) => r.id === id)).toMatchObject({ id, name: "Partner One", rpm: 5, concurrency: 3, revokedAt: null })
    expect(json.stdout).not.toContain(key.slice(21))

    const revoked = await keysCli("revoke", id)
    expect(revoked.code).toBe(0)
    expect(revoked.stdout.trim()).toBe(`revoked key ${id} "Partner One"`)

    const after = await quote(key)
    expect(after.status).toBe(401)
    expect(((await after.json()) as { error: { message: string } }).error.message).toBe("API key revoked")
    expect((await keysCli("list")).stdout.split("\n").find((l) => l.startsWith(id))).toMatch(/\d{4}-\d\d-\d\dT[\d:.]+Z$/)
  }, 30_000)

  test("defaults: 60 requests a minute, 2 in flight", async () => {
    const created = await keysCli("create", "--name", "defaults")
    const key = created.stdout.trimEnd().split("\n").at(-1)!
    expect(created.stdout).toContain("60 requests a minute, 2 in flight")
    expect((await quote(key)).headers.get("x-ratelimit-limit")).toBe("60")
  }, 30_000)

  test("mistakes: usage errors exit 2, an unknown id exits 1, each with a message", async () => {
    const none = await keysCli()
    expect(none.code).toBe(2)
    expect(none.stderr).toContain("error: no command given")
    expect(none.stderr).toContain("usage: bun run keys create --name NAME [--rpm N] [--concurrency N]")
    expect((await keysCli("create")).stderr).toContain("error: create needs --name NAME")
    const rpm = await keysCli("create", "--name", "x", "--rpm", "ten")
    expect(rpm.code).toBe(2)
    expect(rpm.stderr).toContain('error: --rpm must be a positive integer, got "ten"')
    expect((await keysCli("create", "--name", "x", "--bogus")).code).toBe(2)
    expect((await keysCli("revoke")).code).toBe(2)
    const unknown = await keysCli("revoke", "ffffffffffffffff")
    expect(unknown.code).toBe(1)
    expect(unknown.stderr.trim()).toBe("error: no key with id ffffffffffffffff")
    expect((await keysCli("frobnicate")).stderr).toContain('error: unknown command "frobnicate"')
    // eight runs of the command, each a process of its own: seconds on a loaded machine
  }, 30_000)
})
