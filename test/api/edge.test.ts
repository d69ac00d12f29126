// The wire contract of /api/v1 over real HTTP: exact bodies and headers for
// answers and for every error row the edge owns or maps from the programs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { syntheticPrograms, syntheticQuote, syntheticSwap } from "../../src/api/index.ts"
import { Internal, InvalidRequest, NoRoute, SimulationFailed, Timeout, Unavailable } from "../../src/swap/index.ts"
import { answer, expectError, expectRequestId, post, quoteBody, startTestApi, swapBody, T, type TestApi } from "./support.ts"
import { fixedAmount } from "../../src/domain/index.ts"

const QUOTE_JSON = {
  chainId: 5042,
  tokenIn: "0x3600000000000000000000000000000000000000",
  tokenOut: "0x00000000000000000000000000000000000000A1",
  tradeType: "exactInput",
  amountIn: "1000000",
  maxAmountIn: "1000000",
  // synthetic market: gross = 2 × amountIn; protocol 25 bps = 5000; net 1995000;
  // min at 50 bps: 1995000 × 9950 / 10000 = 1985025
  amountOut: "1995000",
  minAmountOut: "1985025",
  slippageBps: 50,
  grossAmountOut: "2000000",
  fees: {
    token: "0x00000000000000000000000000000000000000A1",
    protocolBps: 25,
    protocolAmount: "5000",
    partnerBps: 0,
    partnerAmount: "0",
    partnerRecipient: null,
  },
  priceImpactBps: null,
  gasEstimate: "100000",
  // 100000 gas at the synthetic 20 gwei base fee; no price for token A
  gasCost: { native: "2000000000000000", usdc: "2000", tokenOut: null },
  route: [{ shareBps: 10000, hops: [{ dex: "synthetic", pool: null, tokenIn: "0x3600000000000000000000000000000000000000", tokenOut: "0x00000000000000000000000000000000000000A1" }] }],
  // the synthetic market's block
  blockNumber: "1234",
}

let api: TestApi
let key: string
let keyId: string

beforeAll(async () => {
  api = await startTestApi()
  ;({ key, id: keyId } = await api.newKey({ rpm: 1000 }))
})
afterAll(() => api.close())

const auth = () => ({ "x-api-key": key })

