// What the request programs may fail with, as tagged data; the edge maps each to
// the spec's HTTP status and code in its one table (src/api/errors.ts).
import { Data } from "effect"

/** A field the programs find invalid (the edge has already checked the request tables). */
export class InvalidRequest extends Data.TaggedError("InvalidRequest")<{
  /** sent to the client; name the field: "amountIn: …" */
  readonly message: string
}> {}

/** No route for this pair and amount (including tokens that can never be routed). */
export class NoRoute extends Data.TaggedError("NoRoute")<{
  /** sent to the client; defaults to "no route for this pair and amount" */
  readonly message?: string
}> {}

/** The transaction would revert when simulated from the sender. */
export class SimulationFailed extends Data.TaggedError("SimulationFailed")<{
  /** the executor's error name (Slippage, Expired, Paused, …) or revert string; absent when it gives none */
  readonly reason?: string
  /** sent to the client; defaults to "the transaction would revert" */
  readonly message?: string
}> {}

/** Routing is briefly unavailable (the chain or a required source cannot be read), or the relayer cannot take orders now. */
export class Unavailable extends Data.TaggedError("Unavailable")<{
  /** sent to the client when present (the relayer short of USDC, say); defaults to "routing is briefly unavailable" */
  readonly message?: string
  /** logged, never sent */
  readonly detail?: string
  /** Retry-After in seconds; default 1 */
  readonly retryAfterSeconds?: number
}> {}

/** The route could not be prepared. */
export class Internal extends Data.TaggedError("Internal")<{
  /** logged, never sent */
  readonly detail?: string
  readonly cause?: unknown
}> {}

/** Routing took longer than its budget. */
export class Timeout extends Data.TaggedError("Timeout")<{
  /** logged, never sent */
  readonly detail?: string
}> {}

/** A gasless order this API key did not submit, or none at all. */
export class OrderNotFound extends Data.TaggedError("OrderNotFound")<{
  /** sent to the client */
  readonly message: string
}> {}

/** The service has no relayer (RELAYER_PRIVATE_KEY unset): the gasless endpoints are off. */
export class GaslessDisabled extends Data.TaggedError("GaslessDisabled")<{}> {}

export type QuoteError = InvalidRequest | NoRoute | Unavailable | Internal | Timeout
export type SwapError = QuoteError | SimulationFailed
/** What the gasless endpoints may fail with. */
export type GaslessError = SwapError | OrderNotFound | GaslessDisabled
