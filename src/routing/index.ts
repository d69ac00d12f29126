// The routing room's door: pure route search over a market snapshot (token
// graph, paths up to 3 hops, split optimisation, gas model), for an exact
// input and for an exact output. No Effect, no I/O.
export { findBestRoute } from "./search.ts"
export { findBestRouteExactOutput } from "./search-exact-output.ts"
export { splitAmounts } from "./shares.ts"
export type {
  ExactOutputRoute,
  ExactOutputSplit,
  FindExactOutputParams,
  FindRouteParams,
  Route,
  RouteHop,
  RouteSplit,
  RoutingMarket,
} from "./types.ts"
export { GAS, hopGas, routeGas } from "./gas.ts"
export { graphOf, tokenKey, type TokenGraph } from "./graph.ts"
