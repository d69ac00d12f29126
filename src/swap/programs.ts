// The request programs behind the edge: their interface, the swap's request
// and answer. The edge hands them requests that are already validated and
// typed and encodes what they answer; they know nothing of HTTP.
import { Context, type Effect } from "effect"
import type { Address, Hex } from "viem"
import type { ArcChainId } from "../domain/index.ts"
import type { SourcesAnswer, TokensAnswer } from "./catalog.ts"
import type { QuoteError, SwapError } from "./errors.ts"
import type { PermitToSign, PermitSignature } from "./permit.ts"
import type { SenderIssues } from "./sender-issues.ts"
import type { QuoteRequest, QuoteResponse } from "../domain/index.ts"

export interface SwapParties {
  /** never the zero address, the executor or the native placeholder 0xEeee…EEeE */
  readonly sender: Address
  /** the sender when not sent; never the zero address, the executor or the native placeholder */
  readonly recipient: Address
  /** Unix seconds: in the future, at most one hour ahead; now + 20 minutes when not sent */
  readonly deadline: number
  /**
   * the sender's EIP-2612 permit for the executor, instead of an approval: tx then applies it and
   * swaps in one transaction; only for an ERC-20 tokenIn that takes permits
   */
  readonly permit?: PermitSignature
}

export type SwapRequest = QuoteRequest & SwapParties

export interface SwapTx {
  /** the route executor */
  readonly to: Address
  readonly data: Hex
  /** native USDC in 18-decimal units: amountIn (exact output: maxAmountIn) for native input, else 0 */
  readonly value: bigint
  /** simulated gas plus headroom; null when not simulated */
  readonly gas: bigint | null
}

export interface Approval {
  readonly token: Address
  readonly spender: Address
  readonly amount: bigint
}

export interface SwapResponse extends QuoteResponse {
  readonly sender: Address
  readonly recipient: Address
  readonly deadline: number
  readonly tx: SwapTx
  /** null for native input, and when the request carries a permit */
  readonly approval: Approval | null
  /**
   * the permit to sign instead of sending the approval: tokenIn takes EIP-2612 permits and the
   * sender's allowance to the executor is below what the transaction takes; null otherwise (and
   * when the request carries a permit, or the sender's allowance could not be read)
   */
  readonly permit: { readonly typedData: PermitToSign } | null
  readonly simulated: boolean
  /** the sender's real balance and allowance at the priced block where they fall short; null when they could not be read */
  readonly issues: SenderIssues | null
}

export interface SwapProgramsShape {
  /** the chain served: a request may name only it, every answer reports it */
  readonly chainId: ArcChainId
  /** the route executor: fee recipients, senders and recipients may not be it; tx.to and approval.spender are it */
  readonly executor: Address
  readonly quote: (request: QuoteRequest) => Effect.Effect<QuoteResponse, QuoteError>
  readonly swap: (request: SwapRequest) => Effect.Effect<SwapResponse, SwapError>
  /** every name includeSources / excludeSources may use: the venues, then the aggregators */
  readonly sourceNames: ReadonlySet<string>
  /** the venues and aggregators at the latest block */
  readonly sources: Effect.Effect<SourcesAnswer, QuoteError>
  /** the tokens of the published pools at the latest block */
  readonly tokens: Effect.Effect<TokensAnswer, QuoteError>
}

/**
 * The quote and swap programs. The edge runs each call under the configured
 * time budget (504 TIMEOUT past it) and interrupts it when the client goes away;
 * a defect becomes 502 INTERNAL and is logged with the request id.
 */
export class SwapPrograms extends Context.Tag("api/SwapPrograms")<SwapPrograms, SwapProgramsShape>() {}
