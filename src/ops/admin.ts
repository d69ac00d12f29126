// The admin listener (ADMIN_HOST:ADMIN_PORT, apart from the API's port):
//   GET /metrics  every Effect metric of the process as Prometheus text, the
//                 market's staleness gauges refreshed at each scrape;
//   GET /docs     the API's documentation page (Redoc over openapi.json);
//   GET /openapi.json  the API's OpenAPI 3.1 document;
//   GET /health   200 when the market is fresh and the key store answers, 503
//                 otherwise, with a JSON body naming each check. Shared limits
//                 that cannot be reached make the status "degraded" (still 200)
//                 when LIMITS_ON_REDIS_FAILURE=open, and 503 when it is closed;
//                 a relayer of gasless swaps that cannot send (short of USDC)
//                 makes it "degraded" too, and its check says why.
// With a token (ADMIN_TOKEN), every request must carry `Authorization: Bearer
// <token>`; any other answers 401 before the path is looked at.
import { Data, Duration, Effect, Metric, Option, Runtime, type Redacted, type Scope } from "effect"
import type { ApiKeysShape, LimitStore } from "../access/index.ts"
import type { Staleness } from "../market/index.ts"
import { bearerGate } from "./admin-auth.ts"
import { docsPage } from "./docs-page.ts"
import { readOpenApiFile } from "./openapi-file.ts"
import { PROMETHEUS_CONTENT_TYPE, prometheusSnapshot } from "./prometheus.ts"

/** The admin listener cannot listen (address in use, permission). */
export class AdminServeError extends Data.TaggedError("AdminServeError")<{ readonly message: string }> {}

export const MarketMetrics = {
  sinceSuccess: Metric.gauge("market_since_success_seconds", { description: "seconds since the market last reached the chain and found its snapshot current" }),
  blockAge: Metric.gauge("market_block_age_seconds", { description: "now minus the timestamp of the served snapshot's block" }),
  blockNumber: Metric.gauge("market_block_number", { description: "the served snapshot's block" }),
  failures: Metric.gauge("market_consecutive_failures", { description: "market refreshes that failed in a row" }),
} as const

export interface HealthInputs {
  readonly keys: Pick<ApiKeysShape, "kind" | "ping">
  /** the shared limit store, when limits are shared */
  readonly limitStore: Option.Option<Pick<LimitStore, "ping" | "config">>
  /** the market, when the programs follow one */
  readonly market: Option.Option<{ readonly staleness: Effect.Effect<Staleness> }>
  /** the market is stale past this */
  readonly marketStaleAfterMs: number
  /** the relayer of gasless swaps, when the service has one */
  readonly relayer?: Option.Option<RelayerHealthShape>
  /** the longest one check may take (default 2000 ms) */
  readonly checkTimeoutMs?: number
}

export interface HealthReport {
  readonly status: "ok" | "degraded" | "unavailable"
  readonly checks: {
    readonly keyStore: { readonly ok: boolean; readonly kind: string; readonly error?: string }
    readonly limits:
      | { readonly ok: true; readonly store: "memory" }
      | { readonly ok: boolean; readonly store: "redis"; readonly onFailure: "open" | "closed"; readonly error?: string }
    readonly market?: {
      readonly ok: boolean
      readonly blockNumber: string
      readonly blockAgeSeconds: string
      readonly sinceSuccessMs: number
      readonly staleAfterMs: number
      readonly consecutiveFailures: number
      readonly lastError?: string
    }
    /** the relayer of gasless swaps: not ok while it cannot send (short of USDC, node unreachable); error says why */
    readonly relayer?: { readonly ok: boolean; readonly address: string; readonly error?: string }
  }
}

/** What /health asks the relayer of gasless swaps. */
export interface RelayerHealthShape {
  readonly address: string
  /** fails with why the relayer cannot send orders now */
  readonly readiness: Effect.Effect<void, { readonly reason: string }>
}

