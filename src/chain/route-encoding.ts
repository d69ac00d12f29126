// The route executor's packed route format (contracts/src/executor/RouteCodec.sol):
//
//   route := splitCount:uint8  split{splitCount}
//   split := shareBps:uint16  hopCount:uint8  hop{hopCount}
//   hop   := kind:uint8  tokenOut:address  body
//     kind 1 v2        body = venue:uint8                                              22 bytes a hop
//     kind 2 v3        body = venue:uint8 fee:uint24                                   25 bytes
//     kind 3 v4        body = venue:uint8 fee:uint24 tickSpacing:int24 hooks:address   48 bytes
//     kind 4 external  body = router:address dataLength:uint24 data                    44 + dataLength bytes
//     kind 5 stable    body = pool:address                                             41 bytes
//     kind 6 stable, exact output  body = pool:address dxHint:uint128                  57 bytes
//     kind 7 external, exact output  body = router:address maxIn:uint128 dataLength:uint24 data   60 + dataLength bytes
//
// A hop's input is the previous hop's output; the first hop of each split takes the route's
// input. Tokens are the ones pools hold: USDC is always the ERC-20 at 0x3600…, never native.
// `venue` is the executor's id of a deployment its owner registered (setVenue): the factory,
// pool deployer or PoolManager, the init code hash and (V2) the swap fee all come from there,
// and the venue's kind must be the hop's. A stable hop names a Curve-style pool the owner
// registered (setStablePool) that has both tokens among its coins. Consecutive V4 hops of the
// same venue run inside one unlock of its PoolManager.
//
// Exact-output routes (executeExactOutput) take kinds 1, 2, 3, 6 and 7 only, and exact-input
// routes (execute) kinds 1 to 5. Kind 6 is a stable pool hop for exact output: dxHint is the
// least input the router computed for the hop's output, from which the executor finds on
// chain the input that pays it. Kind 7 is an allowlisted router buying exactly the split's
// output (an aggregator's exact-output calldata), spending at most maxIn: only as the first hop
// of a split, alone or before a kind 6 hop. The shares of an exact-output route divide its
// gross output.
import { getAddress, isAddress, zeroAddress, type Address, type Hex } from "viem"
import { HOP_KIND, TRADE_HOP_KINDS, type ExecutorHop as RouteHop, type ExecutorRoute as Route, type ExecutorSplit as RouteSplit, type HopKind, type TradeType } from "../domain/index.ts"

export {
  HOP_KIND,
  TRADE_HOP_KINDS,
  type ExecutorHop as RouteHop,
  type ExecutorRoute as Route,
  type ExecutorSplit as RouteSplit,
  type ExternalExactOutputHop,
  type ExternalHop,
  type HopKind,
  type StableExactOutputHop,
  type StableHop,
  type TradeType,
  type V2Hop,
  type V3Hop,
  type V4Hop,
} from "../domain/index.ts"

export class RouteEncodingError extends Error {
  override readonly name = "RouteEncodingError"
}

const MAX_U8 = 0xff
const MAX_U24 = 0xff_ffff
const MIN_I24 = -0x80_0000
const MAX_I24 = 0x7f_ffff

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

const hexOf = (value: number, bytes: number): string => value.toString(16).padStart(bytes * 2, "0")
const addressHex = (address: Address, label: string): string => {
  if (!isAddress(address, { strict: false })) throw new RouteEncodingError(`${label}: not an address: ${address}`)
  return address.slice(2).toLowerCase()
}
const intIn = (value: number, min: number, max: number, label: string) => {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RouteEncodingError(`${label} must be an integer in [${min}, ${max}], got ${value}`)
  }
}

/** The route's input token (every split's first hop's tokenIn). */
export const routeTokenIn = (route: Route): Address => route[0]!.hops[0]!.tokenIn
/** The route's output token (every split's last hop's tokenOut). */
export const routeTokenOut = (route: Route): Address => {
  const hops = route[0]!.hops
  return hops[hops.length - 1]!.tokenOut
}

/**
 * Checks what the contract checks about a route's shape, for execute (exact input, the
 * default) or executeExactOutput; throws RouteEncodingError.
 */
