// The Tokens service on the default devnet: USDC's forms, metadata read from the
// chain (a symbol cleaned of control and bidi characters, cut at 32), and
// routability (TAX takes a fee on transfer, REB rebases).
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { getAddress, parseAbi, type Address } from "viem"
import { Rpc } from "../../src/chain/index.ts"
import { manifestVenue, poolKind, testAccounts } from "../../src/devnet/index.ts"
import { USDC_ERC20_ADDRESS } from "../../src/domain/index.ts"
import { ownArtifact } from "../../src/contracts/index.ts"
import type { NormalizedToken } from "../../src/domain/index.ts"
import { Tokens } from "../../src/tokens/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { recordingRpc, rpcConfig, tokenAddress, type MulticallRecord } from "../market/support.ts"

let devnet: TestDevnet
let runtime: ManagedRuntime.ManagedRuntime<Tokens | Rpc, unknown>
const multicalls: MulticallRecord[] = []
const run = <A, E>(effect: Effect.Effect<A, E, Tokens | Rpc>) => runtime.runPromise(effect)

const normalize = (address: string) => run(Effect.flatMap(Tokens, (t) => t.normalize(address)))
const routability = (token: Address, holders?: readonly Address[]) =>
  run(Effect.flatMap(Tokens, (t) => t.routability(token, holders === undefined ? undefined : { holders })))

/**
 * Accounts holding a token on the devnet: its pools on every venue (V2 pairs, V3 pools and
 * stable pools hold their tokens; a V4 pool's are held by its venue's PoolManager).
 */
const holdersOf = (symbol: string): Address[] =>
  devnet.manifest.pools
    .filter((p) => p.tokens.includes(symbol))
    .map((p) => (poolKind(devnet.manifest, p) === "uniswap-v4" ? manifestVenue(devnet.manifest, p.dex, "uniswap-v4").poolManager : p.pool) as Address)

beforeAll(async () => {
  devnet = await startTestDevnet()
  runtime = ManagedRuntime.make(Tokens.layer().pipe(Layer.provideMerge(recordingRpc(rpcConfig(devnet.manifest), multicalls))))
})

afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

const NATIVE: Omit<NormalizedToken, "input"> = {
  native: true,
  erc20Address: getAddress(USDC_ERC20_ADDRESS),
  scale: 10n ** 12n,
  decimals: 18,
  symbol: "USDC",
}

