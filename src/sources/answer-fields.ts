// The fields of an aggregator's answer as Schemas (amounts, addresses,
// calldata), and the step from an answer that does not decode to the
// "invalid-answer" SourceError naming the field: "<field> <what is wrong>".
import { Effect, Either, ParseResult, Schema } from "effect"
import { getAddress, isAddress, type Address, type Hex } from "viem"
import { invalidAnswer } from "./external.ts"
import type { SourceError } from "./source.ts"

const MAX_CALLDATA_BYTES = 0xff_ffff
const MAX_UINT256 = (1n << 256n) - 1n

/** The start of a wrong value, for a message. */
const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 80)

/** A whole-number string within uint256, as a bigint (amounts are never JSON numbers: they lose precision). */
export const Amount = Schema.String.pipe(Schema.pattern(/^\d{1,78}$/), Schema.compose(Schema.BigInt), Schema.lessThanOrEqualToBigInt(MAX_UINT256)).annotations({
  message: (issue) => ({ message: `is not a whole-number string: ${shown(issue.actual)}`, override: true }),
})

/** An amount that may be absent or null. */
export const OptionalAmount = Schema.optionalWith(Amount, { nullable: true })

/** An address in any case, checksummed. */
export const ChecksummedAddress = Schema.transform(
  Schema.String.pipe(Schema.filter((text) => isAddress(text, { strict: false }))),
  Schema.TemplateLiteral("0x", Schema.String),
  { strict: true, decode: (text): Address => getAddress(text), encode: (address) => address },
).annotations({ message: (issue) => ({ message: `is not an address: ${shown(issue.actual)}`, override: true }) })

/** Hex bytes that start with a selector, lowercased. */
export const Calldata = Schema.transform(
  Schema.String.pipe(Schema.pattern(/^0x([0-9a-fA-F]{2}){4,}$/), Schema.maxLength(2 + 2 * MAX_CALLDATA_BYTES)),
  Schema.TemplateLiteral("0x", Schema.String),
  { strict: true, decode: (text): Hex => text.toLowerCase() as Hex, encode: (data) => data },
).annotations({ message: () => ({ message: `is not calldata (hex bytes with a selector, at most ${MAX_CALLDATA_BYTES} bytes)`, override: true }) })

/** The first thing wrong with a value, in the schema's own words. */
const firstIssue = (error: ParseResult.ParseError) => ParseResult.ArrayFormatter.formatErrorSync(error)[0]

/** A field that must be present: a missing one is refused in the words for a wrong one (as the value undefined). */
export const required = <A, I>(schema: Schema.Schema<A, I>) => {
  const missing = Either.match(Schema.decodeUnknownEither(schema)(undefined), { onLeft: (e) => firstIssue(e)?.message ?? "is missing", onRight: () => "is missing" })
  return Schema.propertySignature(schema).annotations({ missingMessage: () => missing })
}

/** Any JSON object (not an array, not null). */
export const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/**
 * A JSON object with these fields; anything but an object "is missing" (`message` replaces those
 * words: a Struct alone would name its own shape). The object is taken as a whole first, then the
 * Struct reads the fields (not strict: a Record's type is wider than the Struct's encoded side).
 */
export const ObjectWith = <Fields extends Schema.Struct.Fields>(fields: Fields, message = "is missing") =>
  Schema.compose(JsonObject.annotations({ message: () => message }), Schema.Struct(fields), { strict: false })

/**
 * Decodes an aggregator's answer; the first thing wrong with it becomes an invalid answer whose
 * message starts with the field (`label` turns the field's path, "a.b", into the name the
 * message uses; the whole answer's path is "", and its message stands alone).
 */
export const decodeAnswer = <A, I>(source: string, schema: Schema.Schema<A, I>, label: (path: string) => string = (path) => path) => {
  const decode = Schema.decodeUnknown(schema)
  return (input: unknown): Effect.Effect<A, SourceError> =>
    Effect.mapError(decode(input), (error) => {
      const issue = firstIssue(error)
      const path = label((issue?.path ?? []).join("."))
      const message = issue?.message ?? "the answer could not be read"
      return invalidAnswer(source, path === "" ? message : `${path} ${message}`)
    })
}
