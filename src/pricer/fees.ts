// The spec's fee arithmetic: both fees are taken from the route's gross output,
// each rounded down; minAmountOut is amountOut reduced by slippage, rounded down.
// Integers only (bigint amounts, integer basis points); no Effect, no I/O.

/** 100% in basis points. */
export const BPS = 10_000n

export interface FeeRates {
  /** protocol fee in basis points (the executor's live rate) */
  readonly protocolBps: number
  /** partner fee in basis points (the request's feeBps) */
  readonly partnerBps: number
}

export interface FeeSplit {
  readonly grossAmountOut: bigint
  /** floor(grossAmountOut × protocolBps / 10000) */
  readonly protocolAmount: bigint
  /** floor(grossAmountOut × partnerBps / 10000) */
  readonly partnerAmount: bigint
  /** grossAmountOut − protocolAmount − partnerAmount: what the recipient receives */
  readonly amountOut: bigint
}

const checkBps = (value: number, what: string): bigint => {
  if (!Number.isInteger(value) || value < 0 || value > 10_000) {
    throw new RangeError(`${what} must be an integer from 0 to 10000, got ${value}`)
  }
  return BigInt(value)
}

const checkAmount = (value: bigint, what: string): bigint => {
  if (value < 0n) throw new RangeError(`${what} must not be negative, got ${value}`)
  return value
}

/** floor(amount × bps / 10000) for amount ≥ 0 and 0 ≤ bps ≤ 10000. */
export const bpsOf = (amount: bigint, bps: number): bigint =>
  (checkAmount(amount, "amount") * checkBps(bps, "bps")) / BPS

/**
 * Splits a route's gross output into the protocol fee, the partner fee and what
 * the recipient receives. Throws RangeError for a negative amount, rates outside
 * 0-10000 or rates that add up to more than 10000.
 */
export const splitFees = (grossAmountOut: bigint, rates: FeeRates): FeeSplit => {
  checkAmount(grossAmountOut, "grossAmountOut")
  const protocolBps = checkBps(rates.protocolBps, "protocolBps")
  const partnerBps = checkBps(rates.partnerBps, "partnerBps")
  if (protocolBps + partnerBps > BPS) {
    throw new RangeError(`protocolBps + partnerBps must not exceed 10000, got ${protocolBps + partnerBps}`)
  }
  const protocolAmount = (grossAmountOut * protocolBps) / BPS
  const partnerAmount = (grossAmountOut * partnerBps) / BPS
  return { grossAmountOut, protocolAmount, partnerAmount, amountOut: grossAmountOut - protocolAmount - partnerAmount }
}

/** floor(amountOut × (10000 − slippageBps) / 10000): the least the recipient accepts. */
export const minAmountOut = (amountOut: bigint, slippageBps: number): bigint => {
  checkAmount(amountOut, "amountOut")
  return (amountOut * (BPS - checkBps(slippageBps, "slippageBps"))) / BPS
}

/** ceil(amountIn × (10000 + slippageBps) / 10000): the most an exact-output swap may take. */
export const maxAmountIn = (amountIn: bigint, slippageBps: number): bigint => {
  checkAmount(amountIn, "amountIn")
  return (amountIn * (BPS + checkBps(slippageBps, "slippageBps")) + BPS - 1n) / BPS
}

/**
 * The least gross output whose net (splitFees' amountOut) reaches `amountOut`: what an
 * exact-output route must deliver before fees. The net grows by at most one unit per unit of
 * gross, so the least gross that reaches amountOut gives it exactly. Throws RangeError when the
 * fees take everything (protocolBps + partnerBps = 10000) and amountOut is positive.
 */
export const grossForNet = (amountOut: bigint, rates: FeeRates): bigint => {
  checkAmount(amountOut, "amountOut")
  const kept = BPS - checkBps(rates.protocolBps, "protocolBps") - checkBps(rates.partnerBps, "partnerBps")
  if (kept < 0n) throw new RangeError(`protocolBps + partnerBps must not exceed 10000, got ${BPS - kept}`)
  if (amountOut === 0n) return 0n
  if (kept === 0n) throw new RangeError("the fees take the whole output: no gross amount has a positive net")
  // net(g) ≥ g·kept/BPS, so ceil(amountOut·BPS/kept) reaches it; each floor loses under one unit, so
  // net(g) < g·kept/BPS + 2 and no gross below (amountOut − 2)·BPS/kept does
  let gross = (amountOut * BPS + kept - 1n) / kept
  const floor = amountOut > 2n ? ((amountOut - 2n) * BPS) / kept : 0n
  for (let g = gross - 1n; g >= floor; g--) if (splitFees(g, rates).amountOut >= amountOut) gross = g
  return gross
}
