// Routability checks asked at once are made together: at a real node behind a
// proxy that counts requests by method, the default devnet's tokens checked at
// once cost one batched read and ceil(N / PROBES_PER_SIMULATION) eth_simulateV1
// requests (and one more for each token found unroutable, probed again alone),
// with the verdicts each token gets checked alone; tokens whose transfers
// revert or burn all their gas, in the same batch, change no other verdict; a
// node without eth_simulateV1 gets the same verdicts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { Address, Hex } from "viem"
import { Rpc } from "../../src/chain/index.ts"
import { manifestVenue, poolKind, startNodeProxy, testAccounts, type NodeProxy } from "../../src/devnet/index.ts"
import type { Routability } from "../../src/domain/index.ts"
import { PROBES_PER_SIMULATION } from "../../src/tokens/routability.ts"
import { Tokens } from "../../src/tokens/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { startNodeProxy as startNodeDouble, type NodeProxy as NodeDouble } from "../support/node-proxy.ts"
import { rpcConfig, tokenAddress } from "../market/support.ts"

let devnet: TestDevnet
let proxy: NodeProxy
let noSimulate: NodeDouble

type Question = { readonly token: Address; readonly holders: readonly Address[] }

/** Accounts holding a token on the devnet: its pools (a V4 pool's tokens are held by its PoolManager). */
const holdersOf = (symbol: string): Address[] =>
  devnet.manifest.pools
    .filter((p) => p.tokens.includes(symbol))
    .map((p) => (poolKind(devnet.manifest, p) === "uniswap-v4" ? manifestVenue(devnet.manifest, p.dex, "uniswap-v4").poolManager : p.pool) as Address)

const question = (symbol: string): Question => ({ token: tokenAddress(devnet.manifest, symbol), holders: holdersOf(symbol) })

/** A fresh Tokens service over `url` (nothing cached): the verdicts of `questions`, asked at once or one after another. */
const verdicts = async (url: string, questions: readonly Question[], together: boolean): Promise<Routability[]> => {
  const runtime = ManagedRuntime.make(Tokens.layer().pipe(Layer.provide(Rpc.layer(rpcConfig(devnet.manifest, [url])))))
  try {
    return await runtime.runPromise(
      Effect.flatMap(Tokens, (tokens) =>
        Effect.forEach(questions, ({ token, holders }) => tokens.routability(token, { holders }), together ? { concurrency: "unbounded", batching: true } : { concurrency: 1 }),
      ),
    )
  } finally {
    await runtime.dispose()
  }
}

/** Counts by method of what `f` asked the proxy. */
const counted = async <A>(f: () => Promise<A>) => {
  proxy.resetCounts()
  const value = await f()
  return { value, byMethod: proxy.counts().byMethod }
}

/**
 * A token as runtime bytecode: decimals() = 18, transfer(address,uint256) jumps to `transfer`
 * (0x37), any other call answers 10^24 (balanceOf).
 *   PUSH1 0 CALLDATALOAD PUSH1 0xe0 SHR                  selector
 *   DUP1 PUSH4 transfer EQ PUSH1 0x37 JUMPI               → transfer
 *   PUSH4 decimals EQ PUSH1 0x2c JUMPI                    → 18
 *   PUSH10 10^24 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
 *   0x2c: JUMPDEST PUSH1 18 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN
 *   0x37: JUMPDEST `transfer`
 */
const tokenCode = (transfer: string): Hex =>
  `0x${"600035"}${"60e01c"}${"8063a9059cbb14603757"}${"63313ce56714602c57"}${"69d3c21bcecceda1000000"}${"600052"}${"60206000f3"}${"5b6012600052"}${"60206000f3"}5b${transfer}`

