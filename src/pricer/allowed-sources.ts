// A World narrowed to the venues a request allows (includeSources /
// excludeSources): the same block, fee and prices, only those venues' pools.
// Kept per World and set of venues, so the requests of one block that name the
// same sources share one narrowed World (and its routing index).
import type { World } from "../market/index.ts"

const narrowed = new WeakMap<World, Map<string, World>>()
const MAX_PER_WORLD = 64

/** `world` with only the pools of the allowed venues; the World itself when every venue of its pools is allowed. */
export const worldOfSources = (world: World, allowed: ReadonlySet<string>): World => {
  let kept = false
  let dropped = false
  for (const pool of world.pools.values()) {
    if (allowed.has(pool.venue)) kept = true
    else dropped = true
    if (kept && dropped) break
  }
  if (!dropped) return world
  const key = [...allowed].sort().join(",")
  let byKey = narrowed.get(world)
  const known = byKey?.get(key)
  if (known !== undefined) return known
  const pools = new Map([...world.pools].filter(([, pool]) => allowed.has(pool.venue)))
  const poolsByToken = new Map<string, string[]>()
  for (const [token, ids] of world.poolsByToken) {
    const left = ids.filter((id) => pools.has(id))
    if (left.length > 0) poolsByToken.set(token, left)
  }
  const { refreshed: _, ...rest } = world
  const out: World = { ...rest, pools, poolsByToken }
  if (byKey === undefined) {
    byKey = new Map()
    narrowed.set(world, byKey)
  }
  if (byKey.size >= MAX_PER_WORLD) byKey.clear()
  byKey.set(key, out)
  return out
}
