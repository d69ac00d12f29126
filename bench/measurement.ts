// One row of the benchmark table, and the CPU a process has used.
import { readFileSync } from "node:fs"

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

/** clock ticks per second in /proc/<pid>/stat (USER_HZ: 100 on Linux) */
const CLOCK_TICKS = 100

/** CPU time (user + system, every thread) process `pid` has used, in ms; 0 where /proc cannot be read. */
export const processCpuMs = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
  } catch {
    return 0
  }
}
