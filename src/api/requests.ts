// Request bodies of POST /quote, POST /swap and POST /gasless/quote: Effect Schemas for each field
// (exact messages naming the field), then the rules that join fields (fee
// recipient, USDC to USDC, sender and recipient, deadline). The result is typed,
// with checksummed addresses, bigint amounts and defaults applied.
import { Either, ParseResult, Schema } from "effect"
import type { Address, Hex } from "viem"
import { ARC_CHAIN_IDS, ARC_CHAINS_TEXT, checksum, describeArcChain, isNativePlaceholder, isUsdc, NATIVE_EEEE_PLACEHOLDER, NATIVE_ZERO_PLACEHOLDER, type ArcChainId } from "../domain/index.ts"
import { JsonNumber } from "./body.ts"
import { InvalidRequest, type GaslessQuoteRequest, type PermitSignature, type SwapRequest } from "../swap/index.ts"
import type { QuoteRequest } from "../domain/index.ts"

export const DEFAULT_SLIPPAGE_BPS = 50
export const DEFAULT_DEADLINE_SECONDS = 20 * 60
export const MAX_DEADLINE_SECONDS = 60 * 60
const MAX_UINT256 = (1n << 256n) - 1n

export const describeValue = (u: unknown): string => {
  if (u instanceof JsonNumber) return u.source.length > 80 ? `${u.source.slice(0, 80)}…` : u.source
  if (typeof u === "string") return JSON.stringify(u.length > 80 ? `${u.slice(0, 80)}…` : u)
  if (typeof u === "number" || typeof u === "boolean" || u === null) return String(u)
  return Array.isArray(u) ? "an array" : typeof u === "object" ? "an object" : typeof u
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** All-lowercase, or mixed case matching its EIP-55 checksum; the 0xEeee… placeholder in any case. */
export const parseAddress = (u: unknown): Either.Either<Address, string> => {
  if (typeof u !== "string") return Either.left(`must be an address string, got ${describeValue(u)}`)
  if (!HEX_ADDRESS.test(u)) return Either.left(`must be 0x followed by 40 hex digits, got ${describeValue(u)}`)
  const lower = u.toLowerCase()
  const checksummed = checksum(lower)
  if (u === lower || u === checksummed || lower === NATIVE_EEEE_PLACEHOLDER.toLowerCase()) return Either.right(checksummed)
  return Either.left(`mixed-case address with a wrong checksum: ${u} (send it all-lowercase or checksummed as ${checksummed})`)
}

const Checksummed = Schema.TemplateLiteral("0x", Schema.String)

/** JSON Schema of a field as the OpenAPI document shows it (the parser is the truth, this its description). */
type FieldJsonSchema = Record<string, unknown> & { readonly description: string }

export const fieldOf = <A, I>(
  to: Schema.Schema<A, I>,
  parse: (u: unknown) => Either.Either<A, string>,
  jsonSchema: FieldJsonSchema,
): Schema.Schema<A, unknown> =>
  Schema.transformOrFail(Schema.Unknown, Schema.typeSchema(to), {
    strict: true,
    decode: (u, _, ast) => Either.match(parse(u), {
      onLeft: (message) => ParseResult.fail(new ParseResult.Type(ast, u, message)),
      onRight: ParseResult.succeed,
    }),
    encode: ParseResult.succeed,
  }).annotations({ jsonSchema })

export const ADDRESS_JSON = { type: "string", pattern: "^0x[0-9a-fA-F]{40}$" } as const
export const addressField = (description: string) => fieldOf(Checksummed as Schema.Schema<Address>, parseAddress, { ...ADDRESS_JSON, description })

/** The largest amount accepted as a JSON number: 2^53 (above it, a parsed number may have lost digits). */
export const MAX_JSON_NUMBER_AMOUNT = 2n ** 53n

const JSON_NUMBER_LITERAL = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/
/** beyond this many digits a literal is larger than any amount; its value is not computed */
const HUGE_DIGITS = 100

/**
 * The integer a JSON number literal says exactly ("1000", "1e3" and "1000.0" all say
 * 1000), or undefined when it says a fraction ("1.5", "1.0000000000000001") or is not a
 * JSON number. A literal of more than 100 digits' magnitude answers ±10^100.
 */
export const exactIntegerOf = (literal: string): bigint | undefined => {
  const m = JSON_NUMBER_LITERAL.exec(literal)
  if (m === null) return undefined
  const [, sign, whole, fraction = "", exponent = "0"] = m
  const written = (whole! + fraction).replace(/^0+/, "")
  if (written === "") return 0n
  // value = digits × 10^scale, digits without trailing zeros: an integer exactly when scale ≥ 0
  const digits = written.replace(/0+$/, "")
  const scale = Number(exponent) - fraction.length + (written.length - digits.length)
  if (scale < 0) return undefined
  const magnitude = digits.length + scale > HUGE_DIGITS ? 10n ** BigInt(HUGE_DIGITS) : BigInt(digits) * 10n ** BigInt(scale)
  return sign === "-" ? -magnitude : magnitude
}

const outOfJsonRange = (negative: boolean) =>
  `JSON numbers are accepted only up to 2^53; send ${negative ? "a non-negative amount" : "the amount as a string"}`

/**
 * A whole number of smallest units: an integer string, or a JSON number whose literal
 * says an integer up to 2^53 (JsonNumber, as read from a body: 9007199254740993, which
 * parses to the same double as 2^53, is refused). A number without its literal is
 * accepted below 2^53 only.
 */
export const parseAmount = (u: unknown): Either.Either<bigint, string> => {
  let value: bigint
  if (typeof u === "string") {
    if (!/^[0-9]{1,78}$/.test(u)) return Either.left(`must be a whole number of the token's smallest unit, as a string of digits, got ${describeValue(u)}`)
    value = BigInt(u)
  } else if (u instanceof JsonNumber) {
    const exact = exactIntegerOf(u.source)
    if (exact === undefined) return Either.left(`must be a whole number of the token's smallest unit, got ${describeValue(u)}`)
    if (exact > MAX_JSON_NUMBER_AMOUNT || exact < -MAX_JSON_NUMBER_AMOUNT) return Either.left(outOfJsonRange(exact < 0n))
    value = exact
  } else if (typeof u === "number") {
    // a number without its literal: only below 2^53 can no digit have been lost
    if (!Number.isInteger(u)) return Either.left(`must be a whole number of the token's smallest unit, got ${describeValue(u)}`)
    if (!Number.isSafeInteger(u)) return Either.left(outOfJsonRange(u < 0))
    value = BigInt(u)
  } else {
    return Either.left(`must be an integer string, got ${describeValue(u)}`)
  }
  if (value <= 0n) return Either.left("must be greater than 0")
  if (value > MAX_UINT256) return Either.left("must be below 2^256")
  return Either.right(value)
}

const amountField = (description: string) =>
  fieldOf(Schema.BigIntFromSelf, parseAmount, {
    description: `${description}: a string of digits, or a JSON number up to 2^53`,
    oneOf: [{ type: "string", pattern: "^[0-9]{1,78}$" }, { type: "integer", minimum: 1, maximum: 2 ** 53 }],
  })

const parseIntegerIn = (min: number, max: number) => (u: unknown): Either.Either<number, string> =>
  typeof u === "number" && Number.isInteger(u) && u >= min && u <= max
    ? Either.right(u)
    : Either.left(`must be an integer from ${min} to ${max}, got ${describeValue(u)}`)
const parseFeeBps = parseIntegerIn(0, 100)
const parseSlippageBps = parseIntegerIn(0, 2000)

// any chain id reads here; whether it is the chain served is a rule of the request (quoteFromFields)
const parseChainId = (u: unknown): Either.Either<number, string> =>
  typeof u === "number" && Number.isSafeInteger(u) ? Either.right(u) : Either.left(`must be a chain id (an integer) when sent, got ${describeValue(u)}`)
const ChainIdField = fieldOf(Schema.Number, parseChainId, {
  type: "integer",
  enum: [...ARC_CHAIN_IDS],
  description: `the chain the request is for, when sent: must be the chain the service serves, ${ARC_CHAINS_TEXT}, as every answer's chainId reports`,
})

const parseDeadline = (u: unknown): Either.Either<number, string> =>
  typeof u === "number" && Number.isSafeInteger(u)
    ? Either.right(u)
    : Either.left(`must be an integer number of Unix seconds, got ${describeValue(u)}`)
const DeadlineField = fieldOf(Schema.Number, parseDeadline, {
  type: "integer",
  description: "Unix seconds after which the transaction reverts: in the future, at most one hour ahead; now + 20 minutes when not sent",
})

/** A source's name: a venue (see POST /sources) or an external aggregator. */
const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
export const MAX_SOURCE_NAMES = 64

const parseSourceNames = (u: unknown): Either.Either<ReadonlyArray<string>, string> => {
  if (!Array.isArray(u)) return Either.left(`must be an array of source names, got ${describeValue(u)}`)
  if (u.length === 0) return Either.left("must name at least one source")
  if (u.length > MAX_SOURCE_NAMES) return Either.left(`must name at most ${MAX_SOURCE_NAMES} sources`)
  const seen = new Set<string>()
  for (const name of u) {
    if (typeof name !== "string" || !SOURCE_NAME.test(name)) return Either.left(`must hold source names (see POST /sources), got ${describeValue(name)}`)
    if (seen.has(name)) return Either.left(`names ${name} twice`)
    seen.add(name)
  }
  return Either.right(u as string[])
}
const sourceNamesField = (description: string) =>
  fieldOf(Schema.Array(Schema.String), parseSourceNames, {
    type: "array",
    items: { type: "string", pattern: SOURCE_NAME.source },
    minItems: 1,
    maxItems: MAX_SOURCE_NAMES,
    uniqueItems: true,
    description,
  })

const HEX_SIGNATURE = /^0x([0-9a-fA-F]{128}|[0-9a-fA-F]{130})$/
const parseSignature = (u: unknown): Either.Either<Hex, string> =>
  typeof u === "string" && HEX_SIGNATURE.test(u)
    ? Either.right(u.toLowerCase() as Hex)
    : Either.left(`must be the permit's signature as hex: 65 bytes (r, s, v) or 64 (EIP-2098), got ${describeValue(u)}`)

// the permit's value and deadline are uint256 like amounts: digits, or a JSON number up to 2^53
const permitFields = {
  value: fieldOf(Schema.BigIntFromSelf, parseAmount, {
    description: "the permit message's value as signed (at least what the transaction takes: amountIn, or maxAmountIn for exact output): a string of digits, or a JSON number up to 2^53",
    oneOf: [{ type: "string", pattern: "^[0-9]{1,78}$" }, { type: "integer", minimum: 1, maximum: 2 ** 53 }],
  }),
  deadline: fieldOf(Schema.BigIntFromSelf, parseAmount, {
    description: "the permit message's deadline as signed, Unix seconds, in the future: a string of digits, or a JSON number up to 2^53",
    oneOf: [{ type: "string", pattern: "^[0-9]{1,78}$" }, { type: "integer", minimum: 1, maximum: 2 ** 53 }],
  }),
  signature: fieldOf(Schema.String as unknown as Schema.Schema<Hex>, parseSignature, {
    type: "string",
    pattern: HEX_SIGNATURE.source,
    description: "the sender's EIP-712 signature of the Permit (owner = sender, spender = the route executor, the token's current nonce): 65 bytes, or 64 (EIP-2098), hex",
  }),
}
const PermitField = Schema.Struct(permitFields).annotations({
  identifier: "PermitSignature",
  description: "the sender's EIP-2612 permit for the route executor instead of an approval (ERC-20 tokenIn that implements EIP-2612): sign /swap's permit.typedData, then send its value and deadline with the signature",
})
const decodePermitField = Schema.decodeUnknownEither(PermitField, { errors: "all", onExcessProperty: "error" })
/** A permit object whose every field is valid; the schema names the first problem otherwise. */
const parsePermit = (u: unknown): Either.Either<PermitSignature, string> =>
  Either.mapLeft(decodePermitField(u), () => "invalid permit")

const QUOTE_ID = /^[A-Za-z0-9_-]{1,512}$/
const parseQuoteId = (u: unknown): Either.Either<string, string> =>
  typeof u === "string" && QUOTE_ID.test(u) ? Either.right(u) : Either.left(`must be a quoteId returned by POST /quote, got ${describeValue(u)}`)

export const quoteFields = {
  tokenIn: addressField("the token sold: an ERC-20, or native USDC as 0x0000…0000 or 0xEeee…EEeE"),
  tokenOut: addressField("the token bought: an ERC-20, or native USDC as 0x0000…0000 or 0xEeee…EEeE"),
  amountIn: Schema.optional(amountField("exact input: the amount of tokenIn sold, in its smallest unit; exactly one of amountIn and amountOut")),
  amountOut: Schema.optional(amountField("exact output: what the recipient must receive after every fee, in tokenOut's smallest unit (native USDC: 18 decimals); exactly one of amountIn and amountOut")),
  feeBps: Schema.optional(fieldOf(Schema.Number, parseFeeBps, { type: "integer", minimum: 0, maximum: 100, description: "partner fee in basis points of the output; 0 when not sent" })),
  feeRecipient: Schema.optional(addressField("receives the partner fee; required when feeBps > 0")),
  slippageBps: Schema.optional(fieldOf(Schema.Number, parseSlippageBps, { type: "integer", minimum: 0, maximum: 2000, description: "tolerance below amountOut for minAmountOut; 50 when not sent" })),
  chainId: Schema.optional(ChainIdField),
  includeSources: Schema.optional(sourceNamesField("only these sources (venue or aggregator names, see POST /sources) may be used")),
  excludeSources: Schema.optional(sourceNamesField("these sources (venue or aggregator names, see POST /sources) are not used")),
}

/** The body of POST /quote, field by field (joint rules are checked by decodeQuoteRequest). */
export const QuoteBody = Schema.Struct(quoteFields)
const partyFields = {
  sender: addressField("sends the transaction and pays amountIn"),
  recipient: Schema.optional(addressField("receives amountOut; the sender when not sent")),
  deadline: Schema.optional(DeadlineField),
}

/** The body of POST /gasless/quote, field by field (joint rules are checked by decodeGaslessQuoteRequest). */
export const GaslessQuoteBody = Schema.Struct({
  ...quoteFields,
  tokenIn: addressField("the token sold: an ERC-20 (native USDC cannot be signed over: use the ERC-20 USDC 0x3600…0000)"),
  sender: addressField("signs the order and pays its input (no transaction, no gas)"),
  recipient: Schema.optional(addressField("receives amountOut; the sender when not sent")),
  deadline: Schema.optional(fieldOf(Schema.Number, parseDeadline, {
    type: "integer",
    description: "Unix seconds after which the order cannot execute: in the future, at most one hour ahead; now + 20 minutes when not sent",
  })),
})

/** The body of POST /swap, field by field (joint rules are checked by decodeSwapRequest). */
export const SwapBody = Schema.Struct({
  ...quoteFields,
  ...partyFields,
  quoteId: Schema.optional(fieldOf(Schema.String, parseQuoteId, {
    type: "string",
    pattern: QUOTE_ID.source,
    description: "the quoteId of a /quote for the same tokens, amount and fee, at most 5 minutes old: the answer's priceChangeBps compares against it",
  })),
  permit: Schema.optional(PermitField),
})

const OPTIONAL = new Set(["amountIn", "amountOut", "feeBps", "feeRecipient", "slippageBps", "chainId", "includeSources", "excludeSources", "recipient", "deadline", "quoteId", "permit"])
/** the order fields are reported in when several are wrong: the spec's tables, then the later fields */
const FIELD_ORDER = ["tokenIn", "tokenOut", "amountIn", "amountOut", "feeBps", "feeRecipient", "slippageBps", "chainId", "sender", "recipient", "deadline", "includeSources", "excludeSources", "quoteId", "permit"]

const parseOptions = { errors: "all", onExcessProperty: "error" } as const

const decodeQuoteBody = Schema.decodeUnknownEither(QuoteBody, parseOptions)
const decodeSwapBody = Schema.decodeUnknownEither(SwapBody, parseOptions)
const decodeGaslessQuoteBody = Schema.decodeUnknownEither(GaslessQuoteBody, parseOptions)

type FieldParsers = Readonly<Record<string, (u: unknown) => Either.Either<unknown, string>>>

const quoteParsers: FieldParsers = {
  tokenIn: parseAddress,
  tokenOut: parseAddress,
  amountIn: parseAmount,
  amountOut: parseAmount,
  feeBps: parseFeeBps,
  feeRecipient: parseAddress,
  slippageBps: parseSlippageBps,
  chainId: parseChainId,
  includeSources: parseSourceNames,
  excludeSources: parseSourceNames,
}
const partyParsers: FieldParsers = { sender: parseAddress, recipient: parseAddress, deadline: parseDeadline }
const swapParsers: FieldParsers = { ...quoteParsers, ...partyParsers, quoteId: parseQuoteId, permit: parsePermit }
const gaslessQuoteParsers: FieldParsers = { ...quoteParsers, ...partyParsers }
const QUOTE_REQUIRED = ["tokenIn", "tokenOut"] as const
const SWAP_REQUIRED = [...QUOTE_REQUIRED, "sender"] as const

/**
 * The fields of a body every field of which is known and valid, by the same parsers the
 * schema runs (what the schema would give); undefined at the first unknown, invalid or
 * missing field, so that the schema finds and names the problem.
 */
const validFields = (body: Record<string, unknown>, parsers: FieldParsers, required: readonly string[]): Record<string, unknown> | undefined => {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(body)) {
    const parse = Object.hasOwn(parsers, key) ? parsers[key] : undefined
    if (parse === undefined) return undefined
    const value = body[key]
    // an optional field sent as null counts as not sent
    if (value === null && OPTIONAL.has(key)) continue
    const parsed = parse(value)
    if (Either.isLeft(parsed)) return undefined
    out[key] = parsed.right
  }
  for (const key of required) if (!Object.hasOwn(out, key)) return undefined
  return out
}

