// The bodies the API answers with, as Schemas from the programs' typed answers
// to JSON. The edge encodes every 200 and every error with these, and the
// OpenAPI document is generated from them: the document cannot describe a body
// the edge does not send.
import { Schema } from "effect"
import { ARC_CHAIN_IDS, ARC_CHAINS_TEXT } from "../domain/index.ts"
import { AddressJson, addressJson, AmountJson, amountJson, blockNumberJson, HexJson, IntegerJson, RequestIdJson } from "./json-fields.ts"

const Hop = Schema.Struct({
  dex: Schema.String.annotations({ description: "the venue's name (see POST /sources), or the external aggregator's" }),
  pool: Schema.NullOr(Schema.String).annotations({ description: "pool address, 32-byte V4 pool id, or null when unknown" }),
  tokenIn: AddressJson,
  tokenOut: AddressJson,
}).annotations({ identifier: "RouteHop" })

const RouteEntry = Schema.Struct({
  shareBps: IntegerJson(1, 10_000, "share of the input for this split (exact output: of the gross output); all entries add up to 10000"),
  hops: Schema.Array(Hop),
}).annotations({ identifier: "RouteEntry" })

const Fees = Schema.Struct({
  token: addressJson("always tokenOut"),
  protocolBps: IntegerJson(0, 10_000, "protocol fee rate in basis points"),
  protocolAmount: AmountJson,
  partnerBps: IntegerJson(0, 100, "the request's feeBps; 0 without a fee"),
  partnerAmount: AmountJson,
  partnerRecipient: Schema.NullOr(AddressJson),
}).annotations({ identifier: "Fees" })

const GasCost = Schema.Struct({
  native: amountJson("gasEstimate × the block's base fee, in native USDC wei (18 decimals)"),
  usdc: amountJson("the same in USDC's 6-decimal units, rounded down"),
  tokenOut: Schema.NullOr(AmountJson).annotations({ description: "the same in tokenOut's smallest units at the reference prices; null without a price for tokenOut" }),
}).annotations({ identifier: "GasCost", description: "the gas estimate priced at the block's base fee; null when there is no gas estimate" })

/** The fields /quote and /swap answer alike. */
const pricedFields = {
  chainId: Schema.Literal(...ARC_CHAIN_IDS).annotations({ description: `the chain the service serves: ${ARC_CHAINS_TEXT}` }),
  tokenIn: AddressJson,
  tokenOut: AddressJson,
  tradeType: Schema.Literal("exactInput", "exactOutput").annotations({ description: "exactInput when the request sent amountIn, exactOutput when it sent amountOut" }),
  amountIn: amountJson("exact input: as requested; exact output: the input the route needs at blockNumber"),
  maxAmountIn: amountJson("the most the transaction takes: amountIn for exact input; for exact output amountIn raised by slippageBps, rounded up (the transaction reverts with Slippage above it)"),
  amountOut: amountJson("exact input: what the recipient gets, grossAmountOut less both fees; exact output: as requested, what the recipient gets"),
  minAmountOut: amountJson("exact input: amountOut less slippageBps, rounded down, the transaction reverts below it; exact output: = amountOut"),
  slippageBps: IntegerJson(0, 2_000, "the request's slippageBps"),
  grossAmountOut: amountJson("what the route delivers before fees"),
  fees: Fees,
  priceImpactBps: Schema.NullOr(Schema.Number.pipe(Schema.int())).annotations({ description: "signed basis points against the reference prices; null without a reference" }),
  gasEstimate: Schema.NullOr(AmountJson).annotations({ description: "gas units the route is expected to use" }),
  gasCost: Schema.NullOr(GasCost),
  route: Schema.Array(RouteEntry),
  blockNumber: blockNumberJson("the block whose pools, fee and prices priced this answer"),
}

export const QuoteResponseJson = Schema.Struct({
  ...pricedFields,
  quoteId: Schema.String.annotations({ description: "this quote, signed: send it with /swap within 5 minutes to learn priceChangeBps" }),
  requestId: RequestIdJson,
}).annotations({ identifier: "QuoteResponse" })

