// Which route wins: exact input, the most output after gas, then the most gross
// output; exact output, the least input plus gas in tokenIn, then the least input.
import type { SourceRoute } from "./route.ts"

/** The better of two routes: more output after gas, then more gross output; `a` on a tie. */
export const betterRoute = (a: SourceRoute, b: SourceRoute): SourceRoute =>
  b.netAmountOut > a.netAmountOut || (b.netAmountOut === a.netAmountOut && b.amountOut > a.amountOut) ? b : a

/** Routes best first, as betterRoute ranks them; equal routes keep their order (the own router first). */
export const rankRoutes = (routes: readonly SourceRoute[]): SourceRoute[] =>
  routes
    .map((route, i) => ({ route, i }))
    .sort((x, y) => {
      const a = x.route
      const b = y.route
      if (a.netAmountOut !== b.netAmountOut) return a.netAmountOut > b.netAmountOut ? -1 : 1
      if (a.amountOut !== b.amountOut) return a.amountOut > b.amountOut ? -1 : 1
      return x.i - y.i
    })
    .map((r) => r.route)

/**
 * Exact-output routes best first: the least input plus gas in tokenIn (costIn, else amountIn),
 * then the least input; equal routes keep their order (the own router first).
 */
export const rankRoutesExactOutput = (routes: readonly SourceRoute[]): SourceRoute[] => {
  const cost = (r: SourceRoute) => r.costIn ?? r.amountIn!
  return routes
    .map((route, i) => ({ route, i }))
    .sort((x, y) => {
      const a = x.route
      const b = y.route
      if (cost(a) !== cost(b)) return cost(a) < cost(b) ? -1 : 1
      if (a.amountIn! !== b.amountIn!) return a.amountIn! < b.amountIn! ? -1 : 1
      return x.i - y.i
    })
    .map((r) => r.route)
}