export const validateRoute = (route: Route, tradeType: TradeType = "exactInput"): void => {
  if (route.length < 1 || route.length > MAX_U8) throw new RouteEncodingError(`a route has 1 to 255 splits, got ${route.length}`)
  const first = route[0]!.hops[0]
  const last = route[0]!.hops[route[0]!.hops.length - 1]
  if (first === undefined || last === undefined) throw new RouteEncodingError("split 0 has no hops")
  let shares = 0
  route.forEach((split, s) => {
    intIn(split.shareBps, 1, 10_000, `split ${s} shareBps`)
    shares += split.shareBps
    if (split.hops.length < 1 || split.hops.length > MAX_U8) {
      throw new RouteEncodingError(`split ${s} has 1 to 255 hops, got ${split.hops.length}`)
    }
    split.hops.forEach((hop, h) => {
      const label = `split ${s} hop ${h}`
      const expectedIn = h === 0 ? first.tokenIn : split.hops[h - 1]!.tokenOut
      if (!sameAddress(hop.tokenIn, expectedIn)) throw new RouteEncodingError(`${label}: tokenIn ${hop.tokenIn} does not follow ${expectedIn}`)
      if (sameAddress(hop.tokenOut, zeroAddress)) throw new RouteEncodingError(`${label}: tokenOut is the zero address`)
      if (sameAddress(hop.tokenIn, hop.tokenOut)) throw new RouteEncodingError(`${label}: tokenIn equals tokenOut`)
      if (!TRADE_HOP_KINDS[tradeType].includes(hop.kind)) {
        throw new RouteEncodingError(`${label}: a ${hop.kind} hop cannot be in an ${tradeType} route (it takes ${TRADE_HOP_KINDS[tradeType].join(", ")})`)
      }
    })
    split.hops.forEach((hop, h) => {
      // the executor gives it the route's input from the payer and keeps its output for the split (or a stable hop after it)
      if (hop.kind === "externalExactOutput" && (h !== 0 || (split.hops.length > 1 && split.hops[1]!.kind !== "stableExactOutput"))) {
        throw new RouteEncodingError(`split ${s} hop ${h}: an externalExactOutput hop must be the first of its split, alone or before a stableExactOutput hop`)
      }
    })
    const end = split.hops[split.hops.length - 1]!.tokenOut
    if (!sameAddress(end, last.tokenOut)) throw new RouteEncodingError(`split ${s} ends in ${end}, not ${last.tokenOut}`)
  })
  if (shares !== 10_000) throw new RouteEncodingError(`shares sum to ${shares}, not 10000`)
}

const encodeHop = (hop: RouteHop, label: string): string => {
  const prefix = hexOf(HOP_KIND[hop.kind], 1) + addressHex(hop.tokenOut, `${label} tokenOut`)
  switch (hop.kind) {
    case "v2":
      intIn(hop.venue, 0, MAX_U8, `${label} venue`)
      return prefix + hexOf(hop.venue, 1)
    case "v3":
      intIn(hop.venue, 0, MAX_U8, `${label} venue`)
      intIn(hop.fee, 0, MAX_U24, `${label} fee`)
      return prefix + hexOf(hop.venue, 1) + hexOf(hop.fee, 3)
    case "v4":
      intIn(hop.venue, 0, MAX_U8, `${label} venue`)
      intIn(hop.fee, 0, MAX_U24, `${label} fee`)
      intIn(hop.tickSpacing, MIN_I24, MAX_I24, `${label} tickSpacing`)
      return prefix + hexOf(hop.venue, 1) + hexOf(hop.fee, 3) + hexOf(hop.tickSpacing & MAX_U24, 3) + addressHex(hop.hooks, `${label} hooks`)
    case "stable":
      return prefix + addressHex(hop.pool, `${label} pool`)
    case "stableExactOutput":
      if (typeof hop.dxHint !== "bigint" || hop.dxHint < 1n || hop.dxHint >= 1n << 128n) {
        throw new RouteEncodingError(`${label} dxHint must be an integer in [1, 2^128 - 1], got ${hop.dxHint}`)
      }
      return prefix + addressHex(hop.pool, `${label} pool`) + hop.dxHint.toString(16).padStart(32, "0")
    case "external":
    case "externalExactOutput": {
      if (!/^0x([0-9a-fA-F]{2})*$/.test(hop.data)) throw new RouteEncodingError(`${label} data is not hex bytes`)
      const length = (hop.data.length - 2) / 2
      intIn(length, 0, MAX_U24, `${label} data length`)
      let ceiling = ""
      if (hop.kind === "externalExactOutput") {
        if (typeof hop.maxAmountIn !== "bigint" || hop.maxAmountIn < 1n || hop.maxAmountIn >= 1n << 128n) {
          throw new RouteEncodingError(`${label} maxAmountIn must be an integer in [1, 2^128 - 1], got ${hop.maxAmountIn}`)
        }
        ceiling = hop.maxAmountIn.toString(16).padStart(32, "0")
      }
      return prefix + addressHex(hop.router, `${label} router`) + ceiling + hexOf(length, 3) + hop.data.slice(2).toLowerCase()
    }
  }
}

