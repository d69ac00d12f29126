// eth_getLogs over any range, within an endpoint's limits: the range is walked
// in windows, a few at a time. A window the endpoint refuses for its size
// ("block range too wide"), its result count ("more than 10000 results") or
// that times out is asked again in smaller windows: for a range refusal, the
// cap the endpoint states (or half), which becomes the ceiling the size never
// grows past again (the endpoint's cap, learned once for the service's life);
// otherwise halves, and the size halves for the rest of the walk. After a round of windows answered whole, the size
// doubles, up to the ceiling: sparse events (pool creations over months) are
// walked in few requests, dense ones (a busy block's swaps) in small windows.
import { Effect, Metric } from "effect"
import { RpcError, rpcLimits } from "./rpc-error.ts"

export interface LogRangeOptions {
  /** the first window of a walk, in blocks (default 10,000: a common public cap) */
  readonly initialBlocks?: number
  /** the largest window ever asked (default 500,000) */
  readonly maxBlocks?: number
  /** windows in flight at once (default 4) */
  readonly concurrency?: number
}

/**
 * The range cap an endpoint states in its refusal ("at most 10000 allowed", "max block range
 * 5000", "up to a 2K block range"): the largest number in the message below the refused size.
 */
export const statedRangeCap = (message: string, refused: bigint): bigint | undefined => {
  let best: bigint | undefined
  for (const match of message.matchAll(/(?<![0-9a-fA-Fx])(\d{1,3}(?:,\d{3})+|\d+)(\s?[kK]\b)?/g)) {
    const value = BigInt(match[1]!.replaceAll(",", "")) * (match[2] !== undefined ? 1_000n : 1n)
    if (value > 0n && value < refused && (best === undefined || value > best)) best = value
  }
  return best
}

/** What splitting a window is worth trying for: the endpoint refused it for its size, or gave up on it. */
const splittable = (e: RpcError): boolean => e.reason === "limit" || e.reason === "timeout"

export const makeLogWalker = (options: LogRangeOptions = {}) => {
  const initial = BigInt(options.initialBlocks ?? 10_000)
  const concurrency = options.concurrency ?? 4
  // the endpoint's range cap as learned: shared by every walk
  let ceiling = BigInt(options.maxBlocks ?? 500_000)
  const said = new Set<string>()

  const met = (e: RpcError, blocks: bigint) => {
    const limit = e.reason === "timeout" ? "log-timeout" : e.limit === "range" ? "log-range" : "log-results"
    const line = `Rpc: eth_getLogs over ${blocks} blocks refused (${e.message}); asking smaller ranges (counted in rpc_limits_total)`
    return Effect.zipRight(
      Metric.increment(Metric.tagged(rpcLimits, "limit", limit)),
      said.has(limit) ? Effect.logDebug(line) : Effect.zipRight(Effect.sync(() => said.add(limit)), Effect.logWarning(line)),
    )
  }

  /** Every log of every block from `from` to `to`, in block order: `fetch` asked for windows of the range. */
  return <L>(
    fetch: (fromBlock: bigint, toBlock: bigint) => Effect.Effect<readonly L[], RpcError>,
    from: bigint,
    to: bigint,
  ): Effect.Effect<L[], RpcError> => {
    if (to < from) return Effect.succeed([])
    let size = initial < ceiling ? initial : ceiling
    let whole = true

    // one window, split in halves for as long as the endpoint refuses it
    const window = (a: bigint, b: bigint): Effect.Effect<readonly L[], RpcError> =>
      fetch(a, b).pipe(
        Effect.catchIf(
          (e) => splittable(e) && b > a,
          (e) =>
            Effect.gen(function* () {
              const blocks = b - a + 1n
              whole = false
              yield* met(e, blocks)
              if (e.limit === "range") {
                // the stated cap, or half: kept for every later walk, and the window asked again in pieces of it
                const cap = statedRangeCap(e.message, blocks) ?? (blocks / 2n > 0n ? blocks / 2n : 1n)
                if (cap < ceiling) ceiling = cap
                if (ceiling < size) size = ceiling
                const pieces: [bigint, bigint][] = []
                for (let start = a; start <= b; start += ceiling) pieces.push([start, start + ceiling - 1n < b ? start + ceiling - 1n : b])
                const found = yield* Effect.forEach(pieces, ([x, y]) => window(x, y), { concurrency })
                return found.flat()
              }
              const half = blocks / 2n
              if (half < size) size = half > 0n ? half : 1n
              const mid = a + half - 1n
              const [left, right] = yield* Effect.all([window(a, mid), window(mid + 1n, b)], { concurrency: 2 })
              return [...left, ...right]
            }),
        ),
      )

    return Effect.gen(function* () {
      const logs: L[] = []
      let cursor = from
      while (cursor <= to) {
        const windows: [bigint, bigint][] = []
        for (let k = 0; k < concurrency && cursor <= to; k++) {
          const end = cursor + size - 1n < to ? cursor + size - 1n : to
          windows.push([cursor, end])
          cursor = end + 1n
        }
        whole = true
        const found = yield* Effect.forEach(windows, ([a, b]) => window(a, b), { concurrency })
        for (const part of found) logs.push(...part)
        if (whole && windows.length === concurrency) size = size * 2n < ceiling ? size * 2n : ceiling
      }
      return logs
    })
  }
}
