// The JSON forms of the API's values, as Schemas between the typed value and
// what goes on the wire: amounts are decimal strings, addresses EIP-55
// checksummed, block numbers decimal strings. Each carries the JSON Schema the
// OpenAPI document shows for it.
import { ParseResult, Schema } from "effect"
import type { Address, Hex } from "viem"
import { checksum } from "../domain/index.ts"

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/
const DIGITS = /^[0-9]{1,78}$/
const SIGNED_DIGITS = /^-?[0-9]{1,78}$/

const addressSchema = (jsonSchema: Record<string, unknown>): Schema.Schema<Address, string> =>
  Schema.transformOrFail(Schema.String, Schema.String as unknown as Schema.Schema<Address>, {
    strict: true,
    decode: (s, _, ast) => (HEX_ADDRESS.test(s) ? ParseResult.succeed(checksum(s)) : ParseResult.fail(new ParseResult.Type(ast, s, "must be 0x followed by 40 hex digits"))),
    encode: (a) => ParseResult.succeed(checksum(a)),
  }).annotations({ jsonSchema: { type: "string", pattern: "^0x[0-9a-fA-F]{40}$", ...jsonSchema } })

/** An address: checksummed on the way out, any well-formed case on the way in. */
export const AddressJson = addressSchema({ description: "20-byte address, EIP-55 checksummed in answers" }).annotations({ identifier: "Address" })
/** The same, with what this address is. */
export const addressJson = (description: string) => addressSchema({ description })

const integerString = (pattern: RegExp, jsonPattern: string, description: string): Schema.Schema<bigint, string> =>
  Schema.transformOrFail(Schema.String, Schema.BigIntFromSelf, {
    strict: true,
    decode: (s, _, ast) => (pattern.test(s) ? ParseResult.succeed(BigInt(s)) : ParseResult.fail(new ParseResult.Type(ast, s, `must be ${description}`))),
    encode: (n) => ParseResult.succeed(n.toString()),
  }).annotations({ jsonSchema: { type: "string", pattern: jsonPattern, description } })

const AMOUNT = "a non-negative integer in the token's smallest unit, as a decimal string"
/** A non-negative integer amount in a token's smallest unit, as a decimal string. */
export const AmountJson = integerString(DIGITS, "^[0-9]{1,78}$", AMOUNT).annotations({ identifier: "Amount" })
/** The same, with what this amount is. */
export const amountJson = (description: string) => integerString(DIGITS, "^[0-9]{1,78}$", `${description} (${AMOUNT})`)

/** A block number, as a decimal string. */
export const blockNumberJson = (description: string) => integerString(DIGITS, "^[0-9]{1,78}$", `${description} (a decimal string)`)

/** A signed integer, as a decimal string. */
export const SignedAmountJson = integerString(SIGNED_DIGITS, "^-?[0-9]{1,78}$", "an integer, as a decimal string")

/** Hex data: 0x and an even number of hex digits. */
export const HexJson: Schema.Schema<Hex, string> = Schema.String.pipe(Schema.pattern(/^0x([0-9a-fA-F]{2})*$/)).annotations({
  identifier: "HexData",
  description: "hex data",
  jsonSchema: { type: "string", pattern: "^0x([0-9a-fA-F]{2})*$" },
}) as unknown as Schema.Schema<Hex, string>

/** A whole number within the given bounds. */
export const IntegerJson = (minimum: number, maximum: number, description: string) =>
  Schema.Number.pipe(Schema.int(), Schema.between(minimum, maximum)).annotations({ description })

/** The request id every response carries (also in X-Request-Id). */
export const RequestIdJson = Schema.String.annotations({ description: "the request's id, also in the X-Request-Id header; quote it to support" })
