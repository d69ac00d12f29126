// The relayer of gasless swaps (api-1.2 section 3): the account it sends from
// (RELAYER_PRIVATE_KEY, kept redacted) and its margin over the gas it pays
// (RELAYER_FEE_MARGIN_BPS). Without a key, gasless swaps are off.
import { Config, ConfigError, Either, Option, Redacted } from "effect"
import type { Hex } from "viem"
import { integerIn } from "./values.ts"

/** RELAYER_FEE_MARGIN_BPS when unset: the relayer fee is the gas it pays plus 20% */
export const DEFAULT_RELAYER_FEE_MARGIN_BPS = 2_000

export interface RelayerSettings {
  /** 0x and 64 hex digits; never printed */
  readonly privateKey: Redacted.Redacted<Hex>
  /** the relayer fee = the gas of the relayed transaction × (10000 + this) / 10000, in tokenOut */
  readonly feeMarginBps: number
}

/** secp256k1's group order: a private key is an integer from 1 to n − 1. */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n

/** Why the text is not a private key (the message never repeats the key), or the key. */
export const parsePrivateKey = (text: string): Either.Either<Redacted.Redacted<Hex>, string> => {
  const key = text.trim()
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) return Either.left(`must be 0x followed by 64 hex digits (a secp256k1 private key), got ${key.length} characters`)
  const n = BigInt(key)
  if (n === 0n || n >= CURVE_ORDER) return Either.left("is not a valid secp256k1 private key (0, or not below the curve order)")
  return Either.right(Redacted.make(key.toLowerCase() as Hex))
}

const privateKey: Config.Config<Option.Option<Redacted.Redacted<Hex>>> = Config.option(Config.string("RELAYER_PRIVATE_KEY")).pipe(
  Config.mapOrFail((text) =>
    Option.match(text, {
      // unset or blank: no relayer
      onNone: () => Either.right(Option.none()),
      onSome: (t) => (t.trim() === "" ? Either.right(Option.none()) : Either.map(Either.mapLeft(parsePrivateKey(t), (m) => ConfigError.InvalidData(["RELAYER_PRIVATE_KEY"], m)), Option.some)),
    })),
)

/** The relayer's settings; undefined (gasless swaps off) when RELAYER_PRIVATE_KEY is unset. */
export const relayerConfig: Config.Config<RelayerSettings | undefined> = Config.all({
  privateKey,
  feeMarginBps: integerIn("RELAYER_FEE_MARGIN_BPS", DEFAULT_RELAYER_FEE_MARGIN_BPS, 0, 10_000),
}).pipe(Config.map(({ privateKey, feeMarginBps }) => Option.match(privateKey, { onNone: () => undefined, onSome: (key) => ({ privateKey: key, feeMarginBps }) })))
