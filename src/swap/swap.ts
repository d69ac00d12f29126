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
import { Sources } from "../sources/index.ts"
import { Tokens } from "../tokens/index.ts"
import { priceQuote } from "./quote.ts"

/** tx.gas = simulated gas × (1 + GAS_HEADROOM_PERCENT/100), rounded up: room for state moving before inclusion. */
export const GAS_HEADROOM_PERCENT = 20n

export const gasLimit = (gasUsed: bigint): bigint => (gasUsed * (100n + GAS_HEADROOM_PERCENT) + 99n) / 100n

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

export const swapProgram = (
  request: SwapRequest,
): Effect.Effect<SwapResponse, SwapError, Tokens | MarketState | ReferencePrices | ExecutorState | Sources | Simulator | Rpc> =>
  Effect.gen(function* () {
    // priced again at the chain's head: a transaction to sign must not carry an older block's price
    yield* catchUpWithHead
    const priced = yield* priceQuote(request)
    const simulator = yield* Simulator
    const executor = priced.settings.address
    const quote = priced.response

    const data = yield* Effect.try({
      try: () =>
        encodeExecute({
          tokenIn: request.tokenIn,
          tokenOut: request.tokenOut,
          amountIn: request.amountIn,
          minAmountOut: quote.minAmountOut,
          recipient: request.recipient,
          deadline: BigInt(request.deadline),
          feeBps: request.feeBps,
          ...(request.feeRecipient !== null ? { feeRecipient: request.feeRecipient } : {}),
          protocolFeeBps: priced.settings.protocolFeeBps,
          route: priced.best.route,
        }),
      catch: (cause) => new Internal({ detail: `execute() could not be encoded: ${String(cause)}`, cause }),
    })
    const value = executeValue({ tokenIn: request.tokenIn, amountIn: request.amountIn })
    const approval = priced.tokenIn.native ? null : { token: request.tokenIn, spender: executor, amount: request.amountIn }

    const outcome = yield* simulator
      .simulateExecute({
        sender: request.sender,
        executor,
        data,
        value,
        ...(approval !== null ? { pulls: { token: priced.tokenIn.erc20Address, amount: request.amountIn } } : {}),
      })
      .pipe(
        // the check could not run: the transaction is still returned, protected by minAmountOut and the deadline
        Effect.catchTag("RpcError", (e) => Effect.as(Effect.logWarning(`simulation could not run: ${e.message}`), undefined)),
      )
    if (outcome !== undefined && !outcome.ok) {
      const reason = revertReason(outcome.revertData)
      return yield* new SimulationFailed(reason !== undefined ? { reason } : {})
    }

    return {
      ...quote,
      sender: request.sender,
      recipient: request.recipient,
      deadline: request.deadline,
      tx: { to: executor, data, value, gas: outcome === undefined ? null : gasLimit(outcome.gasUsed) },
      approval,
      simulated: outcome !== undefined,
    }
  })
