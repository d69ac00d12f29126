// Test-only helpers for the AMM tests.

/** Integer square root (floor) of n >= 0. */
export const isqrt = (n: bigint): bigint => {
  if (n < 0n) throw new Error("isqrt of negative")
  if (n < 2n) return n
  // Newton's iteration from a start above the root decreases monotonically to floor(sqrt(n))
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2))
  for (;;) {
    const y = (x + n / x) >> 1n
    if (y >= x) break
    x = y
  }
  return x
}

const SCALE = 10n ** 40n
const roundHalfUpDiv = (n: bigint, d: bigint): bigint => {
  const q = n / d
  return (n % d) * 2n >= d ? q + 1n : q
}

/**
 * The sqrt price Uniswap's own test suites use (`encodePriceSqrt(reserve1,
 * reserve0)` in v3-core/v3-periphery test/shared): bignumber.js with 40
 * decimal places and ROUND_HALF_UP for the division and the square root, then
 * times 2^96 and floored. Reproduced exactly so that the inputs of their test
 * vectors are bit-identical.
 */
export const encodePriceSqrt = (reserve1: bigint | number, reserve0: bigint | number): bigint => {
  const r1 = BigInt(reserve1)
  const r0 = BigInt(reserve0)
  const ratio = roundHalfUpDiv(r1 * SCALE, r0) // ratio * 10^40
  const radicand = ratio * SCALE // (ratio * 10^40)^... : sqrt(ratio/10^40) * 10^40 = sqrt(ratio * 10^40)
  const f = isqrt(radicand)
  const root = radicand - f * f > f ? f + 1n : f // sqrt rounded half up at 40 decimals
  return (root << 96n) / SCALE
}

export const expandTo18Decimals = (n: number | bigint): bigint => BigInt(n) * 10n ** 18n

/** Expect `f` to throw an AmmRevert with the given code. */
export const revertCode = (f: () => unknown): string | undefined => {
  try {
    f()
  } catch (e) {
    if (e instanceof Error && e.name === "AmmRevert") return (e as Error & { code: string }).code
    throw e
  }
  return undefined
}

/**
 * decimal.js `new Decimal(sqrtPriceX96).div(2^96).pow(2).toPrecision(sd)` with
 * its default ROUND_HALF_UP and Uniswap's `toExpNeg: -500` setting: the price
 * format of v3-core's swap test snapshots (test/shared/format.ts formatPrice).
 */
export const formatPrice = (sqrtPriceX96: bigint, sd = 5): string => {
  const num = sqrtPriceX96 * sqrtPriceX96
  const den = 1n << 192n
  if (num === 0n) return (0).toPrecision(sd)
  // find e with 10^e <= num/den < 10^(e+1)
  let e = num.toString().length - den.toString().length
  const ge = (a: bigint, b: bigint, k: number) => (k >= 0 ? a >= b * 10n ** BigInt(k) : a * 10n ** BigInt(-k) >= b)
  while (!ge(num, den, e)) e--
  while (ge(num, den, e + 1)) e++
  // digits = round_half_up(num/den * 10^(sd-1-e))
  const shift = sd - 1 - e
  const n = shift >= 0 ? num * 10n ** BigInt(shift) : num
  const d = shift >= 0 ? den : den * 10n ** BigInt(-shift)
  let digits = n / d
  if ((n % d) * 2n >= d) digits++
  if (digits.toString().length > sd) {
    digits /= 10n
    e++
  }
  const s = digits.toString()
  if (sd <= e || e <= -500) {
    const mant = s.length > 1 ? `${s[0]}.${s.slice(1)}` : s
    return `${mant}e${e >= 0 ? "+" : "-"}${Math.abs(e)}`
  }
  if (e >= 0) return `${s.slice(0, e + 1)}${e + 1 < s.length ? "." + s.slice(e + 1) : ""}`
  return `0.${"0".repeat(-e - 1)}${s}`
}