const Tx = Schema.Struct({
  to: addressJson("the route executor"),
  data: HexJson,
  value: amountJson("native USDC to send, 18 decimals: amountIn (exact output: maxAmountIn, what is not needed comes back in the same transaction) for native USDC input, else 0"),
  gas: Schema.NullOr(AmountJson).annotations({ description: "gas limit: the least limit at which the simulation succeeds plus headroom; null when not simulated" }),
}).annotations({ identifier: "Transaction" })

const Approval = Schema.Struct({ token: AddressJson, spender: AddressJson, amount: AmountJson }).annotations({
  identifier: "Approval",
  description: "the allowance the sender needs (ERC-20 input); null for native input, and when the request carries a permit",
})

const TypedDataField = Schema.Struct({ name: Schema.String, type: Schema.String })

const PermitTypedData = Schema.Struct({
  domain: Schema.Struct({
    name: Schema.String.annotations({ description: "the token's EIP-712 domain name" }),
    version: Schema.String.annotations({ description: "the token's EIP-712 domain version" }),
    chainId: Schema.Number.pipe(Schema.int()).annotations({ description: "the chain served, as a number" }),
    verifyingContract: addressJson("tokenIn"),
  }),
  types: Schema.Struct({
    EIP712Domain: Schema.Array(TypedDataField),
    Permit: Schema.Array(TypedDataField),
  }),
  primaryType: Schema.Literal("Permit"),
  message: Schema.Struct({
    owner: addressJson("the sender"),
    spender: addressJson("the route executor"),
    value: amountJson("what the transaction takes: amountIn, or maxAmountIn for exact output"),
    nonce: blockNumberJson("the token's nonces(sender) at blockNumber"),
    deadline: blockNumberJson("the swap's deadline, Unix seconds"),
  }).annotations({ description: "EIP-2612's Permit; integers are decimal strings" }),
}).annotations({ identifier: "PermitTypedData", description: "EIP-712 typed data for eth_signTypedData_v4 (viem signTypedData)" })

const Permit = Schema.Struct({ typedData: PermitTypedData }).annotations({
  identifier: "Permit",
  description: "the permit to sign instead of sending the approval: present when tokenIn implements EIP-2612 and the sender's allowance to the executor is below what the transaction takes; send /swap again with permit { value, deadline, signature } and tx then needs no approval. null otherwise, when the request carried a permit, or when the allowance could not be read",
})

const BalanceIssue = Schema.Struct({
  token: AddressJson,
  actual: AmountJson,
  expected: amountJson("maxAmountIn; for USDC input, also tx.gas at the block's base fee (gas is paid from the same balance)"),
}).annotations({ identifier: "BalanceIssue" })

const AllowanceIssue = Schema.Struct({
  token: AddressJson,
  spender: AddressJson,
  actual: AmountJson,
  expected: AmountJson,
}).annotations({ identifier: "AllowanceIssue" })

const Issues = Schema.Struct({
  balance: Schema.NullOr(BalanceIssue),
  allowance: Schema.NullOr(AllowanceIssue),
}).annotations({
  identifier: "SenderIssues",
  description: "the sender's real balance and allowance at blockNumber, each when it falls short (null otherwise); the simulation fills them in. null when they could not be read",
})

export const SwapResponseJson = Schema.Struct({
  ...pricedFields,
  sender: AddressJson,
  recipient: AddressJson,
  deadline: Schema.Number.pipe(Schema.int()).annotations({ description: "Unix seconds after which the transaction reverts" }),
  tx: Tx,
  approval: Schema.NullOr(Approval),
  permit: Schema.NullOr(Permit),
  simulated: Schema.Boolean.annotations({ description: "true when the exact transaction was simulated from the sender and succeeded" }),
  issues: Schema.NullOr(Issues),
  priceChangeBps: Schema.NullOr(Schema.Number.pipe(Schema.int())).annotations({
    description: "the price against the quoteId's, in basis points, negative when worse, rounded toward zero: for exact input amountOut against the quoted amountOut, for exact output the quoted amountIn against amountIn (the change is in the input); null without a quoteId",
  }),
  requestId: RequestIdJson,
}).annotations({ identifier: "SwapResponse" })

