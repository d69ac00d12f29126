// Which tokens take EIP-2612 permits, read from the default devnet: the ERC-20
// USDC (domain "USDC", "2") and EURC (its scenario gives it a permit) do; USDT,
// cirBTC, native USDC, an account without code and a contract that is no token
// do not; a domain separator that is not the domain hash of the name and
// version on this chain is no permit domain; answers are cached.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, ManagedRuntime } from "effect"
import { getAddress, type Address } from "viem"
import { Rpc } from "../../src/chain/index.ts"
import { testAccounts } from "../../src/devnet/index.ts"
import { readPermitDomain, Tokens } from "../../src/tokens/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { recordingRpc, rpcConfig, type MulticallRecord } from "../market/support.ts"

let devnet: TestDevnet
let runtime: ManagedRuntime.ManagedRuntime<Tokens | Rpc, unknown>
const multicalls: MulticallRecord[] = []
const permitDomain = (token: Address) => runtime.runPromise(Effect.flatMap(Tokens, (t) => t.permitDomain(token)))
const token = (symbol: string) => getAddress(devnet.manifest.tokens[symbol]!.address)

beforeAll(async () => {
  devnet = await startTestDevnet()
  runtime = ManagedRuntime.make(Tokens.layer().pipe(Layer.provideMerge(recordingRpc(rpcConfig(devnet.manifest), multicalls))))
})

afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

describe("tokens with EIP-2612 permits", () => {
  test("the ERC-20 USDC: USDC, version 2, as on Arc", async () => {
    expect(await permitDomain(token("USDC"))).toEqual({ name: "USDC", version: "2", chainId: devnet.manifest.chainId, verifyingContract: token("USDC") })
  })
  test("EURC, as the manifest says", async () => {
    const manifestDomain = devnet.manifest.tokens.EURC!.permit!
    expect(await permitDomain(token("EURC"))).toEqual({ ...manifestDomain, chainId: devnet.manifest.chainId, verifyingContract: token("EURC") })
  })
  test("asked again, answered from the cache", async () => {
    await permitDomain(token("EURC"))
    const before = multicalls.length
    expect((await permitDomain(token("EURC")))?.name).toBe("EURC")
    expect(await permitDomain(token("USDC").toLowerCase() as Address)).not.toBeNull()
    expect(multicalls.length).toBe(before)
  })
})

describe("no permit domain", () => {
  test("tokens without permits (USDT, cirBTC); the manifest agrees", async () => {
    for (const symbol of ["USDT", "cirBTC"]) {
      expect(devnet.manifest.tokens[symbol]!.permit).toBeUndefined()
      expect(await permitDomain(token(symbol))).toBeNull()
    }
  })
  test("native USDC, by either placeholder", async () => {
    expect(await permitDomain("0x0000000000000000000000000000000000000000")).toBeNull()
    expect(await permitDomain("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")).toBeNull()
  })
  test("an account without code, and a contract that is no token (the route executor)", async () => {
    expect(await permitDomain(testAccounts[3]!.address)).toBeNull()
    expect(await permitDomain(devnet.manifest.executor as Address)).toBeNull()
  })
  test("a separator that is not the domain hash on the chain asked about", async () => {
    // the node's real answers, judged as if for another chain: DOMAIN_SEPARATOR hashes chain 5042's id
    const other = await runtime.runPromise(Effect.flatMap(Rpc, (rpc) => readPermitDomain({ ...rpc, chainId: 1 }, token("USDC"))))
    expect(other).toBeNull()
  })
})