/**
 * Encodes a route for execute() (exact input, the default) or executeExactOutput(); throws
 * RouteEncodingError when the contract would refuse its shape.
 */
export const encodeRoute = (route: Route, tradeType: TradeType = "exactInput"): Hex => {
  validateRoute(route, tradeType)
  let out = hexOf(route.length, 1)
  route.forEach((split, s) => {
    out += hexOf(split.shareBps, 2) + hexOf(split.hops.length, 1)
    split.hops.forEach((hop, h) => {
      out += encodeHop(hop, `split ${s} hop ${h}`)
    })
  })
  return `0x${out}`
}

/**
 * Decodes an encoded route. `tokenIn` is the route's input as pools hold it (the ERC-20
 * USDC for native input): hops do not carry their input token. Throws RouteEncodingError on
 * bytes the contract would refuse as malformed.
 */
export const decodeRoute = (data: Hex, tokenIn: Address): Route => {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(data)) throw new RouteEncodingError("route is not hex bytes")
  const hex = data.slice(2)
  const length = hex.length / 2
  let pos = 0
  const need = (bytes: number, what: string) => {
    if (pos + bytes > length) throw new RouteEncodingError(`route ends inside ${what} at byte ${pos}`)
  }
  const uint = (bytes: number, what: string): number => {
    need(bytes, what)
    const value = Number.parseInt(hex.slice(pos * 2, (pos + bytes) * 2), 16)
    pos += bytes
    return value
  }
  const address = (what: string): Address => {
    need(20, what)
    const value = getAddress(`0x${hex.slice(pos * 2, (pos + 20) * 2)}`)
    pos += 20
    return value
  }
  const first = getAddress(tokenIn)
  const splitCount = uint(1, "the split count")
  if (splitCount === 0) throw new RouteEncodingError("a route has at least one split")
  const splits: RouteSplit[] = []
  for (let s = 0; s < splitCount; s++) {
    const shareBps = uint(2, `split ${s} shareBps`)
    const hopCount = uint(1, `split ${s} hop count`)
    if (hopCount === 0) throw new RouteEncodingError(`split ${s} has no hops`)
    const hops: RouteHop[] = []
    let current = first
    for (let h = 0; h < hopCount; h++) {
      const what = `split ${s} hop ${h}`
      const kind = uint(1, what)
      const tokenOut = address(what)
      const base = { tokenIn: current, tokenOut }
      if (kind === HOP_KIND.v2) hops.push({ kind: "v2", ...base, venue: uint(1, what) })
      else if (kind === HOP_KIND.v3) {
        const venue = uint(1, what)
        hops.push({ kind: "v3", ...base, venue, fee: uint(3, what) })
      } else if (kind === HOP_KIND.v4) {
        const venue = uint(1, what)
        const fee = uint(3, what)
        const raw = uint(3, what)
        const tickSpacing = raw > MAX_I24 ? raw - 0x100_0000 : raw
        hops.push({ kind: "v4", ...base, venue, fee, tickSpacing, hooks: address(what) })
      } else if (kind === HOP_KIND.stable) hops.push({ kind: "stable", ...base, pool: address(what) })
      else if (kind === HOP_KIND.stableExactOutput) {
        const pool = address(what)
        need(16, what)
        const dxHint = BigInt(`0x${hex.slice(pos * 2, (pos + 16) * 2)}`)
        pos += 16
        hops.push({ kind: "stableExactOutput", ...base, pool, dxHint })
      }
      else if (kind === HOP_KIND.external || kind === HOP_KIND.externalExactOutput) {
        const router = address(what)
        let maxAmountIn = 0n
        if (kind === HOP_KIND.externalExactOutput) {
          need(16, what)
          maxAmountIn = BigInt(`0x${hex.slice(pos * 2, (pos + 16) * 2)}`)
          pos += 16
        }
        const dataLength = uint(3, what)
        need(dataLength, `${what} data`)
        const hopData: Hex = `0x${hex.slice(pos * 2, (pos + dataLength) * 2)}`
        pos += dataLength
        hops.push(kind === HOP_KIND.external ? { kind: "external", ...base, router, data: hopData } : { kind: "externalExactOutput", ...base, router, maxAmountIn, data: hopData })
      } else throw new RouteEncodingError(`${what}: unknown hop kind ${kind}`)
      current = tokenOut
    }
    splits.push({ shareBps, hops })
  }
  if (pos !== length) throw new RouteEncodingError(`${length - pos} bytes left over after the route`)
  return splits
}