const OrderTypedData = Schema.Struct({
  domain: Schema.Struct({
    name: Schema.String.annotations({ description: "\"Arc Route Executor\"" }),
    version: Schema.String.annotations({ description: "\"1\"" }),
    chainId: Schema.Number.pipe(Schema.int()).annotations({ description: "the chain served, as a number" }),
    verifyingContract: addressJson("the route executor"),
  }),
  types: Schema.Struct({
    EIP712Domain: Schema.Array(TypedDataField),
    SwapOrder: Schema.Array(TypedDataField),
  }),
  primaryType: Schema.Literal("SwapOrder"),
  message: Schema.Struct({
    sender: addressJson("signs the order and pays its input"),
    recipient: addressJson("receives the output"),
    tokenIn: AddressJson,
    tokenOut: AddressJson,
    exactOutput: Schema.Boolean.annotations({ description: "false for exact input, true for exact output" }),
    amountIn: amountJson("exact input: amountIn, paid exactly; exact output: maxAmountIn, the most paid"),
    amountOut: amountJson("exact input: minAmountOut, the least the recipient receives; exact output: amountOut, received exactly"),
    maxRelayerFee: amountJson("relayerFee.amount: the most the relayer takes, in tokenOut"),
    feeBps: IntegerJson(0, 100, "the partner fee"),
    feeRecipient: addressJson("the partner fee's recipient; 0x0000…0000 without a fee"),
    nonce: blockNumberJson("a fresh random 256-bit unordered nonce"),
    deadline: blockNumberJson("the request's deadline, Unix seconds"),
  }).annotations({ description: "the SwapOrder; integers are decimal strings (feeBps a number); send it back to /gasless/submit exactly as given" }),
}).annotations({ identifier: "SwapOrderTypedData", description: "EIP-712 typed data for eth_signTypedData_v4 (viem signTypedData): the order, not its route" })

export const GaslessQuoteResponseJson = Schema.Struct({
  ...pricedFields,
  amountOut: amountJson("exact input: what the recipient gets, grossAmountOut less both fees and the relayer fee; exact output: as requested"),
  minAmountOut: amountJson("exact input: amountOut less slippageBps, rounded down (the order's amountOut); exact output: = amountOut"),
  relayerFee: Schema.Struct({
    token: addressJson("tokenOut"),
    amount: amountJson("the most the relayer takes: (the route's gas + the order entry's, + a permit's when permit is not null) × the block's base fee, priced in tokenOut, plus the service's margin"),
  }).annotations({ identifier: "RelayerFee" }),
  order: Schema.Struct({ typedData: OrderTypedData }).annotations({ identifier: "GaslessOrder", description: "sign typedData and send its message with the signature to /gasless/submit" }),
  permit: Schema.NullOr(Permit).annotations({ description: "the permit to sign with the order instead of an approval (value = the order's amountIn, deadline = the order's): tokenIn implements EIP-2612 and the sender's allowance to the executor is short; null otherwise" }),
  approval: Approval,
  issues: Schema.NullOr(Issues),
  quoteId: Schema.String.annotations({ description: "this quote, signed" }),
  requestId: RequestIdJson,
}).annotations({ identifier: "GaslessQuoteResponse" })

const OrderStatusJson = Schema.Literal("pending", "submitted", "confirmed", "failed", "expired").annotations({
  description: "pending: accepted, not yet sent; submitted: sent, not yet mined; confirmed: mined and paid; failed: mined and reverted, or refused at send (reason says why); expired: the deadline passed unsent",
})
const TradeHashJson = HexJson.annotations({ description: "the order's EIP-712 digest" })

export const GaslessSubmitResponseJson = Schema.Struct({
  tradeHash: TradeHashJson,
  status: OrderStatusJson,
  requestId: RequestIdJson,
}).annotations({ identifier: "GaslessSubmitResponse" })

