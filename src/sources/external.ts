// What every external aggregator source shares: its settings, the checks on
// every answer, the time budget, the circuit breaker and the metrics around
// each call, and the step from an aggregator's answer to an executor route
// (one split, one external hop: the executor approves the router for exactly
// the input, calls it with the aggregator's calldata, and measures its own
// balance change of the output; for an exact output, kind 7: the router is
// approved for its ceiling, what it did not take goes back to the sender, and
// it must deliver the very amount asked).
import { Duration, Effect } from "effect"
import type { AGGREGATOR_KINDS } from "../config/index.ts"
import { getAddress, type Address, type Hex } from "viem"
import { GAS } from "../routing/index.ts"
import { traced } from "../chain/index.ts"
import { makeCircuitBreaker, type CircuitBreaker } from "./circuit-breaker.ts"
import { countSource } from "./metrics.ts"
import { isExactOutputRequest, type AnySourceRequest, type ExactOutputSourceRequest, type SourceRequest, type SourceRoute } from "../pricer/index.ts"
import type { TradeType } from "../domain/index.ts"
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
export const requireAllowedRouter = (source: string, request: AnySourceRequest, router: Address): Effect.Effect<void, SourceError> =>
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

/** An aggregator's answer to an exact output, checked: it buys exactly the amount asked. */
export interface ExternalBuyAnswer extends ExternalAnswer {
  /** the input it expects to take (0x: sellAmount) */
  readonly amountIn: bigint
  /** the most its calldata may take (0x: maxSellAmount), at least amountIn */
  readonly maxAmountIn: bigint
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

/**
 * An exact output's external hop on top of EXTERNAL_HOP_OVERHEAD_GAS: the ceiling pulled from the
 * sender, the unspent part paid back, and the exact-output bookkeeping. On the devnet (bun bench
 * executor-gas) 1000 USDT through the aggregator's SwapRouter.exactOutputSingle used 181,261 gas
 * (106,730 called directly), about 23k below the model's 204,730, as exact input's routes are.
 */
export const EXTERNAL_EXACT_OUTPUT_EXTRA_GAS = 20_000

/** The gas of an external route through the executor, given the aggregator's own estimate. */
export const externalRouteGas = (aggregatorGas: bigint | undefined, tradeType: TradeType = "exactInput"): bigint => {
  const own = (aggregatorGas ?? DEFAULT_AGGREGATOR_GAS) - INTRINSIC_GAS
  const extra = tradeType === "exactOutput" ? EXTERNAL_EXACT_OUTPUT_EXTRA_GAS : 0
  return BigInt(GAS.base + GAS.perSplit + EXTERNAL_HOP_OVERHEAD_GAS + extra) + (own > 0n ? own : 0n)
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
/** How a client asks its aggregator: every one for an exact input; for an exact output only those whose API takes one. */
export interface AggregatorClient {
  readonly exactInput: (request: SourceRequest) => Effect.Effect<ExternalAnswer | undefined, SourceError>
  readonly exactOutput?: (request: ExactOutputSourceRequest) => Effect.Effect<ExternalBuyAnswer | undefined, SourceError>
}

export const externalSource = (config: AggregatorConfig, context: ExternalContext, client: AggregatorClient): ExternalSource => {
  const name = config.name
  const tradeTypes: readonly TradeType[] = client.exactOutput === undefined ? ["exactInput"] : ["exactInput", "exactOutput"]
  const fetchAnswer = (request: AnySourceRequest): Effect.Effect<ExternalAnswer | ExternalBuyAnswer | undefined, SourceError> =>
    isExactOutputRequest(request)
      ? client.exactOutput === undefined ? Effect.succeed(undefined) : client.exactOutput(request)
      : client.exactInput(request)
  const timeoutMs = config.timeoutMs ?? AGGREGATOR_DEFAULTS.timeoutMs
  const breaker = makeCircuitBreaker({
    failureThreshold: config.failureThreshold ?? AGGREGATOR_DEFAULTS.failureThreshold,
    cooldownMs: config.cooldownMs ?? AGGREGATOR_DEFAULTS.cooldownMs,
  })

  const toRoute = (request: AnySourceRequest, answer: ExternalAnswer | ExternalBuyAnswer) =>
    Effect.gen(function* () {
      if (answer.amountOut === 0n) return undefined
      if (sameAddress(answer.router, request.tokenIn) || sameAddress(answer.router, request.tokenOut) || sameAddress(answer.router, context.executor)) {
        return yield* invalidAnswer(name, `router ${answer.router} is a token of the trade or the executor`)
      }
      yield* requireAllowedRouter(name, request, answer.router)
      const tokenIn = getAddress(request.tokenIn)
      const tokenOut = getAddress(request.tokenOut)
      const display: SourceRoute["display"] = [{ shareBps: 10_000, hops: [{ dex: name, pool: null, tokenIn, tokenOut }] }]
      if (isExactOutputRequest(request)) {
        if (!("maxAmountIn" in answer)) return yield* invalidAnswer(name, "an exact output answered without the input it needs")
        const gasEstimate = externalRouteGas(answer.gas, "exactOutput")
        const gasCost = request.nativeToTokenIn(gasEstimate * request.snapshot.gasPriceWei)
        const route: SourceRoute = {
          source: name,
          amountOut: answer.amountOut,
          amountIn: answer.amountIn,
          maxAmountIn: answer.maxAmountIn,
          costIn: gasCost === undefined ? answer.amountIn : answer.amountIn + gasCost,
          gasEstimate,
          netAmountOut: answer.amountOut,
          route: [{ shareBps: 10_000, hops: [{ kind: "externalExactOutput", tokenIn, tokenOut, router: answer.router, maxAmountIn: answer.maxAmountIn, data: answer.data }] }],
          display,
        }
        return route
      }
      const gasEstimate = externalRouteGas(answer.gas)
      const gasCost = request.nativeToTokenOut(gasEstimate * request.snapshot.gasPriceWei)
      const route: SourceRoute = {
        source: name,
        amountOut: answer.amountOut,
        gasEstimate,
        netAmountOut: gasCost === undefined ? answer.amountOut : answer.amountOut - gasCost,
        route: [{ shareBps: 10_000, hops: [{ kind: "external", tokenIn, tokenOut, router: answer.router, data: answer.data }] }],
        display,
      }
      return route
    })

  const quote = (request: AnySourceRequest): Effect.Effect<SourceRoute | undefined, SourceError> =>
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
        traced(`Source.quote ${name}`),
      )

  return {
    name,
    kind: config.kind,
    health: breaker.state,
    config,
    breaker,
    tradeTypes,
    // a trade the aggregator's API cannot ask for is not asked (nor counted as a request)
    quote: (request) =>
      !tradeTypes.includes(isExactOutputRequest(request) ? "exactOutput" : "exactInput")
        ? Effect.succeed(undefined)
        : Effect.zipRight(countSource("requests", name), quote(request)),
    rejected: (detail) =>
      Effect.all([countSource("rejected", name), breaker.recordFailure, Effect.logDebug(`source ${name}: route rejected (${detail})`)], { discard: true }),
  }
}
