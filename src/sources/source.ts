// An external route source: an aggregator asked the pricer's question over the
// same World as the own router, behind its own budget and circuit breaker.
import { Context, Data, type Effect } from "effect"
import type { TradeType } from "../domain/index.ts"
import type { AnySourceRequest, SourceRoute } from "../pricer/index.ts"
import type { CircuitState } from "./circuit-breaker.ts"

export class SourceError extends Data.TaggedError("SourceError")<{
  readonly source: string
  readonly reason: "timeout" | "unavailable" | "invalid-answer" | "circuit-open"
  readonly message: string
}> {}

export interface Source {
  readonly name: string
  /** the aggregator's API (0x-v2, kyberswap) */
  readonly kind: string
  /** its circuit breaker's state: closed while it answers */
  readonly health: Effect.Effect<CircuitState>
  /** the requests it competes on: 0x both (exact output as buyAmount), KyberSwap exactInput only */
  readonly tradeTypes: readonly TradeType[]
  /**
   * the best route this source knows, or undefined when it has none (an exact output for a source
   * without it in tradeTypes: undefined, and no call is made)
   */
  readonly quote: (request: AnySourceRequest) => Effect.Effect<SourceRoute | undefined, SourceError>
  /**
   * Told when a route of this source failed the sender's simulation (or delivered less than it
   * quoted) while another source's route passed: counted against the source like a failed call.
   */
  readonly rejected?: (detail: string) => Effect.Effect<void>
}

/** Every configured external aggregator, in the order configured. */
export class Sources extends Context.Tag("sources/Sources")<Sources, readonly Source[]>() {}

/** Whether a route runs through an external router (third-party calldata) anywhere. */
export const isExternalRoute = (route: SourceRoute): boolean =>
  route.route.some((split) => split.hops.some((hop) => hop.kind === "external" || hop.kind === "externalExactOutput"))
