// The admin listener of a real server (ADMIN_PORT=0): /metrics in Prometheus
// text with the request latencies, RPC errors, sources' counters, limit store
// and market gauges; /health answering 200 or 503 with each check named.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, Option } from "effect"
import { KeyStoreError, RedisCallError } from "../../src/access/index.ts"
import { syntheticPrograms } from "../../src/api/index.ts"
import type { SharedLimitsConfig } from "../../src/config/index.ts"
import { makeRpc, RpcError } from "../../src/chain/index.ts"
import { MarketState, type MarketStateService, type Staleness } from "../../src/market/index.ts"
import { checkHealth, PROMETHEUS_CONTENT_TYPE } from "../../src/ops/index.ts"
import { countSource } from "../../src/sources/index.ts"
import { expectError, post, quoteBody, startTestApi, type TestApi } from "../api/support.ts"
import { closedPort, freshPrefix, REDIS_URL } from "../support/services.ts"

/** A market that only reports its staleness; any other use is a test mistake. */
let staleness: Staleness
const fresh = (): Staleness => ({
  blockNumber: 1234n,
  blockTimestamp: BigInt(Math.floor(Date.now() / 1000) - 3),
  lastSuccessAt: Date.now() - 150,
  sinceSuccessMs: 150,
  blockAgeSeconds: 3n,
  failing: false,
  consecutiveFailures: 0,
  lastError: Option.none(),
})
staleness = fresh()
const unexpected = (what: string) => Effect.dieMessage(`the admin listener used MarketState.${what}`)
const market: MarketStateService = {
  staleness: Effect.sync(() => staleness),
  snapshot: unexpected("snapshot"),
  changes: undefined as never,
  awaitBlock: () => unexpected("awaitBlock"),
  freshWorld: () => unexpected("freshWorld"),
  excluded: unexpected("excluded"),
  tickWindow: 0,
}

let api: TestApi
let redis: Awaited<ReturnType<typeof freshPrefix>>
beforeAll(async () => {
  redis = await freshPrefix()
  api = await startTestApi({
    env: { ADMIN_PORT: "0", REDIS_URL, REDIS_PREFIX: redis.prefix, MARKET_STALE_AFTER_MS: "5000" },
    programs: Layer.merge(syntheticPrograms(), Layer.succeed(MarketState, market)),
  })
})
afterAll(async () => {
  await api.close()
  await redis.cleanup()
})

const admin = (path: string, init?: RequestInit) => fetch(`${api.admin!.url}${path}`, init)
const metrics = async () => {
  const response = await admin("/metrics")
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toBe(PROMETHEUS_CONTENT_TYPE)
  return response.text()
}
/** The value of one series in Prometheus text, 0 when absent. */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? 0 : Number(line.slice(series.length + 1))
}

describe("/metrics", () => {
  test("request latency per endpoint, status and code, as a histogram", async () => {
    const { key } = await api.newKey()
    const before = await metrics()
    const ok = 'http_request_duration_seconds_count{code="OK",endpoint="quote",status="200"}'
    const unauthorized = 'http_request_duration_seconds_count{code="UNAUTHORIZED",endpoint="swap",status="401"}'
    const notFound = 'http_request_duration_seconds_count{code="NOT_FOUND",endpoint="other",status="404"}'
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
    expectError(await post(api, "/api/v1/swap", quoteBody(), { "x-api-key": "nope" }), 401, "UNAUTHORIZED")
    expectError(await post(api, "/api/v1/elsewhere", {}), 404, "NOT_FOUND")
    const after = await metrics()
    expect(sample(after, ok) - sample(before, ok)).toBe(2)
    expect(sample(after, unauthorized) - sample(before, unauthorized)).toBe(1)
    expect(sample(after, notFound) - sample(before, notFound)).toBe(1)
    expect(after).toContain("# TYPE http_request_duration_seconds histogram")
    // cumulative buckets ending in +Inf = count
    const inf = 'http_request_duration_seconds_bucket{code="OK",endpoint="quote",status="200",le="+Inf"}'
    expect(sample(after, inf)).toBe(sample(after, ok))
    expect(sample(after, 'http_request_duration_seconds_bucket{code="OK",endpoint="quote",status="200",le="10"}')).toBe(sample(after, ok))
    expect(after).toMatch(/^http_request_duration_seconds_sum\{code="OK",endpoint="quote",status="200"\} \d/m)
  })

  test("RPC errors by method and reason; the sources' counters; the limit store; the market", async () => {
    const series = 'rpc_errors_total{method="eth_chainId",reason="unreachable"}'
    const before = sample(await metrics(), series)
    const failed = await Effect.runPromise(Effect.flip(makeRpc({ urls: [`http://127.0.0.1:${closedPort()}`], chainId: 5042, multicall3: "0xcA11bde05977b3631167028862bE2a173976CA11", timeoutMs: 1000 })))
    expect(failed).toBeInstanceOf(RpcError)
    await Effect.runPromise(Effect.all([countSource("wins", "admin-test-source"), countSource("timeouts", "admin-test-source")]))
    staleness = { ...fresh(), consecutiveFailures: 2, sinceSuccessMs: 1500 }
    const text = await metrics()
    expect(sample(text, series) - before).toBe(1)
    expect(sample(text, 'route_source_wins_total{source="admin-test-source"}')).toBe(1)
    expect(sample(text, 'route_source_timeouts_total{source="admin-test-source"}')).toBe(1)
    expect(sample(text, "limit_store_reachable")).toBe(1)
    expect(sample(text, "market_block_number")).toBe(1234)
    expect(sample(text, "market_since_success_seconds")).toBe(1.5)
    expect(sample(text, "market_block_age_seconds")).toBe(3)
    expect(sample(text, "market_consecutive_failures")).toBe(2)
  })
})