const decodeFields = <A>(
  decode: (u: unknown) => Either.Either<A, ParseResult.ParseError>,
  body: unknown,
  parsers: FieldParsers,
  required: readonly string[],
): Either.Either<A, InvalidRequest> => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Either.left(new InvalidRequest({ message: `body: must be a JSON object, got ${describeValue(body)}` }))
  }
  const valid = validFields(body as Record<string, unknown>, parsers, required)
  if (valid !== undefined) return Either.right(valid as A)
  // an optional field sent as null counts as not sent
  let input = body as Record<string, unknown>
  for (const key of OPTIONAL) {
    if (key in input && input[key] === null) {
      if (input === body) input = { ...input }
      delete input[key]
    }
  }
  return Either.mapLeft(decode(input), (error) => {
    const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
    const rank = (path: ReadonlyArray<PropertyKey>) => {
      const i = FIELD_ORDER.indexOf(String(path[0]))
      return i === -1 ? FIELD_ORDER.length : i
    }
    const first = [...issues].sort((a, b) => rank(a.path) - rank(b.path))[0]!
    const field = first.path.map(String).join(".") || "body"
    const message =
      first._tag === "Missing" ? `${field}: is required`
      : first._tag === "Unexpected" ? `${field}: unknown field`
      : `${field}: ${first.message}`
    return new InvalidRequest({ message })
  })
}