const message = (e: unknown) => (e instanceof Error ? e.message : typeof e === "object" && e !== null && "message" in e ? String(e.message) : String(e))

/** Sets the market gauges from a staleness reading. */
export const recordStaleness = (s: Staleness): Effect.Effect<void> =>
  Effect.all(
    [
      Metric.set(MarketMetrics.sinceSuccess, Math.max(0, s.sinceSuccessMs) / 1000),
      Metric.set(MarketMetrics.blockAge, Number(s.blockAgeSeconds)),
      Metric.set(MarketMetrics.blockNumber, Number(s.blockNumber)),
      Metric.set(MarketMetrics.failures, s.consecutiveFailures),
    ],
    { discard: true },
  )

/** Runs every check (each under its time limit, all at once). */
export const checkHealth = (inputs: HealthInputs): Effect.Effect<HealthReport> =>
  Effect.gen(function* () {
    const limit = Duration.millis(inputs.checkTimeoutMs ?? 2_000)
    const bounded = <A, E>(self: Effect.Effect<A, E>) =>
      Effect.either(Effect.timeoutFail(self, { duration: limit, onTimeout: () => new Error(`no answer within ${Duration.toMillis(limit)} ms`) }))

    const relayer = inputs.relayer ?? Option.none()
    const [keys, limits, market, ready] = yield* Effect.all(
      [
        bounded(inputs.keys.ping),
        Option.match(inputs.limitStore, { onNone: () => Effect.succeed(Option.none()), onSome: (store) => Effect.map(bounded(store.ping), Option.some) }),
        Option.match(inputs.market, { onNone: () => Effect.succeed(Option.none()), onSome: (m) => Effect.map(m.staleness, Option.some) }),
        Option.match(relayer, { onNone: () => Effect.succeed(Option.none()), onSome: (r) => Effect.map(bounded(r.readiness), Option.some) }),
      ],
      { concurrency: "unbounded" },
    )

    const keyStore = keys._tag === "Right" ? { ok: true, kind: inputs.keys.kind } : { ok: false, kind: inputs.keys.kind, error: message(keys.left) }
    const limitsCheck: HealthReport["checks"]["limits"] = Option.match(Option.all([inputs.limitStore, limits]), {
      onNone: () => ({ ok: true, store: "memory" }) as const,
      onSome: ([store, result]) =>
        result._tag === "Right"
          ? { ok: true, store: "redis", onFailure: store.config.onFailure }
          : { ok: false, store: "redis", onFailure: store.config.onFailure, error: message(result.left) },
    })
    let marketCheck: HealthReport["checks"]["market"]
    if (Option.isSome(market)) {
      const s = market.value
      yield* recordStaleness(s)
      marketCheck = {
        ok: s.sinceSuccessMs <= inputs.marketStaleAfterMs,
        blockNumber: s.blockNumber.toString(),
        blockAgeSeconds: s.blockAgeSeconds.toString(),
        sinceSuccessMs: s.sinceSuccessMs,
        staleAfterMs: inputs.marketStaleAfterMs,
        consecutiveFailures: s.consecutiveFailures,
        ...(Option.isSome(s.lastError) ? { lastError: s.lastError.value.message } : {}),
      }
    }

    const relayerCheck: HealthReport["checks"]["relayer"] = Option.match(Option.all([relayer, ready]), {
      onNone: () => undefined,
      onSome: ([r, result]) =>
        result._tag === "Right"
          ? { ok: true, address: r.address }
          : { ok: false, address: r.address, error: "reason" in result.left ? String(result.left.reason) : message(result.left) },
    })

    const limitsDown = !limitsCheck.ok
    const closedLimits = limitsCheck.store === "redis" && limitsCheck.onFailure === "closed"
    // a relayer that cannot send leaves every other endpoint working: degraded
    const status: HealthReport["status"] =
      !keyStore.ok || (marketCheck !== undefined && !marketCheck.ok) || (limitsDown && closedLimits) ? "unavailable"
      : limitsDown || (relayerCheck !== undefined && !relayerCheck.ok) ? "degraded"
      : "ok"
    return {
      status,
      checks: { keyStore, limits: limitsCheck, ...(marketCheck !== undefined ? { market: marketCheck } : {}), ...(relayerCheck !== undefined ? { relayer: relayerCheck } : {}) },
    }
  })

