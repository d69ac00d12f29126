// The routing room's door: pure route search over a market snapshot (token
// graph, paths up to 3 hops, split optimisation, gas model). No Effect, no I/O.
export { findBestRoute, splitAmounts } from "./search.ts"
export type { FindRouteParams, Route, RouteHop, RouteSplit, RoutingMarket } from "./types.ts"
export { GAS, hopGas, routeGas } from "./gas.ts"
export { graphOf, tokenKey, USDC_ERC20, type TokenGraph } from "./graph.ts"
