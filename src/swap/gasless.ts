// The gasless programs (api-1.2 section 3) behind the edge: their interface,
// requests and answers. The sender signs an order (terms, not a route); the
// relayer sends it, pays the gas in USDC and takes it back, with a margin, in
// tokenOut. Present only when the service has a relayer.
import { Context, type Effect } from "effect"
import type { Address, Hex } from "viem"
import { SWAP_ORDER_TYPES, swapOrderTypedData, type SwapOrder, type SwapOrderTypedData } from "../domain/index.ts"
import type { OrderRecord, OrderStatus } from "../relayer/index.ts"
import type { GaslessError } from "./errors.ts"
import { EIP712_DOMAIN, type PermitToSign } from "./permit.ts"
import type { Approval, SwapParties } from "./programs.ts"
import type { SenderIssues } from "./sender-issues.ts"
import type { QuoteRequest, QuoteResponse } from "../domain/index.ts"

/** A /gasless/quote: the swap request's fields, an ERC-20 tokenIn (the edge refuses native input). */
export type GaslessQuoteRequest = QuoteRequest & Omit<SwapParties, "permit">

/** An order's typed data with the domain's type listed too, as eth_signTypedData_v4 wants it. */
export type OrderToSign = Omit<SwapOrderTypedData, "types"> & { readonly types: typeof SWAP_ORDER_TYPES & { readonly EIP712Domain: typeof EIP712_DOMAIN } }

/** The order the sender signs, for the executor at `executor` on `chainId`. */
export const orderToSign = (chainId: number, executor: Address, order: SwapOrder): OrderToSign => {
  const typed = swapOrderTypedData(chainId, executor, order)
  return { ...typed, types: { EIP712Domain: EIP712_DOMAIN, ...typed.types } }
}

export interface GaslessQuoteResponse extends QuoteResponse {
  /** the most the relayer takes, in tokenOut: amountOut and minAmountOut are net of it */
  readonly relayerFee: { readonly token: Address; readonly amount: bigint }
  readonly order: { readonly typedData: OrderToSign }
  /** the permit to sign with the order (value = the order's input, deadline = the order's), or null */
  readonly permit: { readonly typedData: PermitToSign } | null
  /** the allowance the executor needs from the sender: the order's input of tokenIn */
  readonly approval: Approval
  readonly issues: SenderIssues | null
}

export interface GaslessSubmitRequest {
  /** the order exactly as the quote's typedData.message gave it */
  readonly order: SwapOrder
  readonly signature: Hex
  /** the sender's signature of the quote's permit, when it returned one */
  readonly permitSignature: Hex | null
  /** the API key submitting it: only it may ask the order's status */
  readonly keyId: string
}

export interface GaslessSubmitResponse {
  readonly tradeHash: Hex
  readonly status: OrderStatus
}

export type GaslessStatusResponse = Pick<OrderRecord, "tradeHash" | "status" | "transactions" | "amountIn" | "amountOut" | "relayerFee" | "reason">

export interface GaslessProgramsShape {
  /** the relayer account the orders are sent from */
  readonly relayer: Address
  readonly quote: (request: GaslessQuoteRequest) => Effect.Effect<GaslessQuoteResponse, GaslessError>
  readonly submit: (request: GaslessSubmitRequest) => Effect.Effect<GaslessSubmitResponse, GaslessError>
  /** the order's state, when `keyId` submitted it */
  readonly status: (tradeHash: Hex, keyId: string) => Effect.Effect<GaslessStatusResponse, GaslessError>
}

/** The gasless programs; absent from the context when the service has no relayer (the endpoints then answer 404). */
export class GaslessPrograms extends Context.Tag("swap/GaslessPrograms")<GaslessPrograms, GaslessProgramsShape>() {}
