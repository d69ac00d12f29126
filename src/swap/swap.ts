// The swap program: the quote, priced again; execute(...) encoded; simulated
// from the sender with the balance and allowance it will have; the
// transaction and the approval it needs.
import { Effect } from "effect"
import { decodeErrorResult, type Hex } from "viem"
import { Internal, SimulationFailed, type SwapError } from "../api/errors.ts"
import type { SwapRequest, SwapResponse } from "../api/programs.ts"
import { decodeExecutorError, encodeExecute, executeValue } from "../chain/execute-call.ts"
import { ExecutorState } from "../chain/executor-state.ts"
import { Rpc } from "../chain/rpc.ts"
import { Simulator } from "../chain/simulator.ts"
import { MarketState } from "../market/index.ts"
import { ReferencePrices } from "../pricing/index.ts"
import { countSource, isExternalRoute, Sources, type SourceRoute } from "../sources/index.ts"
import { Tokens } from "../tokens/index.ts"
import { priceCandidatesNow, priceCandidatesWith, quoteServices } from "./quote.ts"

/** tx.gas = simulated gas × (1 + GAS_HEADROOM_PERCENT/100), rounded up: room for state moving before inclusion. */
export const GAS_HEADROOM_PERCENT = 20n

export const gasLimit = (gasUsed: bigint): bigint => (gasUsed * (100n + GAS_HEADROOM_PERCENT) + 99n) / 100n

/**
 * tx.gas for a route through an external router. The simulation reports gas used after refunds,
 * and refunds (up to a fifth of the gas, EIP-3529) are paid only at the end: the exact approval
 * the executor gives the router and then clears earns one, so the transaction needs up to 5/4 of
 * the gas it uses before the headroom.
 */
export const externalGasLimit = (gasUsed: bigint): bigint => gasLimit((gasUsed * 5n + 3n) / 4n)

/** The reason a revert gives: the executor's error name, a revert string, or none. */
export const revertReason = (data: Hex): string | undefined => {
  const executor = decodeExecutorError(data)
  if (executor !== undefined) return executor.reason ?? executor.name
  try {
    const { errorName, args } = decodeErrorResult({ abi: STANDARD_ERRORS, data })
    if (errorName === "Error") return String(args?.[0])
    if (errorName === "Panic") return `Panic(0x${Number(args?.[0]).toString(16)})`
  } catch {
    // custom error of another contract, or no data
  }
  return undefined
}

const STANDARD_ERRORS = [
  { type: "error", name: "Error", inputs: [{ name: "message", type: "string" }] },
  { type: "error", name: "Panic", inputs: [{ name: "code", type: "uint256" }] },
] as const

/** How long /swap waits for the market to reach the head block before pricing on what it has. */
const HEAD_WAIT = "1 second"

const catchUpWithHead = Effect.gen(function* () {
  const rpc = yield* Rpc
  const market = yield* MarketState
  const head = yield* rpc.blockNumber().pipe(Effect.option)
  if (head._tag === "None") return
  const current = yield* market.snapshot
  if (current.blockNumber >= head.value) return
  yield* market.awaitBlock(head.value).pipe(Effect.timeout(HEAD_WAIT), Effect.ignore)
})

/** External routes one /swap may see refused before it goes straight to the own router's. */
export const MAX_EXTERNAL_REFUSALS = 2
/**
 * How far below its quote an external route may deliver in the simulation (basis points of the
 * quoted amountOut) before it counts as delivering less than it quoted; the user's own
 * minAmountOut is never loosened by it.
 */
export const EXTERNAL_SHORTFALL_TOLERANCE_BPS = 10n

type Attempt =
  | { readonly kind: "ok"; readonly response: SwapResponse }
  | { readonly kind: "refused"; readonly reason: string | undefined; readonly detail: string }

