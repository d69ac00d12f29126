// The 0x Swap API v2 client against a local server speaking its shape: the
// request it sends, the route it makes of a good answer, and every way an
// answer can be wrong, slow or missing, each a SourceError and never a crash.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Cause, Effect, Exit } from "effect"
import { GAS } from "../../src/routing/gas.ts"
import { EXTERNAL_EXACT_OUTPUT_EXTRA_GAS, EXTERNAL_HOP_OVERHEAD_GAS, sourceCounts, zeroExSource, type SourceError } from "../../src/sources/index.ts"
import { buyRequest, context, EXECUTOR, exitOf, failureOf, json, OTHER_ROUTER, rawJson, rawServer, request, ROUTER, scriptedServer, SENDER, TOKEN_IN, TOKEN_OUT, worldAllowing } from "./support.ts"

let server: ReturnType<typeof scriptedServer>
beforeAll(() => {
  server = scriptedServer()
})
afterAll(() => {
  server?.stop()
})

const answer = (overrides: Record<string, unknown> = {}, tx: Record<string, unknown> = {}) => ({
  liquidityAvailable: true,
  chainId: 5042,
  sellToken: TOKEN_IN,
  buyToken: TOKEN_OUT,
  sellAmount: "1000000",
  buyAmount: "990000",
  minBuyAmount: "985050",
  allowanceTarget: ROUTER,
  transaction: { to: ROUTER, data: "0x12345678abcdef", gas: "180000", gasPrice: "1000000000", value: "0", ...tx },
  issues: { allowance: { actual: "0", spender: ROUTER }, balance: null, simulationIncomplete: true },
  zid: "0x0123",
  ...overrides,
})

let sourceCount = 0
const source = (config: { timeoutMs?: number; failureThreshold?: number; cooldownMs?: number; url?: string } = {}) =>
  zeroExSource({ name: `zeroex-test-${++sourceCount}`, kind: "0x-v2", url: config.url ?? `${server.url}/`, apiKey: "test-key", ...config }, context)

describe("a good answer", () => {
  test("the request: allowance-holder quote with the executor as taker, the key and version headers", async () => {
    server.answer(() => json(answer()))
    const before = server.seen.length
    await Effect.runPromise(source().quote(request))
    expect(server.seen.length).toBe(before + 1)
    const seen = server.seen.at(-1)!
    expect(seen.method).toBe("GET")
    expect(seen.path).toBe("/swap/allowance-holder/quote")
    expect(Object.fromEntries(seen.query)).toEqual({
      chainId: "5042",
      sellToken: TOKEN_IN,
      buyToken: TOKEN_OUT,
      sellAmount: "1000000",
      taker: EXECUTOR,
      slippageBps: "50",
      txOrigin: SENDER,
    })
    expect(seen.headers.get("0x-api-key")).toBe("test-key")
    expect(seen.headers.get("0x-version")).toBe("v2")
    // nothing of the service's own tracing leaves it
    expect(seen.headers.get("traceparent")).toBeNull()
    expect(seen.headers.get("b3")).toBeNull()
  })

  test("becomes one external hop to the router with the calldata; gas is the aggregator's plus the executor's", async () => {
    server.answer(() => json(answer()))
    const s = source()
    const route = await Effect.runPromise(s.quote(request))
    // 180000 from the aggregator less the 21000 intrinsic gas the executor's base already counts
    const gas = BigInt(GAS.base + GAS.perSplit + 30_000) + 159_000n
    expect(route).toEqual({
      source: s.name,
      amountOut: 990_000n,
      gasEstimate: gas,
      // 1 gwei × gas in wei, at 10^12 wei per tokenOut unit
      netAmountOut: 990_000n - (gas * 1_000_000_000n) / 10n ** 12n,
      route: [{ shareBps: 10_000, hops: [{ kind: "external", tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, router: ROUTER, data: "0x12345678abcdef" }] }],
      display: [{ shareBps: 10_000, hops: [{ dex: s.name, pool: null, tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT }] }],
    })
    // the executor's own work comes on top of what the aggregator's router spends
    expect(gas).toBeGreaterThan(159_000n)
  })

  test("no liquidity, or a token 0x does not support: no route, and not a failure", async () => {
    const s = source({ failureThreshold: 1 })
    server.answer(() => json({ liquidityAvailable: false, zid: "0x1" }))
    expect(await Effect.runPromise(s.quote(request))).toBeUndefined()
    server.answer(() => json({ name: "TOKEN_NOT_SUPPORTED", message: "Token is not supported" }, 400))
    expect(await Effect.runPromise(s.quote(request))).toBeUndefined()
    expect(await Effect.runPromise(s.breaker.state)).toBe("closed")
  })
})

