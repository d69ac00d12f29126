// What lets a request in, in order: route (404 NOT_FOUND) → switch (404
// API_DISABLED) → method (405) → server in-flight cap (503 OVERLOADED) →
// declared body length (413) → API key (401, or 429 RATE_LIMITED past the
// per-IP bad-key limit) → key's rate (429 RATE_LIMITED) → key's in-flight slots
// (429 CONCURRENCY_LIMITED). The limits may be shared (Redis): when their store
// cannot be reached and the service is set to refuse, the answer is 503 UNAVAILABLE.
import { Cause, Effect, Either } from "effect"
import {
  ApiKeys,
  BadKeyLimits,
  InFlight,
  RateLimits,
  type InFlightFull,
  type KeyRejected,
  type KeyStoreError,
  type LimitStoreUnavailable,
} from "../access/index.ts"
import type { AppConfigShape } from "../config/index.ts"
import { Unavailable } from "../swap/index.ts"
import { declaredLengthProblem } from "./body.ts"
import {
  ApiDisabled,
  ConcurrencyLimited,
  MethodNotAllowed,
  NotFound,
  Overloaded,
  RateLimited,
  Unauthorized,
  type ApiError,
} from "./errors.ts"
import type { ApiEndpoint, EndpointLabel } from "./metrics.ts"
import type { Exchange } from "./respond.ts"

export const BASE_PATH = "/api/v1"
/** the API's paths, each to its endpoint */
const ENDPOINTS: ReadonlyMap<string, ApiEndpoint> = new Map(
  (["quote", "swap", "sources", "tokens", "gasless/quote", "gasless/submit", "gasless/status"] as const).map((endpoint) => [`${BASE_PATH}/${endpoint}`, endpoint]),
)

export const pathOf = (url: string): string => {
  // absolute URL from the server: scheme://host[:port]/path?query
  const start = url.indexOf("/", url.indexOf("//") + 2)
  if (start === -1) return "/"
  const query = url.indexOf("?", start)
  const hash = url.indexOf("#", start)
  const end = query === -1 ? (hash === -1 ? url.length : hash) : query
  return url.slice(start, end)
}

/** The endpoint a path names ("other" for every unknown path). */
export const endpointOf = (path: string): EndpointLabel => ENDPOINTS.get(path) ?? "other"

/** The key a request presents: x-api-key, else Authorization: Bearer. Nothing is trimmed. */
export const presentedKey = (headers: Headers): { readonly key: string } | { readonly problem: string } => {
  const header = headers.get("x-api-key")
  if (header !== null) return { key: header }
  const authorization = headers.get("authorization")
  if (authorization === null) return { problem: "missing API key: send it as x-api-key: <API_KEY> or Authorization: Bearer <API_KEY>" }
  // one space after the scheme; anything else around the key makes it a wrong key
  if (authorization.length > 7 && authorization.slice(0, 7).toLowerCase() === "bearer ") return { key: authorization.slice(7) }
  return { problem: "Authorization: must be Bearer <API_KEY>" }
}

/** The settings admission reads (a subset of AppConfig). */
export type AdmissionSettings = Pick<AppConfigShape, "apiDisabled" | "maxInFlight" | "badKeyLimitPerMinute">

