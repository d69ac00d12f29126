// The JSON-RPC endpoints of RPC_URL, in order of preference, as one requester:
// a request goes to the first endpoint that is not resting; an endpoint that
// fails it (unreachable, timeout, HTTP error) rests, doubling from 1 s up to
// 30 s, and the next one takes the request over; an endpoint that answers 429
// (or a rate-limit error) is left alone until its Retry-After (or a doubling
// backoff) has passed, and when every endpoint is limited the request waits for
// the first to be free again, up to `maxWaitMs`. A request's own failure (a
// revert, a bad argument, a limit of the request's size) is returned as is:
// another endpoint would answer it the same way.
// A fault is logged once per outage of an endpoint (and its recovery once), a
// rate limit once per endpoint; every one is counted in rpc_endpoint_faults_total
// and rpc_limits_total.
import { type Clock, Effect, Metric } from "effect"
import type { Chain, PublicClient, Transport } from "viem"
import { RpcError, rpcEndpointFaults, rpcLimits, toRpcError, type RpcErrorReason } from "./rpc-error.ts"

export interface Endpoint {
  /** how the endpoint is named in logs and metrics: its host, never its path (which may hold a key) */
  readonly label: string
  /** its requests each sent alone */
  readonly client: PublicClient<Transport, Chain>
  /** its requests sent in JSON-RPC batches with the others of the same turn (the client when not given) */
  readonly batching?: PublicClient<Transport, Chain>
}

export interface EndpointsOptions {
  /** the longest a request waits for a rate-limited endpoint to be free (default 30 s) */
  readonly maxWaitMs?: number
}

/** A failure that says something about the endpoint, not the request: another endpoint may answer. */
const endpointFault = (reason: RpcErrorReason): boolean => reason === "unreachable" || reason === "timeout" || reason === "http"

const REST_BASE_MS = 1_000
const REST_MAX_MS = 30_000
const LIMIT_BACKOFF_BASE_MS = 250
const LIMIT_BACKOFF_MAX_MS = 10_000

interface EndpointState {
  /** a faulty endpoint is tried after the others until then */
  restUntil: number
  /** a rate-limited endpoint is not sent anything until then */
  limitedUntil: number
  faults: number
  limits: number
}

/** Labels for URLs: the host, numbered when two endpoints share one. */
export const endpointLabels = (urls: readonly string[]): string[] => {
  const hosts = urls.map((url) => {
    try {
      return new URL(url).host
    } catch {
      return "endpoint"
    }
  })
  return hosts.map((host, i) => (hosts.filter((h) => h === host).length > 1 ? `${host}#${i + 1}` : host))
}

