// The KyberSwap Aggregator v1 client against a local server speaking its
// shape: GET routes, then POST route/build with the routeSummary as it came,
// the executor as sender and recipient; wrong answers are SourceErrors; only
// the GET is retried.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { GAS } from "../../src/routing/index.ts"
import { EXTERNAL_HOP_OVERHEAD_GAS, kyberSwapSource, type SourceError } from "../../src/sources/index.ts"
import { buyRequest, context, EXECUTOR, failureOf, json, OTHER_ROUTER, rawJson, rawServer, request, ROUTER, scriptedServer, SENDER, TOKEN_IN, TOKEN_OUT, type Seen } from "./support.ts"

let server: ReturnType<typeof scriptedServer>
beforeAll(() => {
  server = scriptedServer()
})
afterAll(() => {
  server?.stop()
})

const routeSummary = (overrides: Record<string, unknown> = {}) => ({
  tokenIn: TOKEN_IN,
  amountIn: "1000000",
  amountInUsd: "1.0",
  tokenOut: TOKEN_OUT,
  amountOut: "990500",
  amountOutUsd: "0.99",
  gas: "170000",
  gasPrice: "1000000000",
  gasUsd: "0.0001",
  extraFee: { feeAmount: "", chargeFeeBy: "", isInBps: false, feeReceiver: "" },
  route: [[{ pool: "0x00000000000000000000000000000000000000aa", tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, swapAmount: "1000000", amountOut: "990500", exchange: "uniswapv3", poolType: "uniswapv3" }]],
  routeID: "r-1",
  checksum: "12345",
  ...overrides,
})
const routesAnswer = (summary = routeSummary(), routerAddress: string = ROUTER) =>
  json({ code: 0, message: "successfully", data: { routeSummary: summary, routerAddress }, requestId: "q-1" })
const buildAnswer = (overrides: Record<string, unknown> = {}) =>
  json({
    code: 0,
    message: "successfully",
    data: { amountIn: "1000000", amountInUsd: "1.0", amountOut: "990000", amountOutUsd: "0.99", gas: "180000", gasUsd: "0.0001", data: "0xe21fd0e9aabbcc", routerAddress: ROUTER, transactionValue: "0", ...overrides },
    requestId: "b-1",
  })

/** routes and build answers by path */
const kyber = (routes: () => Response, build: () => Response) => (seen: Seen) =>
  seen.path === "/arc/api/v1/routes" && seen.method === "GET" ? routes() : seen.path === "/arc/api/v1/route/build" && seen.method === "POST" ? build() : json({ code: 404 }, 404)

let n = 0
const source = (url = `${server.url}/arc`, apiKey?: string) =>
  kyberSwapSource({ name: `kyber-test-${++n}`, kind: "kyberswap", url, ...(apiKey !== undefined ? { apiKey } : {}) }, context)

describe("a good answer", () => {
  test("routes, then build with the summary verbatim; the built amountOut and calldata make the route", async () => {
    server.answer(kyber(() => routesAnswer(), () => buildAnswer()))
    const before = server.seen.length
    const s = source(`${server.url}/arc`, "my-client")
    const route = await Effect.runPromise(s.quote(request))
    const [routes, build] = server.seen.slice(before)
    expect(server.seen.length - before).toBe(2)

    expect(routes!.method).toBe("GET")
    expect(Object.fromEntries(routes!.query)).toEqual({ tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, amountIn: "1000000", gasInclude: "true" })
    expect(routes!.headers.get("x-client-id")).toBe("my-client")

    expect(build!.method).toBe("POST")
    expect(build!.headers.get("x-client-id")).toBe("my-client")
    const body = build!.body as Record<string, unknown>
    expect(body.routeSummary).toEqual(routeSummary())
    expect(body.sender).toBe(EXECUTOR)
    expect(body.recipient).toBe(EXECUTOR)
    expect(body.origin).toBe(SENDER)
    expect(body.slippageTolerance).toBe(50)
    expect(body.source).toBe("my-client")
    expect(typeof body.deadline).toBe("number")
    expect(body.deadline as number).toBeGreaterThan(Date.now() / 1000)

    // the build's figures, not the route summary's
    expect(route?.amountOut).toBe(990_000n)
    // the build's 180000 less the 21000 intrinsic gas, plus the executor's work around an external hop
    expect(route?.gasEstimate).toBe(BigInt(GAS.base + GAS.perSplit + EXTERNAL_HOP_OVERHEAD_GAS) + 159_000n)
    expect(route?.route).toEqual([{ shareBps: 10_000, hops: [{ kind: "external", tokenIn: TOKEN_IN, tokenOut: TOKEN_OUT, router: ROUTER, data: "0xe21fd0e9aabbcc" }] }])
    expect(route?.display[0]!.hops[0]!.dex).toBe(s.name)
  })

  test("without an apiKey the client id is the service's own", async () => {
    server.answer(kyber(() => routesAnswer(), () => buildAnswer()))
    await Effect.runPromise(source().quote(request))
    expect(server.seen.at(-1)!.headers.get("x-client-id")).toBe("arc-swap-aggregator")
  })

  test("route not found (4008) and token not found (4011) are no route, with no build call", async () => {
    for (const code of [4008, 4011]) {
      server.answer(kyber(() => json({ code, message: "route not found" }, 400), () => buildAnswer()))
      const before = server.seen.length
      expect(await Effect.runPromise(source().quote(request))).toBeUndefined()
      expect(server.seen.length - before).toBe(1)
    }
  })
})

