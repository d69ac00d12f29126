// What every external aggregator source shares: its settings, the checks on
// every answer, the time budget, the circuit breaker and the metrics around
// each call, and the step from an aggregator's answer to an executor route
// (one split, one external hop: the executor approves the router for exactly
// the input, calls it with the aggregator's calldata, and measures its own
// balance change of the output).
import { Duration, Effect } from "effect"
import type { AGGREGATOR_KINDS } from "../config/index.ts"
import { getAddress, type Address, type Hex } from "viem"
import { GAS } from "../routing/index.ts"
import { makeCircuitBreaker, type CircuitBreaker } from "./circuit-breaker.ts"
import { countSource } from "./metrics.ts"
import type { SourceRequest, SourceRoute } from "../pricer/index.ts"
import { SourceError, type Source } from "./source.ts"

/** The API shapes a source can speak (AGGREGATORS `kind`). */
export type AggregatorKind = (typeof AGGREGATOR_KINDS)[number]

/** One external aggregator as a deployment configures it (an AGGREGATORS entry). */
export interface AggregatorConfig {
  readonly name: string
  readonly kind: string
  /** base URL: 0x `https://api.0x.org`; KyberSwap with its chain, `https://aggregator-api.kyberswap.com/<chain>` */
  readonly url: string
  /** 0x: the 0x-api-key header; KyberSwap: the x-client-id header */
  readonly apiKey?: string
  /** time budget of one quote, all calls and checks included (default 1500) */
  readonly timeoutMs?: number
  /** consecutive failures that open the circuit breaker (default 5) */
  readonly failureThreshold?: number
  /** how long an open circuit skips the source before a probe (default 30000) */
  readonly cooldownMs?: number
}

export const AGGREGATOR_DEFAULTS = { timeoutMs: 1_500, failureThreshold: 5, cooldownMs: 30_000 } as const

/** What a source needs from the service: whose route it is. */
export interface ExternalContext {
  readonly chainId: number
  /** the route executor: the aggregator's taker and recipient */
  readonly executor: Address
}

/**
 * Fails unless the executor allowlists `router` at the request's block (the executor refuses any
 * other router, so such a route is an invalid answer).
 */
export const requireAllowedRouter = (source: string, request: SourceRequest, router: Address): Effect.Effect<void, SourceError> =>
  request.snapshot.executor?.allowedRouters.has(router.toLowerCase()) === true
    ? Effect.void
    : Effect.fail(invalidAnswer(source, `router ${router} is not on the executor's allowlist`))

/** An aggregator's answer, checked: what to call, and what it says the call delivers. */
export interface ExternalAnswer {
  readonly amountOut: bigint
  readonly router: Address
  readonly data: Hex
  /** the aggregator's gas estimate for its own transaction from the taker (intrinsic gas included) */
  readonly gas: bigint | undefined
}

/**
 * The executor's own work around an external hop, on top of GAS.base and GAS.perSplit: the
 * exact approval and its reset, the balance reads before and after, and the call. A first
 * estimate in the same spirit as src/routing/gas.ts (on the devnet a SwapRouter hop measured
 * about 25k below the model's total, as the own router's routes do).
 */
export const EXTERNAL_HOP_OVERHEAD_GAS = 30_000
/** An aggregator that gives no gas figure is assumed to need this much for its transaction. */
export const DEFAULT_AGGREGATOR_GAS = 250_000n
const INTRINSIC_GAS = 21_000n

/** The gas of an external route through the executor, given the aggregator's own estimate. */
export const externalRouteGas = (aggregatorGas: bigint | undefined): bigint => {
  const own = (aggregatorGas ?? DEFAULT_AGGREGATOR_GAS) - INTRINSIC_GAS
  return BigInt(GAS.base + GAS.perSplit + EXTERNAL_HOP_OVERHEAD_GAS) + (own > 0n ? own : 0n)
}

// --- checks on answers --------------------------------------------------------

export const invalidAnswer = (source: string, message: string) => new SourceError({ source, reason: "invalid-answer", message })

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