describe("/health", () => {
  test("200 when the market is fresh, the key store answers and Redis answers", async () => {
    staleness = fresh()
    const response = await admin("/health")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.json()).toEqual({
      status: "ok",
      checks: {
        keyStore: { ok: true, kind: "sqlite" },
        limits: { ok: true, store: "redis", onFailure: "open" },
        market: { ok: true, blockNumber: "1234", blockAgeSeconds: "3", sinceSuccessMs: 150, staleAfterMs: 5000, consecutiveFailures: 0 },
      },
    })
  })

  test("503 when the market has not been refreshed for longer than MARKET_STALE_AFTER_MS, with the last error", async () => {
    staleness = {
      ...fresh(),
      sinceSuccessMs: 5001,
      failing: true,
      consecutiveFailures: 7,
      lastError: Option.some(new RpcError({ reason: "unreachable", method: "eth_blockNumber", message: "HTTP request failed." })),
    }
    const response = await admin("/health")
    expect(response.status).toBe(503)
    const body = (await response.json()) as any
    expect(body.status).toBe("unavailable")
    expect(body.checks.market).toEqual({
      ok: false,
      blockNumber: "1234",
      blockAgeSeconds: "3",
      sinceSuccessMs: 5001,
      staleAfterMs: 5000,
      consecutiveFailures: 7,
      lastError: "HTTP request failed.",
    })
    expect(body.checks.keyStore.ok).toBe(true)
    staleness = fresh()
  })

  test("only GET /metrics and GET /health", async () => {
    expect((await admin("/")).status).toBe(404)
    expect((await admin("/api/v1/quote")).status).toBe(404)
    const post = await admin("/health", { method: "POST" })
    expect(post.status).toBe(405)
    expect(post.headers.get("allow")).toBe("GET, HEAD")
  })

  test("the rules: key store down → unavailable; Redis down → degraded when open, unavailable when closed", async () => {
    const up = { kind: "postgres" as const, ping: Effect.void }
    const down = { kind: "postgres" as const, ping: Effect.fail(new KeyStoreError({ message: "connection refused" })) }
    const redis = (ok: boolean, onFailure: "open" | "closed") =>
      Option.some({ ping: ok ? Effect.void : Effect.fail(new RedisCallError("no answer within 250 ms")), config: { onFailure } as SharedLimitsConfig })
    const base = { market: Option.none(), marketStaleAfterMs: 1000 }
    const run = (inputs: Parameters<typeof checkHealth>[0]) => Effect.runPromise(checkHealth(inputs))

    expect(await run({ ...base, keys: down, limitStore: Option.none() })).toEqual({
      status: "unavailable",
      checks: { keyStore: { ok: false, kind: "postgres", error: "connection refused" }, limits: { ok: true, store: "memory" } },
    })
    expect(await run({ ...base, keys: up, limitStore: redis(false, "open") })).toEqual({
      status: "degraded",
      checks: { keyStore: { ok: true, kind: "postgres" }, limits: { ok: false, store: "redis", onFailure: "open", error: "no answer within 250 ms" } },
    })
    expect((await run({ ...base, keys: up, limitStore: redis(false, "closed") })).status).toBe("unavailable")
    expect((await run({ ...base, keys: up, limitStore: redis(true, "closed") })).status).toBe("ok")
    // a check that never answers is cut at the check's time limit
    const started = performance.now()
    const hung = await run({ ...base, keys: { kind: "postgres", ping: Effect.never }, limitStore: Option.none(), checkTimeoutMs: 100 })
    expect(performance.now() - started).toBeLessThan(1000)
    expect(hung.checks.keyStore).toEqual({ ok: false, kind: "postgres", error: "no answer within 100 ms" })
  })
})