/** An Exact Buy answer for buyRequest: 990000 bought for 1000000 expected, at most 1005000. */
const buyAnswer = (overrides: Record<string, unknown> = {}, tx: Record<string, unknown> = {}) =>
  answer({ buyAmount: "990000", minBuyAmount: "990000", maxSellAmount: "1005000", ...overrides }, tx)

describe("exact output (0x Exact Buy)", () => {
  test("the request carries buyAmount in place of sellAmount; the answer becomes one kind 7 hop with maxSellAmount as its ceiling, ranked by the input plus gas in tokenIn", async () => {
    server.answer(() => json(buyAnswer()))
    const s = source()
    expect(s.tradeTypes).toEqual(["exactInput", "exactOutput"])
    const route = await Effect.runPromise(s.quote(buyRequest))
    expect(Object.fromEntries(server.seen.at(-1)!.query)).toEqual({
      chainId: "5042",
      sellToken: TOKEN_IN,
      buyToken: TOKEN_OUT,
      buyAmount: "990000",
      taker: EXECUTOR,
      slippageBps: "50",
      txOrigin: SENDER,
    })
    const gas = BigInt(GAS.base + GAS.perSplit + EXTERNAL_HOP_OVERHEAD_GAS + EXTERNAL_EXACT_OUTPUT_EXTRA_GAS) + 159_000n
    expect(route).toEqual({
      source: s.name,
      amountOut: 990_000n,
      amountIn: 1_000_000n,
      maxAmountIn: 1_005_000n,
      // 1 gwei × gas in wei, at 10^12 wei per tokenIn unit
      costIn: 1_000_000n + (gas * 1_000_000_000n) / 10n ** 12n,
      gasEstimate: gas,
      netAmountOut: 990_000n,
      route: [{ shareBps: 10_000, hops: [{ kind: "externalExactOutput", tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, router: ROUTER, maxAmountIn: 1_005_000n, data: "0x12345678abcdef" }] }],
      display: [{ shareBps: 10_000, hops: [{ dex: s.name, pool: null, tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT }] }],
    })
  })

  const cases: Array<[string, string, Record<string, unknown>, Record<string, unknown>?]> = [
    ["no maxSellAmount", "maxSellAmount is not a whole-number string: undefined", { maxSellAmount: undefined }],
    ["maxSellAmount null", "maxSellAmount is not a whole-number string", { maxSellAmount: null }],
    ["maxSellAmount as a JSON number", "maxSellAmount is not a whole-number string", { maxSellAmount: 1005000 }],
    ["maxSellAmount below sellAmount", "maxSellAmount 999999 is below sellAmount 1000000", { maxSellAmount: "999999" }],
    ["maxSellAmount beyond the executor's uint128", "maxSellAmount", { maxSellAmount: (1n << 128n).toString() }],
    ["another buyAmount", "buyAmount 989999 is not the requested 990000", { buyAmount: "989999" }],
    ["sellAmount missing", "sellAmount is not a whole-number string", { sellAmount: undefined }],
    ["sellAmount 0", "sellAmount 0", { sellAmount: "0" }],
    ["another sellToken", "sellToken", { sellToken: TOKEN_OUT }],
    ["value sent to the router", "transaction.value 1", {}, { value: "1" }],
  ]
  for (const [label, message, overrides, tx] of cases) {
    test(`refused: ${label}`, async () => {
      server.answer(() => json(buyAnswer(overrides, tx)))
      const error = await failureOf(source().quote(buyRequest))
      expect(error.reason).toBe("invalid-answer")
      expect(error.message).toContain(message)
    })
  }

  test("no liquidity, or BUY_AMOUNT_TOO_SMALL: no route, and not a failure", async () => {
    const s = source({ failureThreshold: 1 })
    server.answer(() => json({ liquidityAvailable: false, zid: "0x1" }))
    expect(await Effect.runPromise(s.quote(buyRequest))).toBeUndefined()
    server.answer(() => json({ name: "BUY_AMOUNT_TOO_SMALL", message: "too small" }, 400))
    expect(await Effect.runPromise(s.quote(buyRequest))).toBeUndefined()
    expect(await Effect.runPromise(s.breaker.state)).toBe("closed")
  })
})

