// The gasless example, run as an integrator runs it against a fresh `bun
// start`: a new account holding 50 EURC and no USDC signs an order, the
// service's relayer sends it, and the chain shows the account sold its EURC
// for WETH without ever holding USDC.
import { describe, expect, test } from "bun:test"
import { existsSync } from "node:fs"
import { join, resolve } from "node:path"
import { erc20Abi, createPublicClient, http, parseAbiItem, type Address } from "viem"
import { readManifest } from "../../src/devnet/index.ts"
import { answers, cliTestResources, waitFor } from "../cli/processes.ts"
import { exampleEnv } from "./example-env.ts"

const ROOT = resolve(import.meta.dir, "../..")
const { tempDir, track } = cliTestResources("example-gasless-")

describe("examples/gasless.ts", () => {
  test("an account holding only EURC swaps 50 EURC for WETH by signing: the relayer sends it, the account's USDC stays 0", async () => {
    const dir = tempDir()
    const manifestPath = join(dir, "manifest.json")
    const start = track(Bun.spawn([process.execPath, join(ROOT, "src/main.ts")], { cwd: dir, env: exampleEnv({ MANIFEST_PATH: manifestPath, PORT: "0", DEVNET_PORT: "0" }), stdout: "pipe", stderr: "pipe" }))
    await waitFor(() => existsSync(manifestPath) && readManifest(manifestPath).api !== undefined, 60_000, "bun start's manifest with the API")
    const manifest = readManifest(manifestPath)
    const chain = createPublicClient({ transport: http(manifest.rpcUrl) })
    const eurc = manifest.tokens.EURC!.address as Address
    const weth = manifest.tokens.WETH!.address as Address
    const relayer = manifest.relayer!.address as Address
    const relayerWethBefore = await chain.readContract({ address: weth, abi: erc20Abi, functionName: "balanceOf", args: [relayer] })

    const example = Bun.spawn([process.execPath, join(ROOT, "examples/gasless.ts")], { cwd: dir, env: exampleEnv({ MANIFEST_PATH: manifestPath }), stdout: "pipe", stderr: "pipe" })
    const [stdout, stderr, code] = await Promise.all([new Response(example.stdout).text(), new Response(example.stderr).text(), example.exited])
    expect(stderr).toBe("")
    expect(code).toBe(0)

    const signer = /funded (0x[0-9a-fA-F]{40}) with 50 EURC; it holds 0 wei of USDC/.exec(stdout)![1] as Address
    expect(stdout).toMatch(/order 0x[0-9a-f]{64}: confirmed/)
    // on chain: every EURC sold, the WETH bought as printed, not one wei of USDC ever held
    const bought = BigInt(/WETH of the sender: 0 -> (\d+) \(\+\1\)/.exec(stdout)![1]!)
    expect(bought).toBeGreaterThan(0n)
    expect(await chain.readContract({ address: eurc, abi: erc20Abi, functionName: "balanceOf", args: [signer] })).toBe(0n)
    expect(await chain.readContract({ address: weth, abi: erc20Abi, functionName: "balanceOf", args: [signer] })).toBe(bought)
    expect(await chain.getBalance({ address: signer })).toBe(0n)
    expect(await chain.getTransactionCount({ address: signer })).toBe(0)
    expect(stdout).toContain("USDC of the sender: 0 -> 0 wei")
    // the relayer sent it and took its fee in WETH, as the executor's event says
    const [filled] = await chain.getLogs({
      address: manifest.executor as Address,
      event: parseAbiItem("event OrderFilled(bytes32 indexed orderHash, address indexed sender, address indexed relayer, uint256 amountIn, uint256 amountOut, uint256 relayerFee)"),
      args: { sender: signer },
      fromBlock: 0n,
    })
    expect(filled!.args.relayer).toBe(relayer)
    expect(filled!.args.amountIn).toBe(50_000_000n)
    expect(filled!.args.amountOut).toBe(bought)
    const fee = BigInt(/relayer fee (\d+) of WETH/.exec(stdout)![1]!)
    expect(filled!.args.relayerFee).toBe(fee)
    expect(await chain.readContract({ address: weth, abi: erc20Abi, functionName: "balanceOf", args: [relayer] })).toBe(relayerWethBefore + fee)

    start.kill("SIGTERM")
    expect(await start.exited).toBe(0)
    expect(await answers(manifest.rpcUrl)).toBeUndefined()
  }, 120_000)
})
