// The executor's router allowlist as sources see it: isRouterAllowed(router)
// read from the chain once and kept for a while, so a quote does not wait on
// the node for a router it has seen. A router dropped from the allowlist in the
// meantime is still caught: the executor refuses it in the simulation.
import { Clock, Effect } from "effect"
import { decodeFunctionResult, encodeFunctionData, parseAbi, type Address } from "viem"
import type { RpcService } from "../chain/rpc.ts"
import { RouterCheckFailed } from "./external.ts"

const ALLOWLIST_ABI = parseAbi(["function isRouterAllowed(address router) view returns (bool)"])
/** How long one reading of the allowlist is trusted. */
export const ALLOWLIST_TTL_MS = 30_000

export const makeRouterAllowlist = (rpc: RpcService, executor: Address, ttlMs = ALLOWLIST_TTL_MS) => {
  const known = new Map<string, { readonly allowed: boolean; readonly at: number }>()
  return (router: Address): Effect.Effect<boolean, RouterCheckFailed> =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const hit = known.get(router.toLowerCase())
      if (hit !== undefined && now - hit.at < ttlMs) return hit.allowed
      const data = yield* rpc
        .call({ to: executor, data: encodeFunctionData({ abi: ALLOWLIST_ABI, functionName: "isRouterAllowed", args: [router] }) })
        .pipe(Effect.mapError((e) => new RouterCheckFailed({ message: e.message })))
      const allowed = decodeFunctionResult({ abi: ALLOWLIST_ABI, functionName: "isRouterAllowed", data })
      known.set(router.toLowerCase(), { allowed, at: now })
      return allowed
    })
}