export const GaslessStatusResponseJson = Schema.Struct({
  tradeHash: TradeHashJson,
  status: OrderStatusJson,
  transactions: Schema.Array(
    Schema.Struct({
      hash: HexJson,
      blockNumber: Schema.NullOr(blockNumberJson("the block it was mined in")).annotations({ description: "null until mined" }),
    }),
  ).annotations({ description: "every transaction the relayer sent for the order, in order (a replacement follows the one it replaced)" }),
  amountIn: Schema.NullOr(amountJson("what the sender paid")).annotations({ description: "null until confirmed" }),
  amountOut: Schema.NullOr(amountJson("what the recipient received")).annotations({ description: "null until confirmed" }),
  relayerFee: Schema.NullOr(amountJson("what the relayer took, in tokenOut")).annotations({ description: "null until confirmed" }),
  reason: Schema.NullOr(Schema.String).annotations({ description: "why the order failed or expired; null otherwise" }),
  requestId: RequestIdJson,
}).annotations({ identifier: "GaslessStatusResponse" })

export const ERROR_CODES = [
  "INVALID_REQUEST",
  "UNAUTHORIZED",
  "NOT_FOUND",
  "API_DISABLED",
  "METHOD_NOT_ALLOWED",
  "SIMULATION_FAILED",
  "NO_ROUTE",
  "RATE_LIMITED",
  "CONCURRENCY_LIMITED",
  "INTERNAL",
  "OVERLOADED",
  "UNAVAILABLE",
  "TIMEOUT",
] as const

export const ErrorBodyJson = Schema.Struct({
  error: Schema.Struct({
    code: Schema.Literal(...ERROR_CODES),
    message: Schema.String.annotations({ description: "for people; may be reworded: branch on code" }),
    reason: Schema.optional(Schema.String).annotations({ description: "SIMULATION_FAILED: the executor's reason, when it gives one" }),
  }),
  requestId: RequestIdJson,
}).annotations({ identifier: "ErrorBody" })

/** The body of POST /sources and POST /tokens: an empty JSON object. */
export const EmptyBody = Schema.Struct({}).annotations({ identifier: "EmptyRequest", description: "an empty JSON object: {}" })

const Source = Schema.Struct({
  name: Schema.String.annotations({ description: "what includeSources, excludeSources and route[].hops[].dex call it" }),
  type: Schema.Literal("venue", "aggregator"),
  kind: Schema.String.annotations({ description: "venue: uniswap-v2, uniswap-v3, uniswap-v4, curve-stableswap; aggregator: 0x-v2, kyberswap" }),
  pools: Schema.NullOr(Schema.Number.pipe(Schema.int())).annotations({ description: "venue: its pools published at blockNumber; null for an aggregator" }),
  healthy: Schema.Boolean.annotations({ description: "venue: registered on the route executor and its pools published; aggregator: its circuit breaker is closed" }),
  detail: Schema.NullOr(Schema.String).annotations({ description: "why it is not healthy; null when it is" }),
  tradeTypes: Schema.Array(Schema.Literal("exactInput", "exactOutput")).annotations({
    description: "the requests it competes on: a venue both; an aggregator both when its API takes an exact output (0x-v2: asked with buyAmount), else exactInput only (kyberswap)",
  }),
}).annotations({ identifier: "Source" })

export const SourcesResponseJson = Schema.Struct({
  sources: Schema.Array(Source),
  blockNumber: blockNumberJson("the block this answer was read at"),
  requestId: RequestIdJson,
}).annotations({ identifier: "SourcesResponse" })

const Token = Schema.Struct({
  address: AddressJson,
  symbol: Schema.String,
  decimals: IntegerJson(0, 255, "the token's decimals"),
  priceUsd: Schema.NullOr(Schema.String.pipe(Schema.pattern(/^[0-9]+(\.[0-9]+)?$/))).annotations({
    description: "the reference price in US dollars, exactly as its feed gives it (a decimal string); null without a feed",
  }),
}).annotations({ identifier: "Token" })

export const TokensResponseJson = Schema.Struct({
  tokens: Schema.Array(Token),
  blockNumber: blockNumberJson("the block this answer was read at"),
  requestId: RequestIdJson,
}).annotations({ identifier: "TokensResponse" })
