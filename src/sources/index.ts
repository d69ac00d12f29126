// The sources room's door: the Source interface and the own router.
export { Sources, SourceError, betterRoute, type DisplayHop, type Source, type SourceRequest, type SourceRoute } from "./source.ts"
export { routerSource, ROUTER_SOURCE } from "./router-source.ts"
