// A touched pool's state from what its logs said, without a read: a pair's
// reserves from its last Sync, a concentrated pool's price, tick and liquidity
// from its last Swap, and a stable pool's balances by running each exchange
// again through the pool's own math on the balances before it, taken only when
// the math pays exactly what the log says the pool paid. The last holds for a
// pool that keeps every fee in its balances (admin_fee() 0) and whose A and fee
// did not move; any other pool, or a log the math does not reproduce to the
// unit, is read at the head instead.
import { AmmRevert, stableExchange, type PoolState, type StablePoolState } from "../amm/index.ts"
import type { LoggedState } from "./log-decoding.ts"

type Exchange = Extract<LoggedState, { kind: "exchange" }>

/** The part of a pool's state its logs said: applied over the state before them. */
export type StateFromLogs =
  | Extract<LoggedState, { kind: "reserves" | "price" }>
  | { readonly kind: "balances"; readonly balances: readonly bigint[] }

/** The balances `pool` holds after `exchanges` (in block order), or undefined when the math does not reproduce one. */
export const balancesAfterExchanges = (pool: StablePoolState, exchanges: readonly Exchange[]): readonly bigint[] | undefined => {
  let balances = pool.balances
  for (const { sold, dx, bought, dy } of exchanges) {
    if (sold >= balances.length || bought >= balances.length) return undefined
    try {
      const out = stableExchange({ balances, rates: pool.rates, amp: pool.amp, fee: pool.fee }, sold, bought, dx)
      if (out.dy !== dy) return undefined
      balances = out.balances
    } catch (e) {
      if (e instanceof AmmRevert) return undefined
      throw e
    }
  }
  return balances
}

/**
 * What `said` (every log of the pool this step, in block order, each of which said something) leaves
 * of `previous`, or undefined when the pool must be read: `keepsFees` when a stable pool's admin fee
 * is 0 and its A steady.
 */
export const stateFromLogs = (previous: PoolState, said: readonly LoggedState[], keepsFees: boolean): StateFromLogs | undefined => {
  const last = said[said.length - 1]
  if (last === undefined) return undefined
  switch (previous.kind) {
    case "uniswap-v2":
      return last.kind === "reserves" ? last : undefined
    case "uniswap-v3":
    case "uniswap-v4":
      return last.kind === "price" ? last : undefined
    case "curve-stableswap": {
      if (!keepsFees) return undefined
      const exchanges: Exchange[] = []
      for (const s of said) {
        if (s.kind !== "exchange") return undefined
        exchanges.push(s)
      }
      const balances = balancesAfterExchanges(previous, exchanges)
      return balances === undefined ? undefined : { kind: "balances", balances }
    }
  }
}
