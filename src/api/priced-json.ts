// The fields /quote and /swap answer alike, written directly as the response
// Schemas encode them (pricedFields in response-schemas.ts), with the checks
// those Schemas make on the way out and no more: quote-json.ts and swap-json.ts
// write their answers from these, and leave an answer that fails a check to
// the Schema, which names the fault.
import { ARC_CHAIN_IDS, checksum, type QuoteResponse, type RouteEntry } from "../domain/index.ts"

const chainIds: ReadonlySet<number> = new Set(ARC_CHAIN_IDS)

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)
/** A bigint's decimal digits; through a double when it holds the value exactly (several times cheaper here). */
export const digits = (n: bigint): string => (n <= SAFE && n >= -SAFE ? String(Number(n)) : n.toString())

export const within = (n: unknown, min: number, max: number): boolean => Number.isInteger(n) && (n as number) >= min && (n as number) <= max
export const isAmount = (n: unknown): n is bigint => typeof n === "bigint"
export const isAddress = (a: unknown): a is string => typeof a === "string" && a.length === 42

const routeFits = (route: ReadonlyArray<RouteEntry>): boolean => {
  if (!Array.isArray(route)) return false
  for (const entry of route) {
    if (!within(entry.shareBps, 1, 10_000) || !Array.isArray(entry.hops)) return false
    for (const hop of entry.hops) {
      if (typeof hop.dex !== "string" || (hop.pool !== null && typeof hop.pool !== "string") || !isAddress(hop.tokenIn) || !isAddress(hop.tokenOut)) return false
    }
  }
  return true
}

/** Whether every priced field holds what the response Schemas accept (their own checks, no more). */
export const pricedFits = (q: QuoteResponse): boolean =>
  chainIds.has(q.chainId) &&
  isAddress(q.tokenIn) &&
  isAddress(q.tokenOut) &&
  (q.tradeType === "exactInput" || q.tradeType === "exactOutput") &&
  isAmount(q.amountIn) &&
  isAmount(q.maxAmountIn) &&
  isAmount(q.amountOut) &&
  isAmount(q.minAmountOut) &&
  within(q.slippageBps, 0, 2_000) &&
  isAmount(q.grossAmountOut) &&
  isAddress(q.fees.token) &&
  within(q.fees.protocolBps, 0, 10_000) &&
  isAmount(q.fees.protocolAmount) &&
  within(q.fees.partnerBps, 0, 100) &&
  isAmount(q.fees.partnerAmount) &&
  (q.fees.partnerRecipient === null || isAddress(q.fees.partnerRecipient)) &&
  (q.priceImpactBps === null || Number.isInteger(q.priceImpactBps)) &&
  (q.gasEstimate === null || isAmount(q.gasEstimate)) &&
  (q.gasCost === null || (isAmount(q.gasCost.native) && isAmount(q.gasCost.usdc) && (q.gasCost.tokenOut === null || isAmount(q.gasCost.tokenOut)))) &&
  routeFits(q.route) &&
  isAmount(q.blockNumber)

/**
 * The priced fields as the Schemas write them, in their order, without the enclosing braces: for
 * an answer pricedFits accepted. Every value is a number, digits, a checksummed address or a
 * literal checked there; the free strings (dex, pool) go through JSON.stringify.
 */
export const pricedJson = (q: QuoteResponse): string => {
  const { fees, gasCost } = q
  const str = JSON.stringify
  const partnerRecipient = fees.partnerRecipient === null ? "null" : `"${checksum(fees.partnerRecipient)}"`
  const gas = gasCost === null ? "null" : `{"native":"${digits(gasCost.native)}","usdc":"${digits(gasCost.usdc)}","tokenOut":${gasCost.tokenOut === null ? "null" : `"${digits(gasCost.tokenOut)}"`}}`
  let route = ""
  for (const entry of q.route) {
    let hops = ""
    for (const hop of entry.hops) {
      hops += `${hops === "" ? "" : ","}{"dex":${str(hop.dex)},"pool":${hop.pool === null ? "null" : str(hop.pool)},"tokenIn":"${checksum(hop.tokenIn)}","tokenOut":"${checksum(hop.tokenOut)}"}`
    }
    route += `${route === "" ? "" : ","}{"shareBps":${entry.shareBps},"hops":[${hops}]}`
  }
  return (
    `"chainId":${q.chainId},"tokenIn":"${checksum(q.tokenIn)}","tokenOut":"${checksum(q.tokenOut)}","tradeType":"${q.tradeType}",` +
    `"amountIn":"${digits(q.amountIn)}","maxAmountIn":"${digits(q.maxAmountIn)}","amountOut":"${digits(q.amountOut)}","minAmountOut":"${digits(q.minAmountOut)}",` +
    `"slippageBps":${q.slippageBps},"grossAmountOut":"${digits(q.grossAmountOut)}",` +
    `"fees":{"token":"${checksum(fees.token)}","protocolBps":${fees.protocolBps},"protocolAmount":"${digits(fees.protocolAmount)}","partnerBps":${fees.partnerBps},"partnerAmount":"${digits(fees.partnerAmount)}","partnerRecipient":${partnerRecipient}},` +
    `"priceImpactBps":${q.priceImpactBps === null ? "null" : str(q.priceImpactBps)},"gasEstimate":${q.gasEstimate === null ? "null" : `"${digits(q.gasEstimate)}"`},"gasCost":${gas},` +
    `"route":[${route}],"blockNumber":"${digits(q.blockNumber)}"`
  )
}