export const expectSame = (source: string, field: string, got: string, want: string): Effect.Effect<void, SourceError> =>
  sameAddress(got, want) ? Effect.void : Effect.fail(invalidAnswer(source, `${field} ${got} is not the requested ${want}`))

// --- the source ---------------------------------------------------------------

export interface ExternalSource extends Source {
  readonly config: AggregatorConfig
  readonly breaker: CircuitBreaker
}

/**
 * A Source over an aggregator client: `fetchAnswer` talks to the API and checks its answer's
 * shape; this adds the router allowlist and token checks, the time budget, the circuit breaker,
 * the metrics, and turns any defect into a SourceError (an aggregator never crashes a request).
 */
export const externalSource = (
  config: AggregatorConfig,
  context: ExternalContext,
  fetchAnswer: (request: SourceRequest) => Effect.Effect<ExternalAnswer | undefined, SourceError>,
): ExternalSource => {
  const name = config.name
  const timeoutMs = config.timeoutMs ?? AGGREGATOR_DEFAULTS.timeoutMs
  const breaker = makeCircuitBreaker({
    failureThreshold: config.failureThreshold ?? AGGREGATOR_DEFAULTS.failureThreshold,
    cooldownMs: config.cooldownMs ?? AGGREGATOR_DEFAULTS.cooldownMs,
  })

  const toRoute = (request: SourceRequest, answer: ExternalAnswer) =>
    Effect.gen(function* () {
      if (answer.amountOut === 0n) return undefined
      if (sameAddress(answer.router, request.tokenIn) || sameAddress(answer.router, request.tokenOut) || sameAddress(answer.router, context.executor)) {
        return yield* invalidAnswer(name, `router ${answer.router} is a token of the trade or the executor`)
      }
      yield* requireAllowedRouter(name, request, answer.router)
      const gasEstimate = externalRouteGas(answer.gas)
      const gasCost = request.nativeToTokenOut(gasEstimate * request.snapshot.gasPriceWei)
      const tokenIn = getAddress(request.tokenIn)
      const tokenOut = getAddress(request.tokenOut)
      const route: SourceRoute = {
        source: name,
        amountOut: answer.amountOut,
        gasEstimate,
        netAmountOut: gasCost === undefined ? answer.amountOut : answer.amountOut - gasCost,
        route: [{ shareBps: 10_000, hops: [{ kind: "external", tokenIn, tokenOut, router: answer.router, data: answer.data }] }],
        display: [{ shareBps: 10_000, hops: [{ dex: name, pool: null, tokenIn, tokenOut }] }],
      }
      return route
    })

  const quote = (request: SourceRequest): Effect.Effect<SourceRoute | undefined, SourceError> =>
    breaker
      .protect(
        fetchAnswer(request).pipe(
          Effect.flatMap((answer) => (answer === undefined ? Effect.succeed(undefined) : toRoute(request, answer))),
          Effect.catchAllDefect((defect) => Effect.fail(invalidAnswer(name, `answer could not be handled: ${String(defect)}`))),
          Effect.timeoutFail({
            duration: Duration.millis(timeoutMs),
            onTimeout: () => new SourceError({ source: name, reason: "timeout", message: `no answer within ${timeoutMs} ms` }),
          }),
        ),
        () => new SourceError({ source: name, reason: "circuit-open", message: "circuit open after repeated failures: skipped" }),
      )
      .pipe(
        Effect.tapError((e) =>
          countSource(e.reason === "timeout" ? "timeouts" : e.reason === "circuit-open" ? "circuitOpen" : "errors", name),
        ),
        Effect.withSpan(`Source.quote ${name}`),
      )

  return {
    name,
    kind: config.kind,
    health: breaker.state,
    config,
    breaker,
    quote: (request) => Effect.zipRight(countSource("requests", name), quote(request)),
    rejected: (detail) =>
      Effect.all([countSource("rejected", name), breaker.recordFailure, Effect.logDebug(`source ${name}: route rejected (${detail})`)], { discard: true }),
  }
}
