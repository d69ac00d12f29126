// Request bodies of POST /gasless/submit and POST /gasless/status. The order is
// parsed strictly, field by field, exactly as /gasless/quote's typedData.message
// gives it (a problem names its field: `order.amountIn`); it carries no chain
// or executor: the signature is checked against this service's, so one made for
// another chain or executor does not recover.
import { Either, ParseResult, Schema } from "effect"
import { zeroAddress, type Address, type Hex } from "viem"
import { isNativePlaceholder, isUsdc, type SwapOrder } from "../domain/index.ts"
import { InvalidRequest } from "../swap/index.ts"
import { ADDRESS_JSON, describeValue, fieldOf, parseAddress, partyProblem } from "./requests.ts"

const MAX_UINT256 = (1n << 256n) - 1n

/** A uint256 as the typed data's message writes it: a string of digits (or a JSON number up to 2^53), from `min`. */
const parseUint = (min: bigint) => (u: unknown): Either.Either<bigint, string> => {
  let value: bigint
  if (typeof u === "string" && /^[0-9]{1,78}$/.test(u)) value = BigInt(u)
  else if (typeof u === "number" && Number.isSafeInteger(u)) value = BigInt(u)
  else return Either.left(`must be an integer as a string of digits, as the quote's typedData.message gives it, got ${describeValue(u)}`)
  if (value < min) return Either.left(`must be at least ${min}`)
  if (value > MAX_UINT256) return Either.left("must be below 2^256")
  return Either.right(value)
}

const uintField = (min: bigint, description: string) =>
  fieldOf(Schema.BigIntFromSelf, parseUint(min), { type: "string", pattern: "^[0-9]{1,78}$", description: `${description} (a decimal string)` })

const parseFeeBps = (u: unknown): Either.Either<number, string> =>
  typeof u === "number" && Number.isInteger(u) && u >= 0 && u <= 100 ? Either.right(u) : Either.left(`must be an integer from 0 to 100, got ${describeValue(u)}`)

const parseBool = (u: unknown): Either.Either<boolean, string> => (typeof u === "boolean" ? Either.right(u) : Either.left(`must be true or false, got ${describeValue(u)}`))

const orderAddress = (description: string) => fieldOf(Schema.String as unknown as Schema.Schema<Address>, parseAddress, { ...ADDRESS_JSON, description })

/** The SwapOrder message, as /gasless/quote returned it in order.typedData.message. */
export const OrderMessage = Schema.Struct({
  sender: orderAddress("signs the order and pays its input"),
  recipient: orderAddress("receives the output"),
  tokenIn: orderAddress("an ERC-20"),
  tokenOut: orderAddress("the token bought (native USDC as 0x0000…0000 or 0xEeee…EEeE)"),
  exactOutput: fieldOf(Schema.Boolean, parseBool, { type: "boolean", description: "false: amountIn is paid exactly and amountOut is the least received; true: amountIn is the most paid and amountOut is received exactly" }),
  amountIn: uintField(1n, "exact input: what the sender pays; exact output: the most it pays"),
  amountOut: uintField(1n, "exact input: the least the recipient receives; exact output: what it receives, after every fee and the relayer's"),
  maxRelayerFee: uintField(0n, "the most the relayer takes, in tokenOut"),
  feeBps: fieldOf(Schema.Number, parseFeeBps, { type: "integer", minimum: 0, maximum: 100, description: "the partner fee, basis points of the output" }),
  feeRecipient: orderAddress("receives the partner fee; 0x0000…0000 without one"),
  nonce: uintField(0n, "any unused value (unordered); the sender may cancel it on the executor (cancelNonce)"),
  deadline: uintField(1n, "Unix seconds after which the order cannot execute"),
}).annotations({ identifier: "SwapOrderMessage", description: "the order's typedData.message exactly as POST /gasless/quote returned it" })

const HEX = /^0x([0-9a-fA-F]{2}){1,4096}$/
const parseOrderSignature = (u: unknown): Either.Either<Hex, string> =>
  typeof u === "string" && HEX.test(u)
    ? Either.right(u.toLowerCase() as Hex)
    : Either.left(`must be the sender's EIP-712 signature of the order as hex (65 bytes (r, s, v), 64 (EIP-2098), or what a contract wallet's isValidSignature takes), got ${describeValue(u)}`)
const PERMIT_SIGNATURE = /^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/
const parsePermitSignature = (u: unknown): Either.Either<Hex, string> =>
  typeof u === "string" && PERMIT_SIGNATURE.test(u)
    ? Either.right(u.toLowerCase() as Hex)
    : Either.left(`must be the sender's signature of the quote's permit typedData as hex: 65 bytes (r, s, v) or 64 (EIP-2098), got ${describeValue(u)}`)