describe("answers", () => {
  test("POST /quote: the spec's fields, in order, amounts as strings, addresses checksummed", async () => {
    const a = await post(api, "/api/v1/quote", quoteBody({ tokenOut: T.tokenA.toLowerCase() }), auth())
    expect(a.status).toBe(200)
    const { quoteId, ...rest } = a.body
    expect(typeof quoteId).toBe("string")
    expect(a.text).toBe(JSON.stringify({ ...QUOTE_JSON, quoteId, requestId: a.headers.get("x-request-id") }))
    expect(rest.requestId).toBe(a.headers.get("x-request-id"))
    expectRequestId(a)
    expect(a.headers.get("content-type")).toBe("application/json")
    expect(a.headers.get("x-ratelimit-limit")).toBe("1000")
    expect(Number(a.headers.get("x-ratelimit-remaining"))).toBeLessThan(1000)
    expect(a.headers.get("retry-after")).toBeNull()
  })

  test("POST /quote with a partner fee: partner amount from the gross, minimum rounded down", async () => {
    const a = await post(api, "/api/v1/quote", quoteBody({ feeBps: 10, feeRecipient: "0x2222222222222222222222222222222222222222", slippageBps: 125 }), auth())
    expect(a.status).toBe(200)
    // partner 2000000 × 10 / 10000 = 2000; net 2000000 − 5000 − 2000 = 1993000;
    // min 1993000 × 9875 / 10000 = 1968087.5 → 1968087
    expect(a.body.amountOut).toBe("1993000")
    expect(a.body.minAmountOut).toBe("1968087")
    expect(a.body.slippageBps).toBe(125)
    expect(a.body.fees).toEqual({
      token: "0x00000000000000000000000000000000000000A1",
      protocolBps: 25,
      protocolAmount: "5000",
      partnerBps: 10,
      partnerAmount: "2000",
      partnerRecipient: "0x2222222222222222222222222222222222222222",
    })
  })

  test("POST /swap: quote fields plus sender, recipient, deadline, tx, approval, permit, simulated", async () => {
    const before = Math.floor(Date.now() / 1000)
    const a = await post(api, "/api/v1/swap", swapBody(), auth())
    const after = Math.floor(Date.now() / 1000)
    expect(a.status).toBe(200)
    const { deadline, requestId, ...rest } = a.body
    expect(deadline).toBeGreaterThanOrEqual(before + 1200)
    expect(deadline).toBeLessThanOrEqual(after + 1200)
    expect(requestId).toBe(a.headers.get("x-request-id"))
    expect(Object.keys(a.body)).toEqual([...Object.keys(QUOTE_JSON), "sender", "recipient", "deadline", "tx", "approval", "permit", "simulated", "issues", "priceChangeBps", "requestId"])
    expect(rest).toEqual({
      ...QUOTE_JSON,
      sender: "0x1111111111111111111111111111111111111111",
      recipient: "0x1111111111111111111111111111111111111111",
      tx: { to: "0x5E1eC7eD00000000000000000000000000000001", data: "0x5e1ec7ed", value: "0", gas: "150000" },
      approval: { token: "0x3600000000000000000000000000000000000000", spender: "0x5E1eC7eD00000000000000000000000000000001", amount: "1000000" },
      permit: null,
      simulated: true,
      issues: { balance: null, allowance: null },
      priceChangeBps: null,
    })
  })

  test("POST /swap with native input: value is the amount, no approval", async () => {
    const a = await post(api, "/api/v1/swap", swapBody({ tokenIn: "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", amountIn: "2000000000000000000", recipient: "0x2222222222222222222222222222222222222222" }), auth())
    expect(a.status).toBe(200)
    expect(a.body.tokenIn).toBe("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")
    expect(a.body.recipient).toBe("0x2222222222222222222222222222222222222222")
    expect(a.body.tx.value).toBe("2000000000000000000")
    expect(a.body.approval).toBeNull()
  })

  test("Authorization: Bearer works, scheme in any case; x-api-key wins when both are sent", async () => {
    expect((await post(api, "/api/v1/quote", quoteBody(), { authorization: `Bearer ${key}` })).status).toBe(200)
    expect((await post(api, "/api/v1/quote", quoteBody(), { authorization: `bearer ${key}` })).status).toBe(200)
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key, authorization: "Bearer nonsense" })).status).toBe(200)
  })

  test("every response has its own request id", async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 5; i++) ids.add((await post(api, "/api/v1/quote", quoteBody(), auth())).headers.get("x-request-id")!)
    expect(ids.size).toBe(5)
  })
})

describe("401 UNAUTHORIZED", () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ["no key", {}, "missing API key: send it as x-api-key: <API_KEY> or Authorization: Bearer <API_KEY>"],
    ["a well-formed key that was never issued", { "x-api-key": `arc_0123456789abcdef_${"A".repeat(43)}` }, "invalid API key"],
    ["garbage", { "x-api-key": "hello" }, "invalid API key"],
    ["an empty x-api-key", { "x-api-key": "" }, "invalid API key"],
    ["Authorization with another scheme", { authorization: "Basic dXNlcjpwYXNz" }, "Authorization: must be Bearer <API_KEY>"],
    ["Bearer with nothing after it", { authorization: "Bearer" }, "Authorization: must be Bearer <API_KEY>"],
  ]
  for (const [name, headers, message] of cases) {
    test(name, async () => {
      const a = await post(api, "/api/v1/quote", quoteBody(), headers)
      expectError(a, 401, "UNAUTHORIZED", message)
      expect(a.headers.get("x-ratelimit-limit")).toBeNull()
    })
  }

  test("a key with whitespace around it is wrong (inside the header value: HTTP itself strips the edges of a value)", async () => {
    expectError(await post(api, "/api/v1/quote", quoteBody(), { authorization: `Bearer  ${key}` }), 401, "UNAUTHORIZED", "invalid API key")
    expectError(await post(api, "/api/v1/quote", quoteBody(), { authorization: `Bearer\t${key}` }), 401, "UNAUTHORIZED", "Authorization: must be Bearer <API_KEY>")
    expectError(await post(api, "/api/v1/quote", quoteBody(), { authorization: `Bearer ${key} x` }), 401, "UNAUTHORIZED", "invalid API key")
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": `${key} ${key}` }), 401, "UNAUTHORIZED", "invalid API key")
  })

  test("the right id with a wrong secret is wrong", async () => {
    const forged = `arc_${keyId}_${"B".repeat(43)}`
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": forged }), 401, "UNAUTHORIZED", "invalid API key")
  })

  test("a revoked key fails on its next request", async () => {
    const fresh = await api.newKey()
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": fresh.key })).status).toBe(200)
    await Effect.runPromise(api.keys.revoke(fresh.id))
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": fresh.key }), 401, "UNAUTHORIZED", "API key revoked")
  })
})

