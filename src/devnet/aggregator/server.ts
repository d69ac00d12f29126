// The devnet's aggregator: an HTTP server speaking the 0x Swap API v2
// allowance-holder shape (GET /swap/allowance-holder/quote), quoting the pools
// only it knows and answering with real SwapRouter calldata: exact input for a
// sellAmount, exact output for a buyAmount (0x's "Exact Buy": maxSellAmount is
// the input with the slippage on top, the most the taker must cover; the router
// takes only what the swap needs). Tests steer it
// into being slow, failing, lying or down, in process or through
// POST /admin/mode.
import { randomBytes } from "node:crypto"
import { getAddress, isAddress, type Address, type Hex } from "viem"
import { makeAggregatorLiquidity, ROUTER_TX_OVERHEAD_GAS, type AggregatorLiquidityOptions } from "./liquidity.ts"

/** The API shape the server speaks, as AGGREGATORS names it. */
export const DEVNET_AGGREGATOR_KIND = "0x-v2"
export const DEVNET_AGGREGATOR_NAME = "devnet-0x"
/** The key the server asks for in the 0x-api-key header (a devnet value, not a secret). */
export const DEVNET_AGGREGATOR_API_KEY = "devnet-aggregator-key"

export type AggregatorMode =
  /** exact quotes, calldata that delivers them */
  | { readonly mode: "honest" }
  /** honest answers, each after `delayMs` (default 2000) */
  | { readonly mode: "slow"; readonly delayMs?: number }
  /** every quote answered 500 */
  | { readonly mode: "failing" }
  /** quotes `lieBps` (default 100) more than the calldata delivers (buys: that much less input than it takes) */
  | { readonly mode: "lying"; readonly lieBps?: number }
  /** not listening: connections are refused (only in process; the port is kept for coming back) */
  | { readonly mode: "down" }

export interface DevnetAggregatorOptions extends AggregatorLiquidityOptions {
  readonly chainId: number
  /** symbols for the route's token list */
  readonly symbols?: ReadonlyMap<string, string>
  /** required in the 0x-api-key header when set */
  readonly apiKey?: string
  readonly host?: string
  /** 0 picks a free port */
  readonly port?: number
}

export interface DevnetAggregator {
  readonly name: string
  readonly kind: string
  /** the base URL clients append /swap/allowance-holder/quote to */
  readonly url: string
  readonly apiKey: string | undefined
  readonly mode: () => AggregatorMode
  /** switches the behaviour; "down" closes the listener, any other mode opens it again on the same port */
  readonly setMode: (mode: AggregatorMode) => void
  /** quote requests received so far */
  readonly requests: () => number
  readonly stop: () => Promise<void>
}

const SLIPPAGE_DEFAULT_BPS = 100n
const DEADLINE_SECONDS = 1200n

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
const invalid = (reason: string, field: string) =>
  json(400, { name: "INPUT_INVALID", message: "Validation Failed", data: { details: [{ field, reason }] } })
const zid = () => `0x${randomBytes(12).toString("hex")}`

const isAmount = (text: string | null): text is string => text !== null && /^\d{1,78}$/.test(text) && BigInt(text) < 1n << 256n