export interface RequestRules {
  /** the chain served: a request's chainId must be it */
  readonly chainId: ArcChainId
  /** the route executor (refused as fee recipient, sender and recipient) */
  readonly executor: Address
  /** now, in Unix seconds */
  readonly nowSeconds: number
  /** every source a request may name in includeSources / excludeSources: the venues and the aggregators */
  readonly sourceNames: ReadonlySet<string>
}

/** A swap request as the edge reads it: the program's request and the quoteId it was sent with, if any. */
export type SwapRequestWithQuote = SwapRequest & { readonly quoteId?: string }

const fail = (message: string) => Either.left(new InvalidRequest({ message }))
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

type QuoteFields = Schema.Schema.Type<typeof QuoteBody>

/** Why an address cannot send or receive a swap (zero address, route executor, native placeholder), or undefined. */
export const partyProblem = (address: string, executor: string): string | undefined =>
  same(address, NATIVE_ZERO_PLACEHOLDER) ? "cannot be the zero address"
  : same(address, executor) ? "cannot be the route executor"
  : same(address, NATIVE_EEEE_PLACEHOLDER) ? "cannot be the native-token placeholder 0xEeee…EEeE"
  : undefined

const quoteFromFields = (f: QuoteFields, rules: RequestRules): Either.Either<QuoteRequest, InvalidRequest> => {
  // a request for another chain is wrong before anything else in it
  if (f.chainId !== undefined && f.chainId !== rules.chainId) {
    return fail(`chainId: this service serves chain ${describeArcChain(rules.chainId)}, the request names ${f.chainId}`)
  }
  if (isUsdc(f.tokenIn) && isUsdc(f.tokenOut)) {
    return fail("tokenOut: USDC to USDC is nothing to swap (native and ERC-20 USDC are one balance)")
  }
  if (same(f.tokenIn, f.tokenOut)) return fail("tokenOut: must differ from tokenIn")
  if (f.amountIn !== undefined && f.amountOut !== undefined) {
    return fail("amountOut: send either amountIn (exact input) or amountOut (exact output), not both")
  }
  if (f.amountIn === undefined && f.amountOut === undefined) {
    return fail("amountIn: is required (or amountOut, for an exact output)")
  }
  const feeBps = f.feeBps ?? 0
  if (f.feeRecipient !== undefined) {
    const recipientProblem = partyProblem(f.feeRecipient, rules.executor)
    if (recipientProblem !== undefined) return fail(`feeRecipient: ${recipientProblem}`)
  } else if (feeBps > 0) {
    return fail("feeRecipient: is required when feeBps is greater than 0")
  }
  const allowed = allowedSources(f, rules.sourceNames)
  if (typeof allowed === "string") return fail(allowed)
  const request: QuoteRequest = {
    chainId: rules.chainId,
    tokenIn: f.tokenIn,
    tokenOut: f.tokenOut,
    ...(f.amountIn !== undefined ? { tradeType: "exactInput" as const, amountIn: f.amountIn } : { tradeType: "exactOutput" as const, amountOut: f.amountOut! }),
    feeBps,
    feeRecipient: feeBps > 0 ? f.feeRecipient! : null,
    slippageBps: f.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
  }
  return Either.right(allowed === undefined ? request : { ...request, allowedSources: allowed })
}