describe("normalize", () => {
  test("the zero address and 0xEeee… in any case are native USDC at scale 10^12", async () => {
    for (const address of [
      "0x0000000000000000000000000000000000000000",
      "0x" + "ee".repeat(20),
      "0x" + "EE".repeat(20),
      "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE",
      "0xeEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEe",
    ]) {
      expect(await normalize(address)).toEqual({ ...NATIVE, input: address })
    }
  })

  test("the ERC-20 at 0x3600… is USDC at scale 1 with 6 decimals, as the chain says", async () => {
    expect(await normalize("0x3600000000000000000000000000000000000000")).toEqual({
      input: getAddress(USDC_ERC20_ADDRESS),
      native: false,
      erc20Address: getAddress(USDC_ERC20_ADDRESS),
      scale: 1n,
      decimals: 6,
      symbol: "USDC",
    })
    const onChain = await devnet.client.readContract({
      address: USDC_ERC20_ADDRESS,
      abi: parseAbi(["function decimals() view returns (uint8)"]),
      functionName: "decimals",
    })
    expect(onChain).toBe(6)
  })

  test("other tokens: decimals and symbol read from the chain (the scenario's values)", async () => {
    const expected: Record<string, number> = { EURC: 6, cirBTC: 8, USDT: 6, WBTC: 8, WETH: 18, TAX: 18, REB: 18 }
    for (const [symbol, decimals] of Object.entries(expected)) {
      const address = tokenAddress(devnet.manifest, symbol)
      const token = await normalize(address.toLowerCase())
      expect(token).toEqual({ input: getAddress(address), native: false, erc20Address: getAddress(address), scale: 1n, decimals, symbol })
    }
  })

  test("a symbol carrying bidi and control characters, 49 characters long, is given cleaned and cut at 32", async () => {
    const TestToken = ownArtifact("TestToken")
    const raw = `\u202EUSDC\u202C\u0000\u0007\u200F\u2066\u0085${"x".repeat(40)}\u2069`
    const deployer = testAccounts[8]!.address
    const hash = await devnet.client.deployContract({ abi: TestToken.abi, bytecode: TestToken.bytecode, args: ["Hostile \u202Ename", raw, 18], account: deployer, chain: devnet.client.chain })
    const address = (await devnet.client.waitForTransactionReceipt({ hash })).contractAddress!
    // the chain answers the symbol verbatim
    expect(await devnet.client.readContract({ address, abi: parseAbi(["function symbol() view returns (string)"]), functionName: "symbol" })).toBe(raw)
    const token = await normalize(address)
    expect(token.symbol).toBe(`USDC${"x".repeat(28)}`)
    expect(await run(Effect.flatMap(Tokens, (t) => t.metadata(address)))).toEqual({ address: getAddress(address), symbol: `USDC${"x".repeat(28)}`, decimals: 18 })
  })

  test("metadata is cached: asking again reads nothing", async () => {
    const before = multicalls.length
    await normalize(tokenAddress(devnet.manifest, "EURC"))
    await normalize(tokenAddress(devnet.manifest, "WETH"))
    expect(multicalls.length).toBe(before)
  })

  test("a mixed-case address with a wrong checksum, or no address at all, is refused", async () => {
    const eurc = getAddress(tokenAddress(devnet.manifest, "EURC"))
    const flipped = eurc.slice(0, 2) + [...eurc.slice(2)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("")
    for (const bad of [flipped, "0x1234", "hello", "0x" + "g".repeat(40)]) {
      const result = await run(Effect.either(Effect.flatMap(Tokens, (t) => t.normalize(bad))))
      expect(Either.isLeft(result) && result.left._tag === "TokenError" && result.left.reason === "invalid-address").toBe(true)
    }
  })

  test("an account without an ERC-20 is not a token", async () => {
    const result = await run(Effect.either(Effect.flatMap(Tokens, (t) => t.normalize(testAccounts[5]!.address))))
    expect(Either.isLeft(result) && result.left._tag === "TokenError" && result.left.reason).toBe("not-a-token")
  })
})

describe("routability", () => {
  test("standard tokens are routable", async () => {
    // DAI is held by stable pools only
    for (const symbol of ["EURC", "cirBTC", "USDT", "WBTC", "WETH", "DAI"]) {
      expect(await routability(tokenAddress(devnet.manifest, symbol), holdersOf(symbol))).toEqual({ routable: true })
    }
  })

  test("USDC is routable in both forms without any check", async () => {
    const before = multicalls.length
    expect(await routability(USDC_ERC20_ADDRESS)).toEqual({ routable: true })
    expect(await routability("0x0000000000000000000000000000000000000000")).toEqual({ routable: true })
    expect(await routability("0xEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE")).toEqual({ routable: true })
    expect(multicalls.length).toBe(before)
  })

  test("TAX (1% fee on transfer) is detected: half the pool's 100000 TAX delivers 1% less", async () => {
    const answer = await routability(tokenAddress(devnet.manifest, "TAX"), holdersOf("TAX"))
    expect(answer.routable).toBe(false)
    if (answer.routable) return
    expect(answer.reason).toBe("fee-on-transfer")
    // the pool holds 100000 TAX (18 decimals); the probe sends half
    expect(answer.detail).toBe("a transfer out of a holder of 50000000000000000000000 delivers 49500000000000000000000")
  })

  test("REB (balances grow with time) is detected as rebasing", async () => {
    const answer = await routability(tokenAddress(devnet.manifest, "REB"), holdersOf("REB"))
    expect(answer.routable).toBe(false)
    if (!answer.routable) expect(answer.reason).toBe("rebasing")
  })

  test("answers are cached per token", async () => {
    const before = multicalls.length
    expect((await routability(tokenAddress(devnet.manifest, "TAX"), holdersOf("TAX"))).routable).toBe(false)
    expect(await routability(tokenAddress(devnet.manifest, "EURC"))).toEqual({ routable: true })
    expect(multicalls.length).toBe(before)
  })

  test("without a holder nothing can be checked: unverified, and not cached", async () => {
    const wbtc = tokenAddress(devnet.manifest, "WBTC")
    // a fresh service, so the earlier answer for WBTC is not in its cache
    const fresh = ManagedRuntime.make(Tokens.layer().pipe(Layer.provide(Rpc.layer(rpcConfig(devnet.manifest)))))
    try {
      const lonely = await fresh.runPromise(Effect.flatMap(Tokens, (t) => t.routability(wbtc, { holders: [testAccounts[7]!.address] })))
      expect(lonely.routable === false && lonely.reason).toBe("unverified")
      expect(await fresh.runPromise(Effect.flatMap(Tokens, (t) => t.routability(wbtc, { holders: holdersOf("WBTC") })))).toEqual({
        routable: true,
      })
    } finally {
      await fresh.dispose()
    }
  })

  test("a token whose transfers revert is transfer-restricted", async () => {
    // A minimal token, as runtime bytecode: decimals() = 18, any other call answers 10^24
    // (balanceOf), transfer(address,uint256) reverts.
    //   PUSH1 0 CALLDATALOAD PUSH1 0xe0 SHR                         selector
    //   DUP1 PUSH4 transfer EQ PUSH1 0x37 JUMPI                      → revert
    //   PUSH4 decimals EQ PUSH1 0x2c JUMPI                           → 18
    //   PUSH10 10^24 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    //   0x2c: JUMPDEST PUSH1 18 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
    //   0x37: JUMPDEST PUSH1 0 DUP1 REVERT
    const code =
      "0x600035" + "60e01c" + "8063a9059cbb14603757" + "63313ce56714602c57" + "69d3c21bcecceda1000000" + "600052" + "60206000f3" +
      "5b6012600052" + "60206000f3" + "5b600080fd"
    const token = "0x00000000000000000000000000000000005e57ed" as Address
    await devnet.client.setCode({ address: token, bytecode: code as `0x${string}` })
    const abi = parseAbi(["function decimals() view returns (uint8)", "function balanceOf(address) view returns (uint256)", "function transfer(address,uint256) returns (bool)"])
    const holder = testAccounts[4]!.address
    // the double behaves as described
    expect(await devnet.client.readContract({ address: token, abi, functionName: "decimals" })).toBe(18)
    expect(await devnet.client.readContract({ address: token, abi, functionName: "balanceOf", args: [holder] })).toBe(10n ** 24n)
    await expect(devnet.client.simulateContract({ address: token, abi, functionName: "transfer", args: [holder, 1n], account: holder })).rejects.toThrow()
    const answer = await routability(token, [holder])
    expect(answer.routable === false && answer.reason).toBe("transfer-restricted")
  })

  test("an account without an ERC-20 is not routable", async () => {
    const answer = await routability(testAccounts[6]!.address, [testAccounts[0]!.address])
    expect(answer.routable === false && answer.reason).toBe("not-a-token")
  })
})
