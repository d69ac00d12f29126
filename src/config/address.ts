// An address as settings give it: all-lowercase or correctly checksummed,
// kept in its checksummed form.
import { Either, Schema } from "effect"
import { getAddress, isAddress, type Address as ViemAddress } from "viem"

export type Address = ViemAddress

const NOT_AN_ADDRESS = "is not an address (all-lowercase or correctly checksummed)"

/** The checksummed address, or why the text is not one. */
export const parseAddress = (text: string): Either.Either<Address, string> =>
  isAddress(text, { strict: true }) ? Either.right(getAddress(text)) : Either.left(`${NOT_AN_ADDRESS}: ${text}`)

/** An address in JSON settings, decoded to its checksummed form. */
export const AddressFromString: Schema.Schema<Address, string> = Schema.transform(
  Schema.String.annotations({ message: () => "must be an address string" }).pipe(Schema.filter((text) => isAddress(text, { strict: true }) || `${NOT_AN_ADDRESS}: ${text}`)),
  Schema.TemplateLiteral("0x", Schema.String),
  { strict: true, decode: (text) => getAddress(text), encode: (address) => address },
)