/** The endpoints as one requester; `clock` times rests, limits and waits (read once here, not asked for per request). */
export const makeEndpoints = (endpoints: readonly Endpoint[], clock: Clock.Clock, options: EndpointsOptions = {}) => {
  const maxWaitMs = options.maxWaitMs ?? 30_000
  const states: EndpointState[] = endpoints.map(() => ({ restUntil: 0, limitedUntil: 0, faults: 0, limits: 0 }))
  const said = new Set<string>()
  /** one line per endpoint and kind of trouble, until the endpoint recovers */
  const sayOnce = (key: string, line: string) =>
    said.has(key) ? Effect.void : Effect.zipRight(Effect.sync(() => said.add(key)), Effect.logWarning(line))

  const recovered = (i: number) =>
    Effect.suspend(() => {
      const state = states[i]!
      if (state.faults === 0 && state.limits === 0) return Effect.void
      state.faults = 0
      state.limits = 0
      state.restUntil = 0
      const label = endpoints[i]!.label
      // a rate limit is said once for the service's life (a busy endpoint meets it every second); a fault once per outage
      return said.delete(`fault:${label}`) ? Effect.logInfo(`Rpc: endpoint ${label} answers again`) : Effect.void
    })

  const fault = (i: number, error: RpcError, now: number) =>
    Effect.suspend(() => {
      const state = states[i]!
      const label = endpoints[i]!.label
      const count = Metric.increment(Metric.tagged(Metric.tagged(rpcEndpointFaults, "endpoint", label), "reason", error.reason))
      if (error.reason === "rate-limited") {
        state.limits++
        const backoff = Math.min(LIMIT_BACKOFF_MAX_MS, LIMIT_BACKOFF_BASE_MS * 2 ** (state.limits - 1))
        state.limitedUntil = now + (error.retryAfterMs ?? backoff)
        return Effect.all([
          count,
          Metric.increment(Metric.tagged(rpcLimits, "limit", "rate-limited")),
          sayOnce(`limit:${label}`, `Rpc: endpoint ${label} is rate-limiting (${error.message}); requests wait for it${endpoints.length > 1 ? " or go to the next endpoint" : ""} (counted in rpc_limits_total)`),
        ], { discard: true })
      }
      state.faults++
      state.restUntil = now + Math.min(REST_MAX_MS, REST_BASE_MS * 2 ** (state.faults - 1))
      const next = endpoints.length > 1 ? `; the next endpoint takes over` : ""
      return Effect.zipRight(count, sayOnce(`fault:${label}`, `Rpc: endpoint ${label} failed ${error.method} (${error.reason}: ${error.message})${next}`))
    })

  /** the endpoints not limited at `now`: rested ones in order of preference, then the resting ones, soonest first */
  const freeAt = (now: number): number[] => {
    const free = states.flatMap((s, i) => (s.limitedUntil <= now ? [i] : []))
    free.sort((a, b) => {
      const ra = states[a]!.restUntil > now ? states[a]!.restUntil : 0
      const rb = states[b]!.restUntil > now ? states[b]!.restUntil : 0
      return ra - rb || a - b
    })
    return free
  }

  // The request's steps below are plain chains, the clock read directly: every node read of
  // the service (a /swap's three, a block step's) runs through them.

  /** One round: the endpoints free now, one after another, until one answers. */
  const round = <A>(method: string, run: (endpoint: Endpoint) => Promise<A>, start: number, last: RpcError | undefined): Effect.Effect<A, RpcError> => {
    const free = freeAt(clock.unsafeCurrentTimeMillis())
    const attempt = (k: number, last: RpcError | undefined, limitedNow: boolean): Effect.Effect<A, RpcError> => {
      if (k === free.length) return afterRound(method, run, start, last, limitedNow, free.length > 0)
      const i = free[k]!
      return Effect.matchEffect(Effect.tryPromise({ try: () => run(endpoints[i]!), catch: toRpcError(method) }), {
        onSuccess: (answer) => (states[i]!.faults === 0 && states[i]!.limits === 0 ? Effect.succeed(answer) : Effect.as(recovered(i), answer)),
        onFailure: (error) =>
          // a request's own failure: another endpoint would answer it the same way
          error.reason !== "rate-limited" && !endpointFault(error.reason)
            ? Effect.fail(error)
            // the next attempt, or the round's end, reads the states after the fault is noted
            : Effect.zipRight(fault(i, error, clock.unsafeCurrentTimeMillis()), Effect.suspend(() => attempt(k + 1, error, limitedNow || error.reason === "rate-limited"))),
      })
    }
    return attempt(0, last, false)
  }

  /** Every endpoint free in the round failed or none was free: wait for the first limited one, if it frees in time. */
  const afterRound = <A>(
    method: string,
    run: (endpoint: Endpoint) => Promise<A>,
    start: number,
    last: RpcError | undefined,
    limitedNow: boolean,
    triedAny: boolean,
  ): Effect.Effect<A, RpcError> => {
    const after = clock.unsafeCurrentTimeMillis()
    const limited = states.filter((s) => s.limitedUntil > after).map((s) => s.limitedUntil)
    const gaveUp = last ?? new RpcError({ reason: "rate-limited", method, message: "every endpoint is rate-limiting" })
    // none limited any more (a short Retry-After may pass while the others are answered): ask again,
    // unless every endpoint was tried and failed as an endpoint
    if (limited.length === 0) {
      if (!limitedNow && triedAny) return Effect.fail(gaveUp)
      if (after - start > maxWaitMs) return Effect.fail(gaveUp)
      return round(method, run, start, last)
    }
    const wake = Math.min(...limited)
    if (wake - start > maxWaitMs) return Effect.fail(gaveUp)
    return Effect.zipRight(Effect.sleep(wake - after), Effect.suspend(() => round(method, run, start, last)))
  }

  /** Runs one JSON-RPC request on the endpoints, as described above; `batched`: through their batching clients. */
  const request = <A>(method: string, run: (client: PublicClient<Transport, Chain>) => Promise<A>, batched = false): Effect.Effect<A, RpcError> =>
    Effect.suspend(() => round(method, batched ? (e) => run(e.batching ?? e.client) : (e) => run(e.client), clock.unsafeCurrentTimeMillis(), undefined))

  return { request }
}