describe("answers that are wrong are invalid answers", () => {
  const cases: Array<[string, string, Record<string, unknown>, Record<string, unknown>?]> = [
    ["buyAmount as a JSON number", "buyAmount is not a whole-number string", { buyAmount: 990000 }],
    ["buyAmount with a fraction", "buyAmount is not a whole-number string", { buyAmount: "990000.5" }],
    ["a negative buyAmount", "buyAmount is not a whole-number string", { buyAmount: "-1" }],
    ["buyAmount above uint256", "buyAmount is not a whole-number string", { buyAmount: (1n << 256n).toString() }],
    ["another buyToken", "buyToken", { buyToken: SENDER }],
    ["another sellToken", "sellToken", { sellToken: TOKEN_OUT }],
    ["another sellAmount", "sellAmount 999999 is not the requested 1000000", { sellAmount: "999999" }],
    ["another chain", "chainId 1", { chainId: 1 }],
    ["liquidityAvailable missing", "liquidityAvailable is missing", { liquidityAvailable: undefined }],
    ["no transaction", "transaction is missing", { transaction: null }],
    ["a router not on the allowlist", "not on the executor's allowlist", { allowanceTarget: OTHER_ROUTER }, { to: OTHER_ROUTER }],
    ["an allowance target that is not the router called", "allowanceTarget", { allowanceTarget: OTHER_ROUTER }],
    ["value sent to the router", "transaction.value 1", {}, { value: "1" }],
    ["calldata without a selector", "transaction.data is not calldata", {}, { data: "0x" }],
    ["calldata that is not hex", "transaction.data is not calldata", {}, { data: "0x12345678zz" }],
    ["a non-integer gas figure", "transaction.gas", {}, { gas: "lots" }],
  ]
  for (const [label, message, overrides, tx] of cases) {
    test(label, async () => {
      server.answer(() => json(answer(overrides, tx)))
      const error = await failureOf(source().quote(request))
      expect(error._tag).toBe("SourceError")
      expect(error.reason).toBe("invalid-answer")
      expect(error.message).toContain(message)
    })
  }

  test("a router that is one of the trade's tokens, even if allowlisted", async () => {
    const trusting = zeroExSource({ name: "zeroex-trusting", kind: "0x-v2", url: server.url }, context)
    server.answer(() => json(answer({ allowanceTarget: TOKEN_IN }, { to: TOKEN_IN })))
    const error = await failureOf(trusting.quote({ ...request, snapshot: worldAllowing([ROUTER, TOKEN_IN]) }))
    expect(error.reason).toBe("invalid-answer")
    expect(error.message).toContain("is a token of the trade")
  })

  test("a body that is not JSON, and an answer over the size limit", async () => {
    server.answer(() => new Response("<html>oops</html>", { status: 200 }))
    expect((await failureOf(source().quote(request))).reason).toBe("invalid-answer")
    server.answer(() => new Response("x".repeat((1 << 20) + 1), { status: 200 }))
    expect((await failureOf(source().quote(request))).reason).toBe("unavailable")
  })
})