describe("404, 405", () => {
  for (const path of ["/", "/api/v1", "/api/v1/", "/api/v1/quotes", "/api/v1/quote/", "/api/v2/quote", "/API/V1/QUOTE"]) {
    test(`unknown path ${path}: 404 NOT_FOUND`, async () => {
      expectError(await post(api, path, quoteBody(), auth()), 404, "NOT_FOUND", `no endpoint at ${path}: use POST /api/v1/quote, /swap, /sources or /tokens (or /gasless/quote, /gasless/submit, /gasless/status)`)
    })
  }
  test("a query string does not change the path", async () => {
    expect((await post(api, "/api/v1/quote?x=1", quoteBody(), auth())).status).toBe(200)
  })
  for (const method of ["GET", "PUT", "PATCH", "DELETE"]) {
    test(`${method}: 405 METHOD_NOT_ALLOWED with Allow: POST`, async () => {
      const a = await answer(await fetch(api.url("/api/v1/quote"), { method, headers: auth() }))
      expectError(a, 405, "METHOD_NOT_ALLOWED", `method ${method} is not allowed: use POST with a JSON body`)
      expect(a.headers.get("allow")).toBe("POST")
    })
  }
  test("OPTIONS (a CORS preflight): 405, and no CORS header at all", async () => {
    const a = await answer(await fetch(api.url("/api/v1/swap"), {
      method: "OPTIONS",
      headers: { origin: "https://example.com", "access-control-request-method": "POST", "access-control-request-headers": "x-api-key, content-type" },
    }))
    expectError(a, 405, "METHOD_NOT_ALLOWED", "method OPTIONS is not allowed: use POST with a JSON body")
    expect([...a.headers.keys()].filter((h) => h.startsWith("access-control"))).toEqual([])
  })
  test("a cross-origin POST gets no CORS header either", async () => {
    const a = await post(api, "/api/v1/quote", quoteBody(), { ...auth(), origin: "https://example.com" })
    expect(a.status).toBe(200)
    expect([...a.headers.keys()].filter((h) => h.startsWith("access-control"))).toEqual([])
  })
  test("HEAD: 405 with the request id header", async () => {
    const response = await fetch(api.url("/api/v1/quote"), { method: "HEAD" })
    expect(response.status).toBe(405)
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe("400 INVALID_REQUEST at the edge", () => {
  test("Content-Type must be JSON", async () => {
    const noType = await answer(await fetch(api.url("/api/v1/quote"), { method: "POST", headers: auth(), body: new Blob([JSON.stringify(quoteBody())]) }))
    expectError(noType, 400, "INVALID_REQUEST", "Content-Type: is required and must be application/json")
    const text = await post(api, "/api/v1/quote", JSON.stringify(quoteBody()), { ...auth(), "content-type": "text/plain" })
    expectError(text, 400, "INVALID_REQUEST", 'Content-Type: must be application/json, got "text/plain"')
    expect(text.headers.get("x-ratelimit-limit")).toBe("1000")
    const charset = await post(api, "/api/v1/quote", quoteBody(), { ...auth(), "content-type": "Application/JSON; charset=utf-8" })
    expect(charset.status).toBe(200)
  })
  test("body not JSON, empty, not an object", async () => {
    expectError(await post(api, "/api/v1/quote", "{tokenIn:", auth()), 400, "INVALID_REQUEST", "body: is not valid JSON")
    expectError(await post(api, "/api/v1/quote", "", auth()), 400, "INVALID_REQUEST", "body: is empty; send a JSON object")
    expectError(await post(api, "/api/v1/quote", "[]", auth()), 400, "INVALID_REQUEST", "body: must be a JSON object, got an array")
    const notUtf8 = await fetch(api.url("/api/v1/quote"), { method: "POST", headers: { ...auth(), "content-type": "application/json" }, body: new Uint8Array([0x7b, 0xff, 0x7d]) })
    expectError(await answer(notUtf8), 400, "INVALID_REQUEST", "body: is not valid JSON")
  })
  test("field messages name the field", async () => {
    expectError(await post(api, "/api/v1/quote", quoteBody({ amountIn: "1.5" }), auth()), 400, "INVALID_REQUEST", /^amountIn: /)
    expectError(await post(api, "/api/v1/quote", quoteBody({ feeBps: 101 }), auth()), 400, "INVALID_REQUEST", "feeBps: must be an integer from 0 to 100, got 101")
    expectError(await post(api, "/api/v1/quote", quoteBody({ feeBps: 5 }), auth()), 400, "INVALID_REQUEST", "feeRecipient: is required when feeBps is greater than 0")
    expectError(await post(api, "/api/v1/quote", quoteBody({ slippageBps: 2001 }), auth()), 400, "INVALID_REQUEST", "slippageBps: must be an integer from 0 to 2000, got 2001")
    expectError(await post(api, "/api/v1/quote", quoteBody({ chainId: 1 }), auth()), 400, "INVALID_REQUEST", "chainId: this service serves chain 5042 (Arc), the request names 1")
    expectError(await post(api, "/api/v1/quote", quoteBody({ tokenIn: "0x0000000000000000000000000000000000000000", tokenOut: T.usdc }), auth()), 400, "INVALID_REQUEST",
      "tokenOut: USDC to USDC is nothing to swap (native and ERC-20 USDC are one balance)")
    expectError(await post(api, "/api/v1/swap", swapBody({ recipient: "0x5E1eC7eD00000000000000000000000000000001" }), auth()), 400, "INVALID_REQUEST", "recipient: cannot be the route executor")
    expectError(await post(api, "/api/v1/swap", swapBody({ deadline: 1 }), auth()), 400, "INVALID_REQUEST", /^deadline: must be in the future/)
    expectError(await post(api, "/api/v1/swap", quoteBody(), auth()), 400, "INVALID_REQUEST", "sender: is required")
    expectError(await post(api, "/api/v1/quote", quoteBody({ tokenIn: "0x5aaeb6053F3E94C9b9A09f33669435E7Ef1BeAed" }), auth()), 400, "INVALID_REQUEST", /^tokenIn: mixed-case address with a wrong checksum/)
  })
})

describe("a service on Arc testnet (5042002)", () => {
  let testnet: TestApi
  let testnetKey: string
  beforeAll(async () => {
    // the same key store as the Arc service above: quote ids are signed alike
    testnet = await startTestApi({ programs: syntheticPrograms({ chainId: 5042002 }), env: { DATABASE_URL: `${api.dir}/keys.sqlite` } })
    ;({ key: testnetKey } = await testnet.newKey())
  })
  afterAll(() => testnet.close())
  const testnetAuth = () => ({ "x-api-key": testnetKey })

  test("/quote and /swap answer its chainId; a request may name it", async () => {
    const q = await post(testnet, "/api/v1/quote", quoteBody(), testnetAuth())
    expect(q.status).toBe(200)
    expect(q.text).toBe(JSON.stringify({ ...QUOTE_JSON, chainId: 5042002, quoteId: q.body.quoteId, requestId: q.headers.get("x-request-id") }))
    const named = await post(testnet, "/api/v1/quote", quoteBody({ chainId: 5042002 }), testnetAuth())
    expect(named.body.chainId).toBe(5042002)
    const s = await post(testnet, "/api/v1/swap", swapBody({ chainId: 5042002 }), testnetAuth())
    expect(s.status).toBe(200)
    expect(s.body.chainId).toBe(5042002)
  })

  test("a request naming Arc (5042) is refused, naming the field and both chains", async () => {
    const message = "chainId: this service serves chain 5042002 (Arc testnet), the request names 5042"
    expectError(await post(testnet, "/api/v1/quote", quoteBody({ chainId: 5042 }), testnetAuth()), 400, "INVALID_REQUEST", message)
    expectError(await post(testnet, "/api/v1/swap", swapBody({ chainId: 5042 }), testnetAuth()), 400, "INVALID_REQUEST", message)
  })

  test("a quote id issued on one chain is refused on the other, both ways", async () => {
    const onTestnet = (await post(testnet, "/api/v1/quote", quoteBody(), testnetAuth())).body.quoteId
    const onArc = (await post(api, "/api/v1/quote", quoteBody(), auth())).body.quoteId
    expect((await post(testnet, "/api/v1/swap", swapBody({ quoteId: onTestnet }), testnetAuth())).status).toBe(200)
    expect((await post(api, "/api/v1/swap", swapBody({ quoteId: onArc }), auth())).status).toBe(200)
    expectError(await post(api, "/api/v1/swap", swapBody({ quoteId: onTestnet }), auth()), 400, "INVALID_REQUEST", "quoteId: was issued for another chainId")
    expectError(await post(testnet, "/api/v1/swap", swapBody({ quoteId: onArc }), testnetAuth()), 400, "INVALID_REQUEST", "quoteId: was issued for another chainId")
  })
})

describe("amounts as JSON numbers and the swap's parties, over the wire", () => {
  const withAmount = (literal: string) => JSON.stringify(quoteBody({ amountIn: "AMOUNT" })).replace('"AMOUNT"', literal)
  const withoutRequestId = (a: { body: Record<string, unknown> }) => ({ ...a.body, requestId: undefined })

  test("amountIn 9007199254740992 (2^53) as a JSON number is answered as the string would be", async () => {
    const asNumber = await post(api, "/api/v1/quote", withAmount("9007199254740992"), auth())
    const asString = await post(api, "/api/v1/quote", quoteBody({ amountIn: "9007199254740992" }), auth())
    expect(asNumber.status).toBe(200)
    expect(asNumber.body.amountIn).toBe("9007199254740992")
    // synthetic market: gross = 2 × amountIn = 2^54
    expect(asNumber.body.grossAmountOut).toBe("18014398509481984")
    expect(withoutRequestId(asNumber)).toEqual(withoutRequestId(asString))
  })
  test("amountIn 9007199254740993 as a JSON number is refused, though it parses to the same double as 2^53", async () => {
    expectError(await post(api, "/api/v1/quote", withAmount("9007199254740993"), auth()), 400, "INVALID_REQUEST",
      "amountIn: JSON numbers are accepted only up to 2^53; send the amount as a string")
    expectError(await post(api, "/api/v1/quote", withAmount("1.0000000000000001"), auth()), 400, "INVALID_REQUEST",
      "amountIn: must be a whole number of the token's smallest unit, got 1.0000000000000001")
    expect((await post(api, "/api/v1/quote", withAmount("1e6"), auth())).body.amountIn).toBe("1000000")
  })
  test("sender and recipient: never the zero address, the executor or the native placeholder, whether or not recipient is sent", async () => {
    const executor = "0x5E1eC7eD00000000000000000000000000000001"
    const bad: Array<[string, string]> = [
      ["0x0000000000000000000000000000000000000000", "cannot be the zero address"],
      [executor, "cannot be the route executor"],
      [executor.toLowerCase(), "cannot be the route executor"],
      ["0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", "cannot be the native-token placeholder 0xEeee…EEeE"],
      ["0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", "cannot be the native-token placeholder 0xEeee…EEeE"],
    ]
    for (const [address, problem] of bad) {
      expectError(await post(api, "/api/v1/swap", swapBody({ sender: address }), auth()), 400, "INVALID_REQUEST", `sender: ${problem}`)
      expectError(await post(api, "/api/v1/swap", swapBody({ sender: address, recipient: "0x2222222222222222222222222222222222222222" }), auth()), 400, "INVALID_REQUEST", `sender: ${problem}`)
      expectError(await post(api, "/api/v1/swap", swapBody({ recipient: address }), auth()), 400, "INVALID_REQUEST", `recipient: ${problem}`)
    }
  })
})

describe("program failures map to the spec's codes", () => {
  let failing: TestApi
  let failingKey: string
  const byAmount = (amountIn: bigint) => {
    switch (amountIn) {
      case 1n: return Effect.fail(new NoRoute({}))
      case 2n: return Effect.fail(new NoRoute({ message: "no route: TAX charges a fee on transfer" }))
      case 3n: return Effect.fail(new Unavailable({ detail: "rpc down" }))
      case 4n: return Effect.fail(new Unavailable({ retryAfterSeconds: 7 }))
      case 5n: return Effect.fail(new Internal({ detail: "encoding failed" }))
      case 6n: return Effect.fail(new Timeout({}))
      case 7n: return Effect.fail(new InvalidRequest({ message: "amountIn: below the pool's minimum" }))
      case 8n: return Effect.dieMessage("bug")
      default: return undefined
    }
  }
  beforeAll(async () => {
    failing = await startTestApi({
      programs: syntheticPrograms({
        quote: (r) => byAmount(fixedAmount(r)) ?? (fixedAmount(r) === 9n ? Effect.succeed({ ...syntheticQuote(r), amountOut: 1n }) : Effect.succeed(syntheticQuote(r))),
        swap: (r) => {
          if (fixedAmount(r) === 10n) return Effect.fail(new SimulationFailed({ reason: "Slippage" }))
          if (fixedAmount(r) === 11n) return Effect.fail(new SimulationFailed({}))
          if (fixedAmount(r) === 12n) return Effect.succeed({ ...syntheticSwap(r), tx: { ...syntheticSwap(r).tx, to: r.sender } })
          if (fixedAmount(r) === 13n) return Effect.fail(new SimulationFailed({ reason: "ERC20: transfer amount exceeds allowance" }))
          if (fixedAmount(r) === 14n) return Effect.succeed({ ...syntheticSwap(r), tx: { ...syntheticSwap(r).tx, data: "0xabc" as const } })
          return byAmount(fixedAmount(r)) ?? Effect.succeed(syntheticSwap(r))
        },
      }),
    })
    failingKey = (await failing.newKey({ rpm: 1000 })).key
  })
  afterAll(() => failing.close())
  const ask = (path: string, amountIn: number) =>
    post(failing, path, path.endsWith("swap") ? swapBody({ amountIn: String(amountIn) }) : quoteBody({ amountIn: String(amountIn) }), { "x-api-key": failingKey })

  test("NoRoute → 422 NO_ROUTE", async () => {
    expectError(await ask("/api/v1/quote", 1), 422, "NO_ROUTE", "no route for this pair and amount")
    expectError(await ask("/api/v1/swap", 2), 422, "NO_ROUTE", "no route: TAX charges a fee on transfer")
  })
  test("SimulationFailed → 409 SIMULATION_FAILED with the reason when there is one", async () => {
    expectError(await ask("/api/v1/swap", 10), 409, "SIMULATION_FAILED", "the transaction would revert: Slippage", "Slippage")
    expectError(await ask("/api/v1/swap", 13), 409, "SIMULATION_FAILED", "the transaction would revert: ERC20: transfer amount exceeds allowance", "ERC20: transfer amount exceeds allowance")
    expectError(await ask("/api/v1/swap", 11), 409, "SIMULATION_FAILED", "the transaction would revert")
  })
  test("Unavailable → 503 UNAVAILABLE with Retry-After", async () => {
    const a = await ask("/api/v1/quote", 3)
    expectError(a, 503, "UNAVAILABLE", "routing is briefly unavailable")
    expect(a.headers.get("retry-after")).toBe("1")
    expect((await ask("/api/v1/quote", 4)).headers.get("retry-after")).toBe("7")
  })
  test("Internal → 502 INTERNAL, details not sent", async () => {
    const a = await ask("/api/v1/quote", 5)
    expectError(a, 502, "INTERNAL", "the route could not be prepared")
    expect(a.text).not.toContain("encoding")
  })
  test("Timeout from a program → 504 TIMEOUT", async () => {
    expectError(await ask("/api/v1/swap", 6), 504, "TIMEOUT", "routing took too long")
  })
  test("InvalidRequest from a program → 400", async () => {
    expectError(await ask("/api/v1/quote", 7), 400, "INVALID_REQUEST", "amountIn: below the pool's minimum")
  })
  test("a program that dies → 502 INTERNAL", async () => {
    expectError(await ask("/api/v1/quote", 8), 502, "INTERNAL", "the route could not be prepared")
  })
  test("an answer that contradicts the fee formulas or the request is not sent: 502 INTERNAL", async () => {
    expectError(await ask("/api/v1/quote", 9), 502, "INTERNAL")
    expectError(await ask("/api/v1/swap", 12), 502, "INTERNAL")
  })
  test("an answer a response Schema refuses (tx.data not whole hex bytes) is not sent: 502 INTERNAL", async () => {
    expectError(await ask("/api/v1/swap", 14), 502, "INTERNAL")
  })
  test("the synthetic programs die loudly on a token outside their table", async () => {
    const a = await post(failing, "/api/v1/quote", quoteBody({ tokenOut: "0x9999999999999999999999999999999999999999" }), { "x-api-key": failingKey })
    expectError(a, 502, "INTERNAL")
  })
  test("error responses after a valid key carry the limit headers", async () => {
    const a = await ask("/api/v1/quote", 1)
    expect(a.headers.get("x-ratelimit-limit")).toBe("1000")
    expect(a.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/)
  })
})
