// Which discovered pools are published: a pool with an unroutable token (checked
// with Tokens.routability, the pool or its PoolManager as holder), hooks or a
// dynamic fee is excluded. A pool whose tokens could not be checked yet
// (no holder with a balance to probe with: "unverified") is excluded with
// `recheck`, and checked again when it is next touched.
import { Effect } from "effect"
import { zeroAddress, type Address } from "viem"
import type { Routability } from "../domain/index.ts"
import type { TokensService } from "../tokens/index.ts"
import { metaTokens, type Meta } from "./pool-meta.ts"

/** Why a discovered pool is not published; `recheck` pools are checked again when touched. */
export interface Exclusion {
  readonly reason: string
  readonly recheck: boolean
}

/** V4's flag for a dynamic-fee pool; such pools take their fee from hooks and are not routed. */
const DYNAMIC_FEE_FLAG = 0x800000

/**
 * Routability of each new pool, from its tokens (checked once per token, holders = the pools):
 * by pool key, the exclusion, or undefined for a pool to publish.
 */
export const classify = (tokens: TokensService, pools: readonly Meta[]) =>
  Effect.gen(function* () {
    const holders = new Map<string, Set<Address>>()
    for (const meta of pools) {
      const holder: Address = meta.kind === "uniswap-v4" ? meta.poolManager : meta.id
      for (const token of metaTokens(meta)) {
        const key = token.toLowerCase()
        const set = holders.get(key) ?? new Set<Address>()
        set.add(holder)
        holders.set(key, set)
      }
    }
    const answers = new Map<string, Routability>()
    yield* Effect.forEach(
      [...holders],
      ([token, set]) =>
        tokens
          .routability(token as Address, { holders: [...set] })
          .pipe(Effect.tap((answer) => Effect.sync(() => answers.set(token, answer)))),
      // every token's check asked at once, so that they are made together
      { concurrency: "unbounded", batching: true, discard: true },
    )
    const verdicts = new Map<string, Exclusion | undefined>()
    for (const meta of pools) {
      if (meta.kind === "uniswap-v4" && meta.hooks !== zeroAddress) {
        verdicts.set(meta.key, { reason: `hooked V4 pool (hooks ${meta.hooks})`, recheck: false })
        continue
      }
      if (meta.kind === "uniswap-v4" && (meta.fee & DYNAMIC_FEE_FLAG) !== 0) {
        verdicts.set(meta.key, { reason: "dynamic-fee V4 pool", recheck: false })
        continue
      }
      let verdict: Exclusion | undefined
      for (const token of metaTokens(meta)) {
        const answer = answers.get(token.toLowerCase())!
        if (!answer.routable) {
          verdict = { reason: `${token} is not routable: ${answer.reason} (${answer.detail})`, recheck: answer.reason === "unverified" }
          break
        }
      }
      verdicts.set(meta.key, verdict)
    }
    return verdicts
  })
