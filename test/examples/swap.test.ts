// The example program, run as an integrator runs it against a fresh `bun
// start`: it exits 0, and the chain holds what it printed.
import { describe, expect, test } from "bun:test"
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import { erc20Abi, createPublicClient, http, type Address } from "viem"
import { readManifest } from "../../src/devnet/index.ts"
import { answers, cliTestResources, waitFor } from "../cli/processes.ts"
import { exampleEnv } from "./example-env.ts"

const ROOT = resolve(import.meta.dir, "../..")
const { tempDir, track } = cliTestResources("example-swap-")

describe("examples/swap.ts", () => {
  test("quotes, swaps with the quote's id, approves, sends the transaction as returned; the balances it prints are the chain's", async () => {
    const dir = tempDir()
    const manifestPath = join(dir, "manifest.json")
    const start = track(Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], { cwd: dir, env: exampleEnv({ MANIFEST_PATH: manifestPath, PORT: "0", DEVNET_PORT: "0" }), stdout: "pipe", stderr: "pipe" }))
    await waitFor(() => existsSync(manifestPath) && readManifest(manifestPath).api !== undefined, 60_000, "bun start's manifest with the API")
    const manifest = readManifest(manifestPath)

    const example = Bun.spawn([process.execPath, join(ROOT, "examples/swap.ts")], { cwd: dir, env: exampleEnv({ MANIFEST_PATH: manifestPath, TOKEN_IN: "USDC", TOKEN_OUT: "EURC", AMOUNT: "25" }), stdout: "pipe", stderr: "pipe" })
    const [stdout, stderr, code] = await Promise.all([new Response(example.stdout).text(), new Response(example.stderr).text(), example.exited])
    expect(stderr).toBe("")
    expect(code).toBe(0)

    const sender = manifest.accounts[0]!.address as Address
    const eurc = manifest.tokens.EURC!.address as Address
    const line = stdout.split("\n").find((l) => l.startsWith("EURC of the recipient: "))!
    const [, before, after, moved] = /^EURC of the recipient: (\d+) -> (\d+) \(\+(\d+)\)$/.exec(line)!
    const amountOut = /swap: amountOut (\d+) /.exec(stdout)![1]
    expect(moved).toBe(amountOut!)
    expect(BigInt(after!) - BigInt(before!)).toBe(BigInt(amountOut!))
    const chain = createPublicClient({ transport: http(manifest.rpcUrl) })
    expect(await chain.readContract({ address: eurc, abi: erc20Abi, functionName: "balanceOf", args: [sender] })).toBe(BigInt(after!))
    expect(stdout).toContain("(0 bps against the quote)")
    expect(stdout).toContain("swapping 25 USDC for EURC")

    start.kill("SIGTERM")
    expect(await start.exited).toBe(0)
    expect(await answers(manifest.rpcUrl)).toBeUndefined()
  }, 120_000)
})
