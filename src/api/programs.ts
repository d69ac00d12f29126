// The request programs behind the edge. The edge hands them requests that are
// already validated and typed (checksummed addresses, bigint amounts, defaults
// applied) and encodes what they answer; they know nothing of HTTP.
import { Context, type Effect } from "effect"
import type { Address, Hex } from "viem"
import type { QuoteError, SwapError } from "./errors.ts"

export const CHAIN_ID = 5042

export interface QuoteRequest {
  readonly chainId: typeof CHAIN_ID
  /** checksummed; native USDC may be 0x0000…0000 or the 0xEeee…EEeE placeholder, as sent */
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** in tokenIn's smallest unit; 1 ≤ amountIn < 2^256 */
  readonly amountIn: bigint
  /** partner fee, 0-100; 0 when not sent */
  readonly feeBps: number
  /** present exactly when feeBps > 0; never the zero address or the executor */
  readonly feeRecipient: Address | null
  /** 0-2000; 50 when not sent */
  readonly slippageBps: number
}

export interface SwapRequest extends QuoteRequest {
  /** never the zero address, the executor or the native placeholder 0xEeee…EEeE */
  readonly sender: Address
  /** the sender when not sent; never the zero address, the executor or the native placeholder */
  readonly recipient: Address
  /** Unix seconds: in the future, at most one hour ahead; now + 20 minutes when not sent */
  readonly deadline: number
}

export interface RouteHop {
  readonly dex: string
  /** pool address, 32-byte V4 pool id, or null when unknown */
  readonly pool: string | null
  readonly tokenIn: Address
  readonly tokenOut: Address
}

export interface RouteEntry {
  /** share of the input; all entries add up to 10000 */
  readonly shareBps: number
  readonly hops: ReadonlyArray<RouteHop>
}

export interface QuoteFees {
  /** always tokenOut */
  readonly token: Address
  readonly protocolBps: number
  readonly protocolAmount: bigint
  /** the request's feeBps */
  readonly partnerBps: number
  readonly partnerAmount: bigint
  /** the request's feeRecipient (null without a fee) */
  readonly partnerRecipient: Address | null
}

export interface QuoteResponse {
  readonly chainId: typeof CHAIN_ID
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly amountIn: bigint
  /** grossAmountOut − both fees */
  readonly amountOut: bigint
  /** floor(amountOut × (10000 − slippageBps) / 10000) */
  readonly minAmountOut: bigint
  readonly slippageBps: number
  readonly grossAmountOut: bigint
  readonly fees: QuoteFees
  /** signed basis points against reference prices; null without a reference */
  readonly priceImpactBps: number | null
  readonly gasEstimate: bigint | null
  readonly route: ReadonlyArray<RouteEntry>
  /** the block the prices, the fee and the route were read at */
  readonly blockNumber: bigint
}

export interface SwapTx {
  /** the route executor */
  readonly to: Address
  readonly data: Hex
  /** native USDC in 18-decimal units; 0 unless the input is native */
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
  /** null for native input */
  readonly approval: Approval | null
  readonly simulated: boolean
}

export interface SwapProgramsShape {
  /** the route executor: fee recipients, senders and recipients may not be it; tx.to and approval.spender are it */
  readonly executor: Address
  readonly quote: (request: QuoteRequest) => Effect.Effect<QuoteResponse, QuoteError>
  readonly swap: (request: SwapRequest) => Effect.Effect<SwapResponse, SwapError>
}

/**
 * The quote and swap programs. The edge runs each call under the configured
 * time budget (504 TIMEOUT past it) and interrupts it when the client goes away;
 * a defect becomes 502 INTERNAL and is logged with the request id.
 */
export class SwapPrograms extends Context.Tag("api/SwapPrograms")<SwapPrograms, SwapProgramsShape>() {}