export const swapProgram = (
  request: SwapRequest,
): Effect.Effect<SwapResponse, SwapError, Tokens | MarketState | ReferencePrices | ExecutorState | Sources | Simulator | Rpc> =>
  Effect.gen(function* () {
    // priced again at the chain's head: a transaction to sign must not carry an older block's price
    yield* catchUpWithHead
    const services = yield* quoteServices
    const pricedNow = priceCandidatesNow(services, request, { sender: request.sender })
    const priced = pricedNow === undefined
      ? yield* priceCandidatesWith(services, request, { sender: request.sender })
      : "_tag" in pricedNow ? yield* Effect.fail(pricedNow) : pricedNow
    const simulator = yield* Simulator
    const sources = yield* Sources
    const executor = priced.settings.address
    const value = executeValue({ tokenIn: request.tokenIn, amountIn: request.amountIn })
    const approval = priced.tokenIn.native ? null : { token: request.tokenIn, spender: executor, amount: request.amountIn }

    const encode = (route: SourceRoute, minAmountOut: bigint) =>
      Effect.try({
        try: () =>
          encodeExecute({
            tokenIn: request.tokenIn,
            tokenOut: request.tokenOut,
            amountIn: request.amountIn,
            minAmountOut,
            recipient: request.recipient,
            deadline: BigInt(request.deadline),
            feeBps: request.feeBps,
            ...(request.feeRecipient !== null ? { feeRecipient: request.feeRecipient } : {}),
            protocolFeeBps: priced.settings.protocolFeeBps,
            route: route.route,
          }),
        catch: (cause) => new Internal({ detail: `execute() could not be encoded: ${String(cause)}`, cause }),
      })

    // the market has caught up with the head: its block is the one to simulate on top of
    const snapshot = yield* (yield* MarketState).snapshot
    const head = { number: snapshot.blockNumber, timestamp: snapshot.blockTimestamp }
    const simulate = (data: Hex) =>
      simulator
        .simulateExecute({
          sender: request.sender,
          executor,
          data,
          value,
          head,
          ...(approval !== null ? { pulls: { token: priced.tokenIn.erc20Address, amount: request.amountIn } } : {}),
        })
        .pipe(
          // the check could not run: the transaction is still returned, protected by minAmountOut and the deadline
          Effect.catchTag("RpcError", (e) => Effect.as(Effect.logWarning(`simulation could not run: ${e.message}`), undefined)),
        )

    /** One candidate: encoded and simulated; an external route must also deliver what it quoted. */
    const attempt = (route: SourceRoute): Effect.Effect<Attempt, Internal> =>
      Effect.gen(function* () {
        const quote = priced.respond(route)
        const data = yield* encode(route, quote.minAmountOut)
        const respond = (gas: bigint | null): Attempt => ({
          kind: "ok",
          response: {
            ...quote,
            sender: request.sender,
            recipient: request.recipient,
            deadline: request.deadline,
            tx: { to: executor, data, value, gas },
            approval,
            simulated: gas !== null,
          },
        })
        if (!isExternalRoute(route)) {
          const outcome = yield* simulate(data)
          if (outcome === undefined) return respond(null)
          if (outcome.ok) return respond(gasLimit(outcome.gasUsed))
          const reason = revertReason(outcome.revertData)
          return { kind: "refused", reason, detail: reason ?? "reverted" }
        }
        // third-party calldata: the same transaction, also asked to pay at least what was quoted
        const quoted = (quote.amountOut * (10_000n - EXTERNAL_SHORTFALL_TOLERANCE_BPS)) / 10_000n
        const strictMin = quoted > quote.minAmountOut ? quoted : quote.minAmountOut
        const strictData = yield* encode(route, strictMin)
        const [outcome, strict] = yield* Effect.all([simulate(data), simulate(strictData)], { concurrency: 2 })
        if (outcome === undefined) return respond(null)
        if (!outcome.ok) {
          const reason = revertReason(outcome.revertData)
          return { kind: "refused", reason, detail: reason ?? "reverted" }
        }
        if (strict !== undefined && !strict.ok) {
          return { kind: "refused", reason: "Slippage", detail: `delivers less than its quote of ${quote.amountOut} (${revertReason(strict.revertData) ?? "reverted"})` }
        }
        return respond(externalGasLimit(outcome.gasUsed))
      })

    // the best route first; an external route the simulation refuses is dropped for this request
    // and the next best is tried, down to the own router, whose refusal is the answer
    const refused: Array<{ readonly route: SourceRoute; readonly detail: string }> = []
    let lastReason: string | undefined
    for (const route of priced.candidates) {
      if (isExternalRoute(route) && refused.length >= MAX_EXTERNAL_REFUSALS) continue
      const result = yield* attempt(route).pipe(
        Effect.catchTag("Internal", (e) =>
          isExternalRoute(route) ? Effect.succeed<Attempt>({ kind: "refused", reason: undefined, detail: e.detail ?? "not encodable" }) : Effect.fail(e),
        ),
      )
      if (result.kind === "ok") {
        // a refused route is held against its source only when another route passed the same check
        for (const dropped of refused) {
          const source = sources.find((s) => s.name === dropped.route.source)
          if (source?.rejected !== undefined) yield* source.rejected(dropped.detail)
          else yield* countSource("rejected", dropped.route.source)
        }
        yield* countSource("wins", route.source)
        return result.response
      }
      lastReason = result.reason
      if (!isExternalRoute(route)) break
      yield* Effect.logWarning(`route from ${route.source} refused by the simulation (${result.detail}); trying the next best`)
      refused.push({ route, detail: result.detail })
    }
    return yield* new SimulationFailed(lastReason !== undefined ? { reason: lastReason } : {})
  })
