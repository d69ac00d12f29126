// What a quote is: the request the pricer prices and the answer it gives,
// already validated and typed (checksummed addresses, bigint amounts, defaults
// applied) by the edge; plain data, shared by the programs and the edge.
import type { Address } from "viem"
import type { ArcChainId } from "./chains.ts"

/** Exact input ("what do I get for amountIn") or exact output ("what does amountOut cost me"). */
export type TradeType = "exactInput" | "exactOutput"

/** The amount a request fixes: exactly one of amountIn and amountOut. */
export type TradeAmount =
  | {
      readonly tradeType: "exactInput"
      /** in tokenIn's smallest unit; 1 ≤ amountIn < 2^256 */
      readonly amountIn: bigint
    }
  | {
      readonly tradeType: "exactOutput"
      /** what the recipient must receive after every fee, in tokenOut's smallest unit (native: wei); 1 ≤ amountOut < 2^256 */
      readonly amountOut: bigint
    }

export interface QuoteTerms {
  /** the chain the service serves (a request that names another is refused by the edge) */
  readonly chainId: ArcChainId
  /** checksummed; native USDC may be 0x0000…0000 or the 0xEeee…EEeE placeholder, as sent */
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** partner fee, 0-100; 0 when not sent */
  readonly feeBps: number
  /** present exactly when feeBps > 0; never the zero address, the executor or the native placeholder 0xEeee…EEeE */
  readonly feeRecipient: Address | null
  /** 0-2000; 50 when not sent */
  readonly slippageBps: number
  /** the venues and aggregators the route may use, by name; all of them when absent */
  readonly allowedSources?: ReadonlySet<string>
}

export type QuoteRequest = QuoteTerms & TradeAmount

/** The amount a request fixes, whichever side it is on. */
export const fixedAmount = (request: TradeAmount): bigint => (request.tradeType === "exactInput" ? request.amountIn : request.amountOut)

export interface RouteHop {
  readonly dex: string
  /** pool address, 32-byte V4 pool id, or null when unknown */
  readonly pool: string | null
  readonly tokenIn: Address
  readonly tokenOut: Address
}

export interface RouteEntry {
  /** share of the input (exact output: of the gross output); all entries add up to 10000 */
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

/** The gas of a route at the block's base fee, in three units. */
export interface GasCost {
  /** native USDC wei (18 decimals) */
  readonly native: bigint
  /** USDC's 6-decimal units, rounded down */
  readonly usdc: bigint
  /** tokenOut's smallest units (the unit amountOut is in) at the reference prices; null without a price for tokenOut */
  readonly tokenOut: bigint | null
}

export interface QuoteResponse {
  /** the request's: the chain served */
  readonly chainId: ArcChainId
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly tradeType: TradeType
  /** exact input: as requested; exact output: what the route needs at blockNumber */
  readonly amountIn: bigint
  /** exact input: = amountIn; exact output: amountIn raised by slippageBps, rounded up (the most the transaction takes) */
  readonly maxAmountIn: bigint
  /** exact input: grossAmountOut − both fees; exact output: as requested */
  readonly amountOut: bigint
  /** exact input: floor(amountOut × (10000 − slippageBps) / 10000); exact output: = amountOut */
  readonly minAmountOut: bigint
  readonly slippageBps: number
  readonly grossAmountOut: bigint
  readonly fees: QuoteFees
  /** signed basis points against reference prices; null without a reference */
  readonly priceImpactBps: number | null
  readonly gasEstimate: bigint | null
  /** gasEstimate priced at the block's base fee; null without a gas estimate */
  readonly gasCost: GasCost | null
  readonly route: ReadonlyArray<RouteEntry>
  /** the block the prices, the fee and the route were read at */
  readonly blockNumber: bigint
}