export const GaslessSubmitBody = Schema.Struct({
  order: OrderMessage,
  signature: fieldOf(Schema.String as unknown as Schema.Schema<Hex>, parseOrderSignature, {
    type: "string",
    pattern: HEX.source,
    description: "the sender's EIP-712 signature of order.typedData (eth_signTypedData_v4, viem signTypedData): 65 bytes (r, s, v) with s low, 64 (EIP-2098), or a contract wallet's ERC-1271 signature",
  }),
  permit: Schema.optional(
    Schema.Struct({
      signature: fieldOf(Schema.String as unknown as Schema.Schema<Hex>, parsePermitSignature, {
        type: "string",
        pattern: PERMIT_SIGNATURE.source,
        description: "the sender's signature of the quote's permit.typedData (value = order.amountIn, deadline = order.deadline)",
      }),
    }).annotations({ identifier: "GaslessPermit", description: "only when /gasless/quote returned a permit: its signature, so that no approval transaction is needed" }),
  ),
}).annotations({ identifier: "GaslessSubmitRequest" })

const TRADE_HASH = /^0x[0-9a-fA-F]{64}$/
export const GaslessStatusBody = Schema.Struct({
  tradeHash: fieldOf(Schema.String as unknown as Schema.Schema<Hex>, (u) =>
    typeof u === "string" && TRADE_HASH.test(u) ? Either.right(u.toLowerCase() as Hex) : Either.left(`must be the tradeHash /gasless/submit answered (0x and 64 hex digits), got ${describeValue(u)}`), {
    type: "string",
    pattern: TRADE_HASH.source,
    description: "what /gasless/submit answered",
  }),
}).annotations({ identifier: "GaslessStatusRequest" })

const parseOptions = { errors: "all", onExcessProperty: "error" } as const
const decodeSubmitBody = Schema.decodeUnknownEither(GaslessSubmitBody, parseOptions)
const decodeStatusBody = Schema.decodeUnknownEither(GaslessStatusBody, parseOptions)

const fail = (message: string) => Either.left(new InvalidRequest({ message }))

/** The schema's first problem, naming its field by its path (`order.amountIn`). */
const decodeStrictly = <A>(decode: (u: unknown) => Either.Either<A, ParseResult.ParseError>, body: unknown): Either.Either<A, InvalidRequest> => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return fail(`body: must be a JSON object, got ${describeValue(body)}`)
  return Either.mapLeft(decode(body), (error) => {
    const first = ParseResult.ArrayFormatter.formatErrorSync(error)[0]!
    const field = first.path.map(String).join(".") || "body"
    const message = first._tag === "Missing" ? `${field}: is required` : first._tag === "Unexpected" ? `${field}: unknown field` : `${field}: ${first.message}`
    return new InvalidRequest({ message })
  })
}

export interface SubmitFields {
  readonly order: SwapOrder
  readonly signature: Hex
  readonly permitSignature: Hex | null
}

/** A POST /gasless/submit body → the signed order, or the first problem, naming its field. */
export const decodeGaslessSubmit = (body: unknown, rules: { readonly executor: Address }): Either.Either<SubmitFields, InvalidRequest> =>
  Either.flatMap(decodeStrictly(decodeSubmitBody, body), (f): Either.Either<SubmitFields, InvalidRequest> => {
    const order = f.order
    for (const field of ["sender", "recipient"] as const) {
      const problem = partyProblem(order[field], rules.executor)
      if (problem !== undefined) return fail(`order.${field}: ${problem}`)
    }
    if (isNativePlaceholder(order.tokenIn)) return fail("order.tokenIn: a gasless order takes an ERC-20 input (use the ERC-20 USDC 0x3600…0000)")
    if (isUsdc(order.tokenIn) && isUsdc(order.tokenOut)) return fail("order.tokenOut: USDC to USDC is nothing to swap")
    if (order.tokenIn.toLowerCase() === order.tokenOut.toLowerCase()) return fail("order.tokenOut: must differ from tokenIn")
    if (order.feeBps > 0) {
      if (order.feeRecipient.toLowerCase() === zeroAddress) return fail("order.feeRecipient: is required when feeBps is greater than 0")
      const problem = partyProblem(order.feeRecipient, rules.executor)
      if (problem !== undefined) return fail(`order.feeRecipient: ${problem}`)
    }
    return Either.right({ order, signature: f.signature, permitSignature: f.permit?.signature ?? null })
  })

/** A POST /gasless/status body → the tradeHash, or the problem. */
export const decodeGaslessStatus = (body: unknown): Either.Either<Hex, InvalidRequest> => Either.map(decodeStrictly(decodeStatusBody, body), (f) => f.tradeHash)