describe("wrong answers", () => {
  const invalid = async (routes: () => Response, build: () => Response, message: string, calls: number) => {
    server.answer(kyber(routes, build))
    const before = server.seen.length
    const error: SourceError = await failureOf(source().quote(request))
    expect(error.reason).toBe("invalid-answer")
    expect(error.message).toContain(message)
    expect(server.seen.length - before).toBe(calls)
  }

  test("a router not on the allowlist is refused before any calldata is built", () =>
    invalid(() => routesAnswer(routeSummary(), OTHER_ROUTER), () => buildAnswer(), "not on the executor's allowlist", 1))
  test("a summary for another token or amount", async () => {
    await invalid(() => routesAnswer(routeSummary({ tokenOut: SENDER })), () => buildAnswer(), "routeSummary.tokenOut", 1)
    await invalid(() => routesAnswer(routeSummary({ amountIn: "5" })), () => buildAnswer(), "routeSummary.amountIn 5", 1)
  })
  test("a build for another router, amount, value or with bad calldata", async () => {
    await invalid(() => routesAnswer(), () => buildAnswer({ routerAddress: OTHER_ROUTER }), "build routerAddress", 2)
    await invalid(() => routesAnswer(), () => buildAnswer({ amountIn: "999" }), "build amountIn 999", 2)
    await invalid(() => routesAnswer(), () => buildAnswer({ amountOut: 990000 }), "build amountOut", 2)
    await invalid(() => routesAnswer(), () => buildAnswer({ transactionValue: "7" }), "transactionValue 7", 2)
    await invalid(() => routesAnswer(), () => buildAnswer({ data: "0x1234" }), "build data", 2)
  })
  test("no data in a successful answer", () => invalid(() => json({ code: 0, message: "ok" }), () => buildAnswer(), "routes: data is missing", 1))
})

describe("failures", () => {
  test("a build that fails is unavailable", async () => {
    server.answer(kyber(() => routesAnswer(), () => json({ code: 4227, message: "estimate gas failed" }, 422)))
    const error = await failureOf(source().quote(request))
    expect(error.reason).toBe("unavailable")
    expect(error.message).toContain("build: HTTP 422, code 4227")
  })

  test("only the GET is retried after a dropped connection; the POST is not", async () => {
    let gets = 0
    let posts = 0
    const raw = rawServer((text) => {
      if (text.startsWith("GET")) return ++gets === 1 ? undefined : rawJson({ code: 0, message: "ok", data: { routeSummary: routeSummary(), routerAddress: ROUTER } })
      posts++
      return undefined
    })
    try {
      const error = await failureOf(source(`${raw.url}/arc`).quote(request))
      expect(error.reason).toBe("unavailable")
      expect(gets).toBe(2)
      expect(posts).toBe(1)
    } finally {
      raw.stop()
    }
  })
})

describe("exact output", () => {
  test("KyberSwap has none: it does not compete on exact-output requests, and no call is made", async () => {
    const s = kyberSwapSource({ name: "kyber-exact-output", kind: "kyberswap", url: server.url }, context)
    expect(s.tradeTypes).toEqual(["exactInput"])
    const before = server.seen.length
    expect(await Effect.runPromise(s.quote(buyRequest))).toBeUndefined()
    expect(server.seen.length).toBe(before)
  })
})