/** The sources a request leaves the router (undefined: all of them), or what is wrong with its names. */
const allowedSources = (f: QuoteFields, known: ReadonlySet<string>): ReadonlySet<string> | undefined | string => {
  if (f.includeSources === undefined && f.excludeSources === undefined) return undefined
  const list = () => [...known].join(", ")
  for (const field of ["includeSources", "excludeSources"] as const) {
    for (const name of f[field] ?? []) if (!known.has(name)) return `${field}: no source is named ${name} (the sources: ${list()})`
  }
  const included = f.includeSources === undefined ? known : new Set(f.includeSources)
  const excluded = new Set(f.excludeSources ?? [])
  for (const name of excluded) if (f.includeSources?.includes(name)) return `excludeSources: names ${name}, which includeSources names too`
  const allowed = new Set([...included].filter((name) => !excluded.has(name)))
  if (allowed.size === 0) return "excludeSources: leaves no source to route with"
  return allowed
}

/** A POST /quote body → QuoteRequest, or the first problem, naming its field. */
export const decodeQuoteRequest = (body: unknown, rules: RequestRules): Either.Either<QuoteRequest, InvalidRequest> =>
  Either.flatMap(decodeFields(decodeQuoteBody, body, quoteParsers, QUOTE_REQUIRED), (f) => quoteFromFields(f, rules))