beforeAll(async () => {
  devnet = await startTestDevnet()
  proxy = await startNodeProxy(devnet.node.rpcUrl)
  noSimulate = startNodeDouble(devnet.node.rpcUrl, "no-simulate")
  // a token whose transfers revert, and one whose transfers spend all the gas they are given
  await devnet.client.setCode({ address: "0x00000000000000000000000000000000005e57ed", bytecode: tokenCode("600080fd") /* PUSH1 0 DUP1 REVERT */ })
  await devnet.client.setCode({ address: "0x0000000000000000000000000000000000b00b1e", bytecode: tokenCode("603756") /* PUSH1 0x37 JUMP: forever */ })
})

afterAll(async () => {
  noSimulate?.stop()
  await proxy?.stop()
  await devnet?.stop()
})

const STANDARD = ["EURC", "cirBTC", "USDT", "WBTC", "WETH", "DAI"]
const holder = testAccounts[4]!.address
const REVERTING: Question = { token: "0x00000000000000000000000000000000005e57ed", holders: [holder] }
const GAS_BURNING: Question = { token: "0x0000000000000000000000000000000000b00b1e", holders: [holder] }

describe("routability checks asked at once", () => {
  test("standard tokens: one batched read and ceil(N / k) eth_simulateV1 requests, each verdict the one it gets alone", async () => {
    const questions = STANDARD.map(question)
    const alone = await counted(() => verdicts(proxy.url, questions, false))
    expect(alone.value).toEqual(questions.map(() => ({ routable: true })))
    expect(alone.byMethod.eth_simulateV1).toBe(questions.length)
    const together = await counted(() => verdicts(proxy.url, questions, true))
    expect(together.value).toEqual(alone.value)
    expect(together.byMethod.eth_simulateV1).toBe(Math.ceil(questions.length / PROBES_PER_SIMULATION))
    expect(together.byMethod.eth_call).toBe(1)
  })

  test("with TAX and REB among them: their verdicts as alone, each probed again alone", async () => {
    const questions = [...STANDARD, "TAX", "REB"].map(question)
    const alone = await verdicts(proxy.url, questions, false)
    expect(alone.slice(-2).map((v) => !v.routable && v.reason)).toEqual(["fee-on-transfer", "rebasing"])
    const together = await counted(() => verdicts(proxy.url, questions, true))
    expect(together.value).toEqual(alone)
    expect(together.byMethod.eth_simulateV1).toBe(Math.ceil(questions.length / PROBES_PER_SIMULATION) + 2)
  })

  test("tokens whose transfers revert or burn all their gas, in the same batch: no other verdict changes", async () => {
    const questions = [REVERTING, ...STANDARD.slice(0, 3).map(question), GAS_BURNING, ...[...STANDARD.slice(3), "TAX"].map(question)]
    const alone = await verdicts(proxy.url, questions, false)
    expect([alone[0], alone[4]].map((v) => !v!.routable && v!.reason)).toEqual(["transfer-restricted", "transfer-restricted"])
    const together = await counted(() => verdicts(proxy.url, questions, true))
    expect(together.value).toEqual(alone)
    // only the three unroutable tokens probed again alone: no standard token was found unroutable in the batch
    expect(together.byMethod.eth_simulateV1).toBe(Math.ceil(questions.length / PROBES_PER_SIMULATION) + 3)
  })

  test("a node without eth_simulateV1: the same verdicts, probed with eth_call", async () => {
    const questions = [REVERTING, ...[...STANDARD, "TAX", "REB"].map(question)]
    // the reasons: eth_call reads the balances apart from the round trip, so a rebasing balance reads otherwise
    const reasons = (answers: readonly Routability[]): string[] => answers.map((a) => (a.routable ? "routable" : a.reason))
    const withSimulation = reasons(await verdicts(proxy.url, questions, true))
    expect(withSimulation).toEqual(["transfer-restricted", ...STANDARD.map(() => "routable"), "fee-on-transfer", "rebasing"])
    expect(reasons(await verdicts(noSimulate.url, questions, true))).toEqual(withSimulation)
    expect(noSimulate.counts.refused).toBeGreaterThanOrEqual(1)
  })
})