export const startDevnetAggregator = (options: DevnetAggregatorOptions): DevnetAggregator => {
  const liquidity = makeAggregatorLiquidity(options)
  const host = options.host ?? "127.0.0.1"
  let mode: AggregatorMode = { mode: "honest" }
  let requests = 0

  const quote = async (url: URL, headers: Headers): Promise<Response> => {
    requests++
    const current = mode
    if (options.apiKey !== undefined && headers.get("0x-api-key") !== options.apiKey) {
      return json(401, { name: "UNAUTHORIZED", message: "Invalid or missing 0x-api-key" })
    }
    if (current.mode === "slow") await Bun.sleep(current.delayMs ?? 2000)
    if (current.mode === "failing") return json(500, { name: "INTERNAL_SERVER_ERROR", message: "Internal server error", data: { zid: zid() } })

    const q = url.searchParams
    if (q.get("chainId") !== String(options.chainId)) return invalid(`chainId ${q.get("chainId")} is not supported`, "chainId")
    const sellToken = q.get("sellToken")
    const buyToken = q.get("buyToken")
    const taker = q.get("taker")
    const recipient = q.get("recipient") ?? taker
    const sellAmount = q.get("sellAmount")
    const buyAmount = q.get("buyAmount")
    for (const [field, value] of [["sellToken", sellToken], ["buyToken", buyToken], ["taker", taker], ["recipient", recipient]] as const) {
      if (value === null || !isAddress(value, { strict: false })) return invalid(`${field} must be an address`, field)
    }
    // 0x: exactly one of sellAmount (exact input) and buyAmount (exact output, "Exact Buy")
    if (sellAmount !== null && buyAmount !== null) return invalid("only one of sellAmount and buyAmount may be given", "buyAmount")
    const buying = buyAmount !== null
    const amountText = buying ? buyAmount : sellAmount
    const amountField = buying ? "buyAmount" : "sellAmount"
    if (!isAmount(amountText) || BigInt(amountText) === 0n) return invalid(`${amountField} must be a positive integer`, amountField)
    const slippageText = q.get("slippageBps")
    if (slippageText !== null && !/^\d{1,4}$/.test(slippageText)) return invalid("slippageBps must be an integer from 0 to 10000", "slippageBps")
    const slippageBps = slippageText === null ? SLIPPAGE_DEFAULT_BPS : BigInt(slippageText)
    if (slippageBps > 10_000n) return invalid("slippageBps must be an integer from 0 to 10000", "slippageBps")

    const tokenIn = getAddress(sellToken!)
    const tokenOut = getAddress(buyToken!)
    const amount = BigInt(amountText)
    const deadline = BigInt(Math.floor(Date.now() / 1000)) + DEADLINE_SECONDS
    const [found, holdings, gasPrice] = await Promise.all([
      buying ? liquidity.quoteBuy(tokenIn, tokenOut, amount) : liquidity.quote(tokenIn, tokenOut, amount),
      liquidity.holdings(tokenIn, getAddress(taker!)),
      liquidity.gasPrice(),
    ])
    if (found === undefined) return json(200, { liquidityAvailable: false, zid: zid() })

    let trade: { readonly sellAmount: bigint; readonly buyAmount: bigint; readonly minBuyAmount: bigint; readonly maxSellAmount?: bigint; readonly data: Hex }
    if ("amountIn" in found) {
      // exact output: the pool's least input, and the most the taker covers (its balance and
      // allowance) with the slippage on top; the router pulls only what the swap needs. A lying
      // aggregator quotes less input than its calldata takes (its ceiling follows the lie: the
      // calldata fails outright when the lie is larger than the slippage)
      const need = found.amountIn
      const quoted = current.mode === "lying" ? (need * (10_000n - BigInt(current.lieBps ?? 100))) / 10_000n : need
      const maxSellAmount = (quoted * (10_000n + slippageBps) + 9_999n) / 10_000n
      const data = liquidity.encodeBuy({ pool: found.pool, tokenIn, tokenOut, amountOut: amount, amountInMaximum: maxSellAmount, recipient: getAddress(recipient!), deadline })
      trade = { sellAmount: quoted, buyAmount: amount, minBuyAmount: amount, maxSellAmount, data }
    } else {
      const delivered = found.amountOut
      const minimum = (delivered * (10_000n - slippageBps)) / 10_000n
      // a lying aggregator inflates what it quotes; its calldata still delivers the pool's output
      const quoted = current.mode === "lying" ? (delivered * (10_000n + BigInt(current.lieBps ?? 100))) / 10_000n : delivered
      const quotedMinimum = current.mode === "lying" ? (quoted * (10_000n - slippageBps)) / 10_000n : minimum
      const data = liquidity.encodeSwap({ pool: found.pool, tokenIn, tokenOut, amountIn: amount, amountOutMinimum: minimum, recipient: getAddress(recipient!), deadline })
      trade = { sellAmount: amount, buyAmount: quoted, minBuyAmount: quotedMinimum, data }
    }
    // what the taker must hold and allow: the ceiling of a buy, the input of a sell
    const covers = trade.maxSellAmount ?? trade.sellAmount
    const gas = ROUTER_TX_OVERHEAD_GAS + found.swapGas
    const router = liquidity.router
    const symbol = (a: Address) => options.symbols?.get(a.toLowerCase()) ?? ""
    return json(200, {
      allowanceTarget: router,
      blockNumber: found.blockNumber.toString(),
      buyAmount: trade.buyAmount.toString(),
      buyToken: tokenOut,
      chainId: options.chainId,
      fees: { integratorFee: null, zeroExFee: null, gasFee: null },
      issues: {
        allowance: holdings.allowance < covers ? { actual: holdings.allowance.toString(), spender: router } : null,
        balance: holdings.balance < covers ? { token: tokenIn, actual: holdings.balance.toString(), expected: covers.toString() } : null,
        simulationIncomplete: holdings.balance < covers || holdings.allowance < covers,
        invalidSourcesPassed: [],
      },
      liquidityAvailable: true,
      ...(trade.maxSellAmount !== undefined ? { maxSellAmount: trade.maxSellAmount.toString() } : {}),
      minBuyAmount: trade.minBuyAmount.toString(),
      route: {
        fills: [{ from: tokenIn, to: tokenOut, source: "Uniswap_V3", proportionBps: "10000" }],
        tokens: [{ address: tokenIn, symbol: symbol(tokenIn) }, { address: tokenOut, symbol: symbol(tokenOut) }],
      },
      sellAmount: trade.sellAmount.toString(),
      sellToken: tokenIn,
      totalNetworkFee: (gas * gasPrice).toString(),
      transaction: { to: router, data: trade.data, gas: gas.toString(), gasPrice: gasPrice.toString(), value: "0" },
      zid: zid(),
    })
  }

  const admin = async (request: Request): Promise<Response> => {
    if (request.method === "GET") return json(200, mode)
    let body: unknown
    try {
      body = await request.json()
    } catch {
      return json(400, { message: "expected a JSON body such as {\"mode\":\"slow\",\"delayMs\":2000}" })
    }
    const next = body as Partial<{ mode: string; delayMs: number; lieBps: number }>
    if (next.mode === "honest" || next.mode === "failing") mode = { mode: next.mode }
    else if (next.mode === "slow") mode = { mode: "slow", ...(Number.isInteger(next.delayMs) ? { delayMs: next.delayMs! } : {}) }
    else if (next.mode === "lying") mode = { mode: "lying", ...(Number.isInteger(next.lieBps) ? { lieBps: next.lieBps! } : {}) }
    else return json(400, { message: "mode must be honest, slow, failing or lying (down only in process)" })
    return json(200, mode)
  }

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url)
    try {
      if (url.pathname === "/swap/allowance-holder/quote" && request.method === "GET") return await quote(url, request.headers)
      if (url.pathname === "/admin/mode" && (request.method === "GET" || request.method === "POST")) return await admin(request)
      return json(404, { name: "NOT_FOUND", message: `no route ${request.method} ${url.pathname}` })
    } catch (e) {
      return json(500, { name: "INTERNAL_SERVER_ERROR", message: e instanceof Error ? e.message : String(e) })
    }
  }

  const listen = (port: number) => Bun.serve({ hostname: host, port, fetch: handler })
  let server: ReturnType<typeof Bun.serve> | undefined = listen(options.port ?? 0)
  const port = server.port!
  let stopped = false

  return {
    name: DEVNET_AGGREGATOR_NAME,
    kind: DEVNET_AGGREGATOR_KIND,
    url: `http://${host}:${port}`,
    apiKey: options.apiKey,
    mode: () => mode,
    setMode: (next) => {
      if (stopped) return
      mode = next
      if (next.mode === "down") {
        void server?.stop(true)
        server = undefined
      } else if (server === undefined) {
        server = listen(port)
      }
    },
    requests: () => requests,
    stop: async () => {
      stopped = true
      await server?.stop(true)
      server = undefined
    },
  }
}
