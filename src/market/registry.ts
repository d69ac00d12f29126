// The route executor's registry as its owner's events build it: the external
// routers it allows (RouterAllowlistChanged), the venues it knows by id
// (VenueSet) and the stable pools it may call (StablePoolSet); and which of the
// configured venues a route may name: a Uniswap-kind venue whose contract the
// owner registered under the same kind (and, for V2, the same fee).
import type { MarketVenue } from "./market-config.ts"

/** The executor's venue kinds, as VenueSet records them. */
export const REGISTERED_KIND = { "uniswap-v2": 1, "uniswap-v3": 2, "uniswap-v4": 3 } as const

export interface RegisteredVenue {
  readonly kind: number
  /** lower-case factory, pool deployer or PoolManager */
  readonly factory: string
  readonly feeBps: number
}

export interface Registry {
  /** lower-case router addresses */
  readonly allowedRouters: ReadonlySet<string>
  readonly venues: ReadonlyMap<number, RegisteredVenue>
  /** lower-case stable pool addresses */
  readonly stablePools: ReadonlySet<string>
}

export const emptyRegistry: Registry = { allowedRouters: new Set(), venues: new Map(), stablePools: new Set() }

export type RegistryEvent =
  | { readonly type: "router"; readonly router: string; readonly allowed: boolean }
  | { readonly type: "venue"; readonly id: number; readonly venue: RegisteredVenue }
  | { readonly type: "stable-pool"; readonly pool: string; readonly registered: boolean }

/** The registry after one event. */
export const applyRegistryEvent = (registry: Registry, event: RegistryEvent): Registry => {
  switch (event.type) {
    case "router": {
      const allowedRouters = new Set(registry.allowedRouters)
      if (event.allowed) allowedRouters.add(event.router)
      else allowedRouters.delete(event.router)
      return { ...registry, allowedRouters }
    }
    case "venue": {
      const venues = new Map(registry.venues)
      if (event.venue.kind === 0) venues.delete(event.id)
      else venues.set(event.id, event.venue)
      return { ...registry, venues }
    }
    case "stable-pool": {
      const stablePools = new Set(registry.stablePools)
      if (event.registered) stablePools.add(event.pool)
      else stablePools.delete(event.pool)
      return { ...registry, stablePools }
    }
  }
}

/** The lowest registered id of each configured Uniswap-kind venue, by venue name. */
export const venueIdsOf = (registry: Registry, venues: readonly MarketVenue[]): ReadonlyMap<string, number> => {
  const ids = new Map<string, number>()
  for (const venue of venues) {
    if (venue.kind === "curve-stableswap") continue
    const contract = (venue.kind === "uniswap-v2" ? venue.factory : venue.kind === "uniswap-v3" ? venue.deployer : venue.poolManager).toLowerCase()
    const feeBps = venue.kind === "uniswap-v2" ? venue.feeBps : 0
    let best: number | undefined
    for (const [id, registered] of registry.venues) {
      if (registered.kind !== REGISTERED_KIND[venue.kind] || registered.factory !== contract || registered.feeBps !== feeBps) continue
      if (best === undefined || id < best) best = id
    }
    if (best !== undefined) ids.set(venue.name, best)
  }
  return ids
}
