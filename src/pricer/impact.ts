// Price impact and gas in the output token, from USD reference prices. Pure
// bigint arithmetic: no Effect, no I/O.
import type { UsdPrice } from "../domain/index.ts"

// decimals of tokens and feeds: 0 to 36 cover every real case; computed once (a bigint power per quote shows in profiles)
const POW10: readonly bigint[] = Array.from({ length: 37 }, (_, i) => 10n ** BigInt(i))
const pow10 = (n: number): bigint => POW10[n] ?? 10n ** BigInt(n)

/** Rounds num/den to the nearest integer, halves away from zero. */
const roundDiv = (num: bigint, den: bigint): bigint => {
  const negative = num < 0n !== den < 0n
  const n = num < 0n ? -num : num
  const d = den < 0n ? -den : den
  const q = (2n * n + d) / (2n * d)
  return negative ? -q : q
}

/**
 * What `amountIn` of tokenIn is worth in tokenOut's smallest unit at the
 * reference prices: amountIn × priceIn / priceOut, scaled by the decimals.
 * Numerator and denominator, to keep the division for last.
 */
const referenceOut = (
  amountIn: bigint,
  decimalsIn: number,
  priceIn: UsdPrice,
  decimalsOut: number,
  priceOut: UsdPrice,
): { num: bigint; den: bigint } => ({
  num: amountIn * priceIn.answer * pow10(priceOut.decimals) * pow10(decimalsOut),
  den: priceOut.answer * pow10(priceIn.decimals) * pow10(decimalsIn),
})

/**
 * Route output against the reference prices, in signed basis points:
 * (reference − gross) / reference × 10000, rounded to the nearest; negative
 * when the route beats the reference. null without both prices.
 */
export const priceImpactBps = (params: {
  readonly amountIn: bigint
  readonly decimalsIn: number
  readonly priceIn: UsdPrice | undefined
  readonly grossAmountOut: bigint
  readonly decimalsOut: number
  readonly priceOut: UsdPrice | undefined
}): number | null => {
  const { priceIn, priceOut } = params
  if (priceIn === undefined || priceOut === undefined) return null
  const ref = referenceOut(params.amountIn, params.decimalsIn, priceIn, params.decimalsOut, priceOut)
  if (ref.num === 0n) return null
  // (ref − gross)/ref = (num − gross·den)/num
  const bps = roundDiv((ref.num - params.grossAmountOut * ref.den) * 10_000n, ref.num)
  return Number(bps)
}

/** Native USDC (18 decimals) worth of gas in a token's smallest unit, rounded down; undefined without prices. */
export const nativeToToken = (params: {
  readonly wei: bigint
  readonly nativePrice: UsdPrice | undefined
  readonly decimalsOut: number
  readonly priceOut: UsdPrice | undefined
}): bigint | undefined => {
  if (params.nativePrice === undefined || params.priceOut === undefined) return undefined
  const ref = referenceOut(params.wei, 18, params.nativePrice, params.decimalsOut, params.priceOut)
  return ref.num / ref.den
}
