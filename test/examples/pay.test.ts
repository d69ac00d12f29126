// The exact-output example, run as an integrator runs it against a fresh `bun
// start`: it pays exactly 100 EURC from USDC to another account, and the chain
// holds what it printed.
import { describe, expect, test } from "bun:test"
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import { erc20Abi, createPublicClient, http, type Address } from "viem"
import { readManifest } from "../../src/devnet/index.ts"
import { answers, cliTestResources, waitFor } from "../cli/processes.ts"
import { exampleEnv } from "./example-env.ts"

const ROOT = resolve(import.meta.dir, "../..")
const { tempDir, track } = cliTestResources("example-pay-")

describe("examples/pay.ts", () => {
  test("pays exactly 100 EURC from USDC: the recipient gets the amount to the unit, the sender pays at most maxAmountIn", async () => {
    const dir = tempDir()
    const manifestPath = join(dir, "manifest.json")
    const start = track(Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], { cwd: dir, env: exampleEnv({ MANIFEST_PATH: manifestPath, PORT: "0", DEVNET_PORT: "0" }), stdout: "pipe", stderr: "pipe" }))
    await waitFor(() => existsSync(manifestPath) && readManifest(manifestPath).api !== undefined, 60_000, "bun start's manifest with the API")
    const manifest = readManifest(manifestPath)
    const chain = createPublicClient({ transport: http(manifest.rpcUrl) })
    const eurc = manifest.tokens.EURC!.address as Address
    const recipient = manifest.accounts[1]!.address as Address
    const heldBefore = await chain.readContract({ address: eurc, abi: erc20Abi, functionName: "balanceOf", args: [recipient] })

    const example = Bun.spawn([process.execPath, join(ROOT, "examples/pay.ts")], { cwd: dir, env: exampleEnv({ MANIFEST_PATH: manifestPath }), stdout: "pipe", stderr: "pipe" })
    const [stdout, stderr, code] = await Promise.all([new Response(example.stdout).text(), new Response(example.stderr).text(), example.exited])
    expect(stderr).toBe("")
    expect(code).toBe(0)

    expect(stdout).toContain(`paying 100 EURC to ${recipient} costs `)
    const [, amountIn, maxAmountIn] = /swap: amountIn (\d+), maxAmountIn (\d+) /.exec(stdout)!
    expect(BigInt(maxAmountIn!)).toBeGreaterThanOrEqual(BigInt(amountIn!))
    // the recipient, on chain: exactly 100 EURC more
    expect(await chain.readContract({ address: eurc, abi: erc20Abi, functionName: "balanceOf", args: [recipient] })).toBe(heldBefore + 100_000_000n)
    expect(stdout).toContain(`EURC of the recipient: ${heldBefore} -> ${heldBefore + 100_000_000n} (+100000000)`)
    // the sender paid the route's input and the gas, both in USDC: the input is what the swap said, within maxAmountIn
    const [, , , paid] = /USDC of the sender: (\d+) -> (\d+) \((-\d+)\)/.exec(stdout)!
    const gasWei = BigInt(/gas paid: (\d+) wei/.exec(stdout)![1]!)
    const input = -BigInt(paid!)
    // the ERC-20 balance is the native balance in whole 6-decimal units: the gas moves it by its wei rounded either way
    expect(input - BigInt(amountIn!)).toBeGreaterThanOrEqual(gasWei / 10n ** 12n)
    expect(input - BigInt(amountIn!)).toBeLessThanOrEqual(gasWei / 10n ** 12n + 1n)
    expect(BigInt(amountIn!)).toBeLessThanOrEqual(BigInt(maxAmountIn!))

    start.kill("SIGTERM")
    expect(await start.exited).toBe(0)
    expect(await answers(manifest.rpcUrl)).toBeUndefined()
  }, 120_000)
})