type PartyFields = { readonly sender: Address; readonly recipient?: Address | undefined; readonly deadline?: number | undefined }

/** The sender, the recipient (the sender when not sent) and the deadline (now + 20 minutes when not sent), or the first problem. */
const partiesFromFields = (f: PartyFields, rules: RequestRules): Either.Either<{ readonly sender: Address; readonly recipient: Address; readonly deadline: number }, InvalidRequest> => {
  // the sender first (table order): a recipient not sent is the sender, so it is checked with it
  const senderProblem = partyProblem(f.sender, rules.executor)
  if (senderProblem !== undefined) return fail(`sender: ${senderProblem}`)
  const recipient = f.recipient ?? f.sender
  const recipientProblem = partyProblem(recipient, rules.executor)
  if (recipientProblem !== undefined) return fail(`recipient: ${recipientProblem}`)
  const deadline = f.deadline ?? rules.nowSeconds + DEFAULT_DEADLINE_SECONDS
  if (deadline <= rules.nowSeconds) return fail(`deadline: must be in the future (now is ${rules.nowSeconds})`)
  if (deadline > rules.nowSeconds + MAX_DEADLINE_SECONDS) return fail(`deadline: must be at most one hour ahead (at most ${rules.nowSeconds + MAX_DEADLINE_SECONDS})`)
  return Either.right({ sender: f.sender, recipient, deadline })
}