/** Builds admission over the access services; the switch starts at `settings.apiDisabled`. */
export const makeAdmission = (settings: AdmissionSettings) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeys
    const rates = yield* RateLimits
    const badKeys = yield* BadKeyLimits
    const inFlight = yield* InFlight
    // requests let in past the method check and not yet answered, on this server
    let serverInFlight = 0
    let disabled = settings.apiDisabled

    // The steps below are plain flatMap chains with the checks that need no service done
    // in plain code, and the services' failures translated once, on the failure path:
    // this is the per-request hot path, and each step of the Effect runtime costs here.

    // the shared limit store is unreachable and set to refuse
    const limitsDown = (e: LimitStoreUnavailable) => new Unavailable({ detail: e.message, retryAfterSeconds: 1 })

    // a request without a valid key: 401, or 429 once this IP has sent too many
    const refuse = (ip: () => string, message: string) =>
      Effect.flatMap(Effect.mapError(badKeys.take(ip(), settings.badKeyLimitPerMinute), limitsDown), (d) =>
        Effect.fail(
          d.allowed
            ? new Unauthorized({ message })
            : new RateLimited({ message: "too many requests with a missing or bad API key from this address", retryAfterSeconds: d.retryAfterSeconds }),
        ))

    // what the access services' failures answer; the exchange's own errors pass through
    const explain = (ip: () => string, e: ApiError | KeyRejected | KeyStoreError | LimitStoreUnavailable | InFlightFull): Effect.Effect<never, ApiError> => {
      switch (e._tag) {
        case "KeyRejected":
          return refuse(ip, e.reason === "revoked" ? "API key revoked" : "invalid API key")
        case "KeyStoreError":
          return Effect.fail(new Unavailable({ detail: e.message }))
        case "LimitStoreUnavailable":
          return Effect.fail(limitsDown(e))
        case "InFlightFull":
          return Effect.fail(new ConcurrencyLimited({ max: e.max }))
        default:
          return Effect.fail(e)
      }
    }

    /**
     * The key, its rate (the limit headers go on this and every later response), then
     * `exchange` holding one of its key's slots; `exchange` is built only then. The access
     * services' failures come out as they are: `admit` explains them.
     */
    const admitKey = (
      request: Request,
      ip: () => string,
      endpoint: Exclude<EndpointLabel, "other">,
      x: Exchange,
      exchange: (endpoint: Exclude<EndpointLabel, "other">, request: Request, x: Exchange) => Effect.Effect<Response, ApiError>,
    ): Effect.Effect<Response, ApiError | KeyRejected | KeyStoreError | LimitStoreUnavailable | InFlightFull> => {
      const presented = presentedKey(request.headers)
      if ("problem" in presented) return refuse(ip, presented.problem)
      return Effect.flatMap(keys.verifyRecent(presented.key), (key) => {
        x.keyId = key.id
        return Effect.flatMap(rates.take(key.id, key.rpm), (rate) => {
          x.rate = rate
          return rate.allowed
            ? inFlight.withSlot(key.id, key.concurrency, exchange(endpoint, request, x))
            : Effect.fail(new RateLimited({ message: `over this API key's limit of ${key.rpm} requests a minute`, retryAfterSeconds: rate.retryAfterSeconds }))
        })
      })
    }

    /**
     * Runs `exchange` once the request is let in, holding a server slot and one of its key's
     * slots while it runs; `exchange` is built only then. Run it on an uninterruptible fiber
     * (the request's): the server slot is taken and its release set up without a mask, and
     * only the key's checks and the exchange are interruptible.
     */
    const admit = (
      request: Request,
      ip: () => string,
      path: string,
      endpoint: EndpointLabel,
      x: Exchange,
      exchange: (endpoint: Exclude<EndpointLabel, "other">, request: Request, x: Exchange) => Effect.Effect<Response, ApiError>,
    ): Effect.Effect<Response, ApiError> => {
      if (endpoint === "other") return Effect.fail(new NotFound({ path: path.length > 200 ? `${path.slice(0, 200)}…` : path }))
      if (disabled) return Effect.fail(new ApiDisabled())
      if (request.method !== "POST") return Effect.fail(new MethodNotAllowed({ method: request.method }))
      if (serverInFlight >= settings.maxInFlight) return Effect.fail(new Overloaded({ retryAfterSeconds: 1 }))
      const tooLarge = declaredLengthProblem(request.headers)
      if (tooLarge !== undefined) return Effect.fail(tooLarge)
      // the fiber is uninterruptible here: the slot is taken as this runs and given back on every exit,
      // and the access services' failures are explained on the way out (one step for both)
      serverInFlight++
      return Effect.matchCauseEffect(Effect.interruptible(admitKey(request, ip, endpoint, x, exchange)), {
        onFailure: (cause) => {
          serverInFlight--
          const failure = Cause.failureOrCause(cause)
          return Either.isLeft(failure) ? Effect.interruptible(explain(ip, failure.left)) : Effect.failCause(failure.right)
        },
        onSuccess: (response) => {
          serverInFlight--
          return Effect.succeed(response)
        },
      })
    }

    return {
      admit,
      /** Switches every endpoint to 404 API_DISABLED (true) or back (false). */
      setDisabled: (value: boolean) => {
        disabled = value
      },
      isDisabled: () => disabled,
    }
  })
