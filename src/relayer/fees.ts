// EIP-1559 fees of the relayer's transactions: the first from the head's base
// fee, a replacement above both the one it replaces (nodes want at least +10%
// on both fees; +12.5% here) and the current base fee. Pure bigint math.

export interface Fees {
  readonly maxFeePerGas: bigint
  readonly maxPriorityFeePerGas: bigint
}

/** The first send: `baseFeePercent` of the base fee (200: room for a few blocks of rising fees) plus the tip. */
export const initialFees = (baseFee: bigint, tip: bigint, baseFeePercent = 200): Fees => ({
  maxFeePerGas: (baseFee * BigInt(baseFeePercent)) / 100n + tip,
  maxPriorityFeePerGas: tip,
})

/** `x` raised by an eighth (12.5%), rounded up, and by at least one wei. */
export const bump = (x: bigint): bigint => {
  const eighth = (x + 7n) / 8n
  return x + (eighth > 0n ? eighth : 1n)
}

/** A replacement of a transaction priced `previous`: both fees +12.5% at least, the max fee at least twice the base fee plus the tip. */
export const replacementFees = (previous: Fees, baseFee: bigint, tip: bigint): Fees => {
  const bumpedTip = bump(previous.maxPriorityFeePerGas)
  const priority = bumpedTip > tip ? bumpedTip : tip
  const bumpedMax = bump(previous.maxFeePerGas)
  const floor = baseFee * 2n + priority
  return { maxFeePerGas: bumpedMax > floor ? bumpedMax : floor, maxPriorityFeePerGas: priority }
}
