// The gas model of a route through the route executor. Every constant lives
// here. Base, per-split and per-hop figures are a least-squares fit to the gas
// of execute(...) simulated on the devnet for 120 routes of the default
// scenario (every pair of its six routable tokens at $10 to $200,000: one- and
// two-hop, one to four splits, V2/V3/V4): mean absolute error about 9k gas.
// The per-tick figures are estimates from the pools' code paths (tick storage
// update, bitmap reads); the fitted hop figures already hold the few crossings
// typical of those routes. The base was then lowered by 3,500: the executor keeps its first
// venues in code and knows Uniswap's init code hashes (bench/executor-gas.ts, 25 bps protocol
// fee: a single V3 hop 129,520 -> 125,981, 2 splits x 2 hops 332,574 -> 323,516). With no fee
// to take, each split's last pool pays the recipient directly (a single V3 hop 121,230 ->
// 109,210); the model leaves that as slack.
import type { PoolKind } from "../amm/index.ts"

export const GAS = {
  /** intrinsic transaction gas, executor entry and checks, pulling tokenIn, paying tokenOut and fees */
  base: 60_500,
  /** each split: share arithmetic, loop and route decoding */
  perSplit: 5_000,
  /** a V2 hop: transfer into the pair, swap (two balance reads, reserves write, transfer out) */
  v2Hop: 81_000,
  /** a V3 hop: pool call, callback payment, slot0 and liquidity writes */
  v3Hop: 88_000,
  /** each initialized tick a V3 swap crosses (tick storage update, bitmap reads) */
  v3TickCrossed: 24_000,
  /** a V4 hop inside the PoolManager (no token transfer per hop) */
  v4Hop: 63_000,
  /** each initialized tick a V4 swap crosses */
  v4TickCrossed: 18_000,
  /** once per route touching V4: unlock, settle and take */
  v4Session: 28_000,
  /** a stable-pool hop: the input into the executor, the approval, exchange (Newton iterations, two transfers); measured with bench/executor-gas.ts */
  stableHop: 115_000,
} as const

/** Gas of one hop through a pool of this kind crossing `ticksCrossed` initialized ticks. */
export const hopGas = (kind: PoolKind, ticksCrossed: number): number => {
  switch (kind) {
    case "uniswap-v2":
      return GAS.v2Hop
    case "uniswap-v3":
      return GAS.v3Hop + GAS.v3TickCrossed * ticksCrossed
    case "uniswap-v4":
      return GAS.v4Hop + GAS.v4TickCrossed * ticksCrossed
    case "curve-stableswap":
      return GAS.stableHop
  }
}

/**
 * Gas of a whole route: base + per split + per hop; `usesV4` adds the V4
 * session once. `hopsGas` is the sum of hopGas over every hop of every split.
 */
export const routeGas = (splitCount: number, hopsGas: number, usesV4: boolean): number =>
  GAS.base + GAS.perSplit * splitCount + hopsGas + (usesV4 ? GAS.v4Session : 0)