export interface AdminServer {
  readonly hostname: string
  readonly port: number
  /** http://host:port */
  readonly url: string
}

/** The API's documentation the admin listener serves: the OpenAPI document, read when first asked for. */
export interface AdminDocs {
  /** the document; throws when it cannot be read */
  readonly openApi: () => Record<string, unknown>
}

const PATHS = new Set(["/metrics", "/health", "/docs", "/openapi.json"])

/** Serves /metrics, /health, /docs and /openapi.json until the scope closes; with a token, only to requests bearing it. */
export const serveAdmin = (
  options: { readonly host: string; readonly port: number; readonly token?: Option.Option<Redacted.Redacted<string>> },
  inputs: HealthInputs,
  docs: AdminDocs = { openApi: () => readOpenApiFile() },
): Effect.Effect<AdminServer, AdminServeError, Scope.Scope> =>
  Effect.gen(function* () {
    const run = Runtime.runPromise(yield* Effect.runtime<never>())
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", "cache-control": "no-store", ...headers } })
    const authorized = Option.match(options.token ?? Option.none(), { onNone: () => () => true, onSome: bearerGate })
    // the document and its page, built on the first request that asks and kept
    let built: { readonly document: string; readonly page: string } | undefined
    const documentation = (path: string): Response => {
      try {
        if (built === undefined) {
          const document = docs.openApi()
          built = { document: `${JSON.stringify(document, null, 2)}\n`, page: docsPage(document) }
        }
      } catch (e) {
        return new Response(`the API's documentation is unavailable: ${(e as Error).message}\n`, { status: 503, headers: { "content-type": "text/plain; charset=utf-8" } })
      }
      return path === "/docs"
        ? new Response(built.page, { status: 200, headers: { "content-type": "text/html; charset=utf-8" } })
        : new Response(built.document, { status: 200, headers: { "content-type": "application/json" } })
    }
    const server = yield* Effect.acquireRelease(
      Effect.try({
        try: () =>
          Bun.serve({
            hostname: options.host,
            port: options.port,
            development: false,
            reusePort: false,
            fetch: async (request) => {
              if (!authorized(request)) return json(401, { error: "unauthorized: send Authorization: Bearer <ADMIN_TOKEN>" }, { "www-authenticate": 'Bearer realm="admin"' })
              const path = new URL(request.url).pathname
              if (!PATHS.has(path)) return json(404, { error: "not found: use GET /metrics, /health, /docs or /openapi.json" })
              if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } })
              if (path === "/docs" || path === "/openapi.json") return documentation(path)
              if (path === "/health") {
                const report = await run(checkHealth(inputs))
                return json(report.status === "unavailable" ? 503 : 200, report)
              }
              if (Option.isSome(inputs.market)) await run(Effect.flatMap(inputs.market.value.staleness, recordStaleness))
              return new Response(prometheusSnapshot(), { status: 200, headers: { "content-type": PROMETHEUS_CONTENT_TYPE, "cache-control": "no-store" } })
            },
            error: () => json(500, { error: "internal error" }),
          }),
        catch: (e) => new AdminServeError({ message: `cannot listen on ${options.host}:${options.port} (ADMIN_PORT): ${(e as Error).message}` }),
      }),
      (server) => Effect.promise(() => server.stop(true)),
    )
    const hostname = server.hostname ?? options.host
    const port = server.port ?? options.port
    return { hostname, port, url: `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}` }
  })
