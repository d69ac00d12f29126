// One row of the benchmark table.
export interface Measurement {
  readonly name: string
  readonly value: number
  readonly unit: string
  /** the target, as text ("< 10000") */
  readonly target?: string
  readonly met?: boolean
  readonly note?: string
}

/** p-th percentile (0-100) of a sample, nearest rank. */
export const percentile = (sample: readonly number[], p: number): number => {
  const sorted = [...sample].sort((a, b) => a - b)
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[rank] ?? Number.NaN
}