/** A POST /gasless/quote body → GaslessQuoteRequest, or the first problem, naming its field. */
export const decodeGaslessQuoteRequest = (body: unknown, rules: RequestRules): Either.Either<GaslessQuoteRequest, InvalidRequest> =>
  Either.flatMap(decodeFields(decodeGaslessQuoteBody, body, gaslessQuoteParsers, SWAP_REQUIRED), (f) => {
    if (isNativePlaceholder(f.tokenIn)) {
      return fail("tokenIn: a gasless order takes an ERC-20 input; native USDC cannot be signed over: use the ERC-20 USDC 0x3600000000000000000000000000000000000000 (the same balance)")
    }
    return Either.flatMap(quoteFromFields(f, rules), (quote) => Either.map(partiesFromFields(f, rules), (parties): GaslessQuoteRequest => ({ ...quote, ...parties })))
  })

/** A POST /swap body → SwapRequest (with the quoteId sent), or the first problem, naming its field. */
export const decodeSwapRequest = (body: unknown, rules: RequestRules): Either.Either<SwapRequestWithQuote, InvalidRequest> =>
  Either.flatMap(decodeFields(decodeSwapBody, body, swapParsers, SWAP_REQUIRED), (f) =>
    Either.flatMap(Either.flatMap(quoteFromFields(f, rules), (quote) => Either.map(partiesFromFields(f, rules), (parties) => ({ quote, parties }))), ({ quote, parties }): Either.Either<SwapRequestWithQuote, InvalidRequest> => {
      const { recipient, deadline } = parties
      if (f.permit !== undefined) {
        if (isNativePlaceholder(f.tokenIn)) {
          return fail("permit: native USDC input is paid with tx.value and takes no permit (a permit is for an ERC-20 tokenIn, such as the ERC-20 USDC 0x3600…0000)")
        }
        if (f.permit.deadline <= BigInt(rules.nowSeconds)) return fail(`permit.deadline: ${f.permit.deadline} has passed (now is ${rules.nowSeconds}); sign a new permit`)
      }
      const swap: SwapRequest = { ...quote, sender: f.sender, recipient, deadline, ...(f.permit !== undefined ? { permit: f.permit } : {}) }
      return Either.right(f.quoteId === undefined ? swap : { ...swap, quoteId: f.quoteId })
    }))

/** The body of POST /sources and POST /tokens: an empty object (a field there is a mistake worth naming). */
export const decodeEmptyBody = (body: unknown): Either.Either<Record<string, never>, InvalidRequest> => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Either.left(new InvalidRequest({ message: `body: must be a JSON object, got ${describeValue(body)}` }))
  }
  const first = Object.keys(body)[0]
  return first === undefined ? Either.right({}) : Either.left(new InvalidRequest({ message: `${first}: unknown field (send {})` }))
}
