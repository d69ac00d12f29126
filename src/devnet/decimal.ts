// Decimal strings of the scenario ("2500.5") as exact integers and rationals.

/** A positive rational num/den, both bigint. */
export interface Rational {
  readonly num: bigint
  readonly den: bigint
}

/** "2500.5" → 25005/10. The string is already checked to be digits with one optional point. */
export const parseRational = (text: string): Rational => {
  const [whole = "0", fraction = ""] = text.split(".")
  return { num: BigInt(whole + fraction), den: 10n ** BigInt(fraction.length) }
}

/** Whole-token decimal → smallest units; undefined when it has more fractional digits than the token. */
export const parseUnitsExact = (text: string, decimals: number): bigint | undefined => {
  const [whole = "0", fraction = ""] = text.split(".")
  const trimmed = fraction.replace(/0+$/, "")
  if (trimmed.length > decimals) return undefined
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(trimmed.padEnd(decimals, "0") || "0")
}

/** floor(sqrt(n)) for n ≥ 0, by Newton's method on bigints. */
export const isqrt = (n: bigint): bigint => {
  if (n < 0n) throw new RangeError("square root of a negative number")
  if (n < 2n) return n
  let x = 1n << BigInt((n.toString(2).length + 1) >> 1)
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x) return x
    x = y
  }
}