describe("failures", () => {
  test("error statuses are unavailable, naming the status", async () => {
    for (const status of [401, 429, 500, 503]) {
      server.answer(() => json({ name: "SOMETHING", message: "no" }, status))
      const error = await failureOf(source().quote(request))
      expect(error.reason).toBe("unavailable")
      expect(error.message).toContain(`HTTP ${status}`)
    }
  })

  test("a slow answer is cut off at the source's budget, and counted as a timeout", async () => {
    server.answer(async () => {
      await Bun.sleep(1_000)
      return json(answer())
    })
    const s = source({ timeoutMs: 150 })
    const before = await Effect.runPromise(sourceCounts(s.name))
    const started = performance.now()
    const error = await failureOf(s.quote(request))
    const elapsed = performance.now() - started
    expect(error.reason).toBe("timeout")
    expect(elapsed).toBeGreaterThanOrEqual(145)
    expect(elapsed).toBeLessThan(600)
    const after = await Effect.runPromise(sourceCounts(s.name))
    expect(after.timeouts - before.timeouts).toBe(1)
    expect(after.requests - before.requests).toBe(1)
    expect(after.errors - before.errors).toBe(0)
  })

  test("a refused connection is unavailable; the GET is tried twice in all", async () => {
    const raw = rawServer(() => undefined)
    try {
      const error = await failureOf(source({ url: raw.url }).quote(request))
      expect(error.reason).toBe("unavailable")
      expect(error.message).toContain("connection failed")
      expect(raw.connections()).toBe(2)
    } finally {
      raw.stop()
    }
    // nothing listening at all
    const closed = await failureOf(source({ url: raw.url }).quote(request))
    expect(closed.reason).toBe("unavailable")
  })

  test("a dropped first connection is retried once, and the second answer is used", async () => {
    let n = 0
    const raw = rawServer(() => (++n === 1 ? undefined : rawJson(answer())))
    try {
      const route = await Effect.runPromise(source({ url: raw.url }).quote(request))
      expect(route?.amountOut).toBe(990_000n)
      expect(raw.connections()).toBe(2)
    } finally {
      raw.stop()
    }
  })

  test("a defect in handling an answer is a SourceError, not a crash", async () => {
    const broken = zeroExSource({ name: "zeroex-broken", kind: "0x-v2", url: server.url }, context)
    const exploding: typeof request = { ...request, nativeToTokenOut: () => { throw new Error("gas conversion exploded") } }
    server.answer(() => json(answer()))
    const exit = await exitOf(broken.quote(exploding))
    expect(Exit.isFailure(exit) && !Cause.isDie(exit.cause)).toBe(true)
    expect((await failureOf(broken.quote(exploding))).reason).toBe("invalid-answer")
  })
})

describe("the circuit breaker and the metrics", () => {
  test("two failures open the circuit: the source is skipped without a call until the cooldown, then one probe closes it", async () => {
    const s = source({ failureThreshold: 2, cooldownMs: 200 })
    const counts = () => Effect.runPromise(sourceCounts(s.name))
    const before = await counts()
    server.answer(() => json({ name: "INTERNAL_SERVER_ERROR" }, 500))
    expect((await failureOf(s.quote(request))).reason).toBe("unavailable")
    expect((await failureOf(s.quote(request))).reason).toBe("unavailable")
    expect(await Effect.runPromise(s.breaker.state)).toBe("open")

    server.answer(() => json(answer()))
    const calls = server.seen.length
    const skipped: SourceError = await failureOf(s.quote(request))
    expect(skipped.reason).toBe("circuit-open")
    expect(server.seen.length).toBe(calls)

    await Bun.sleep(220)
    expect(await Effect.runPromise(s.breaker.state)).toBe("half-open")
    expect((await Effect.runPromise(s.quote(request)))?.amountOut).toBe(990_000n)
    expect(server.seen.length).toBe(calls + 1)
    expect(await Effect.runPromise(s.breaker.state)).toBe("closed")

    const after = await counts()
    expect(after.requests - before.requests).toBe(4)
    expect(after.errors - before.errors).toBe(2)
    expect(after.circuitOpen - before.circuitOpen).toBe(1)
    expect(after.timeouts - before.timeouts).toBe(0)
  })
})
