// The swap program: the quote, priced again; execute(...) encoded; simulated
// from the sender with the balance and allowance it will have; the
// transaction and the approval it needs, or the permit to sign instead; with a
// signed permit, the transaction that applies it and swaps.
import { Effect, Fiber, Metric, Option } from "effect"
import { decodeErrorResult, decodeFunctionResult, type Hex } from "viem"
import { Internal, InvalidRequest, SimulationFailed, Unavailable, type QuoteError, type SwapError } from "./errors.ts"
import { canonicalSignature, checkPermitSignature, permitToSign } from "./permit.ts"
import { gasShape } from "./gas-shape.ts"
import type { SwapRequest, SwapResponse } from "./programs.ts"
import { senderIssues, type InputKind } from "./sender-issues.ts"
import { decodeExecutorError, encodeExecute, encodeExecuteExactOutput, encodePermitAndCall, executeValue, routeExecutorAbi } from "../chain/index.ts"
import { readTogether, Rpc, senderFunds, USDC_ERC20, type RpcError, type RpcService, type SenderFunds } from "../chain/index.ts"
import { Simulator, type SimulationOutcome } from "../chain/index.ts"
import { isNativePlaceholder, type World } from "../domain/index.ts"
import { MarketState } from "../market/index.ts"
import type { Priced, SourceRoute } from "../pricer/index.ts"
import { countSource, isExternalRoute } from "../sources/index.ts"
import { Tokens } from "../tokens/index.ts"
import { latestWorld, pricedOn, type QuoteServices } from "./quote.ts"

/**
 * tx.gas = the least gas limit at which the transaction succeeds × (1 + GAS_HEADROOM_PERCENT/100),
 * rounded up: room for state moving before inclusion (a swap crossing one more tick, say).
 */
export const GAS_HEADROOM_PERCENT = 15n

export const gasLimit = (leastGasLimit: bigint): bigint => (leastGasLimit * (100n + GAS_HEADROOM_PERCENT) + 99n) / 100n

/** Simulations that could not run for another reason than an unreachable node, by reason. */
export const simulationErrors = Metric.counter("swap_simulation_errors_total", {
  description: "/swap simulations the node refused or answered unreadably (answered 502), by reason",
  incremental: true,
})

/** The node could not be reached (no connection, no answer in time, an HTTP error status or a rate limit from every endpoint): the only case in which a transaction goes out unsimulated. */
const unreachable = (e: RpcError): boolean => e.reason === "unreachable" || e.reason === "timeout" || e.reason === "http" || e.reason === "rate-limited"

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

/** How long /swap waits for the market to reach the head block before answering UNAVAILABLE. */
const HEAD_WAIT = "2 seconds"

/**
 * `program` run on the World at the chain's head: a transaction to sign must not carry an older
 * block's pools, fee or pause. It runs on the latest World while the head is read (the market is
 * usually there already), and once more, on the head's World, when the head turns out to be past
 * it. The program's node reads are made in `readTogether`, and the head's read starts when the
 * program first waits: it goes in the same JSON-RPC batch as the program's first reads. When the
 * head cannot be read (node unreachable) the latest World is used, and the simulation then
 * reports that it could not run.
 */
export const atHead = <A, E, R>(
  market: MarketState["Type"],
  rpc: RpcService,
  program: (world: World) => Effect.Effect<A, E, R>,
): Effect.Effect<A, E | Unavailable | QuoteError, R> =>
  readTogether(Effect.gen(function* () {
    const head = yield* Effect.fork(Effect.option(rpc.blockNumber()))
    // a market too stale to answer may catch up with the head: it is waited for as below
    const world = yield* Effect.option(latestWorld(market))
    const first = Option.isSome(world) ? yield* Effect.either(program(world.value)) : undefined
    const reached = yield* Fiber.join(head)
    if (first !== undefined && Option.isSome(world) && (Option.isNone(reached) || reached.value <= world.value.blockNumber)) return yield* first
    if (Option.isNone(reached)) return yield* program(yield* latestWorld(market))
    const caughtUp = yield* market.awaitBlock(reached.value).pipe(Effect.timeout(HEAD_WAIT), Effect.option)
    if (Option.isNone(caughtUp)) {
      return yield* new Unavailable({ detail: `the market has not reached the head block ${reached.value} yet`, retryAfterSeconds: 1 })
    }
    return yield* program(yield* latestWorld(market))
  }))

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

/**
 * The chain services a program uses, read once when the programs are built and passed to each
 * request's program: providing them to every request instead cost ~28 Effect steps, an eighth of a
 * /swap's.
 */
export interface ProgramServices {
  readonly rpc: RpcService
  readonly simulator: Simulator["Type"]
  readonly tokens: Tokens["Type"]
}

export const programServices: Effect.Effect<ProgramServices, never, Rpc | Simulator | Tokens> = Effect.all({ rpc: Rpc, simulator: Simulator, tokens: Tokens })

/** A /swap's answer, with the route it gives and the external routes the simulation refused before it. */
interface Answered {
  readonly response: SwapResponse
  readonly route: SourceRoute
  readonly refused: ReadonlyArray<{ readonly route: SourceRoute; readonly detail: string }>
}

/**
 * The request priced, simulated and answered at the chain's head. The head is read beside the
 * program's own node reads (the sender's funds, the simulation), in the same JSON-RPC batch; on
 * the rare World found behind the head, the request is answered again on the head's World.
 */
export const swapProgram = (services: QuoteServices, chain: ProgramServices, request: SwapRequest): Effect.Effect<SwapResponse, SwapError> =>
  Effect.gen(function* () {
    const answered = yield* atHead(services.market, chain.rpc, (world) =>
      Effect.flatMap(pricedOn(services, world, request, { sender: request.sender }), (priced) => answerPriced(chain, request, priced)))
    // the sources are told once, of the answer given: a refused route is held against its source
    // only when another route passed the same check
    for (const dropped of answered.refused) {
      const source = services.sources.find((s) => s.name === dropped.route.source)
      if (source?.rejected !== undefined) yield* source.rejected(dropped.detail)
      else yield* countSource("rejected", dropped.route.source)
    }
    yield* countSource("wins", answered.route.source)
    return answered.response
  })

/** The request's transaction on its priced World: encoded, simulated from the sender, its gas limit found. */
const answerPriced = (
  { rpc, simulator, tokens }: ProgramServices,
  request: SwapRequest,
  priced: Priced,
): Effect.Effect<Answered, SwapError> =>
  Effect.gen(function* () {
    const executor = priced.settings.address
    // the most a candidate's transaction takes: exact input's amountIn, exact output's maxAmountIn
    // (its own: an aggregator's ceiling may lie above the own router's); the checks made before
    // any candidate is tried use the best one's
    const takesOf = (route: SourceRoute): bigint => (request.tradeType === "exactInput" ? request.amountIn : priced.respond(route).maxAmountIn)
    const takes = takesOf(priced.candidates[0]!)
    const permit = request.permit
    // whether tokenIn takes EIP-2612 permits, and their domain (native USDC never does); without a
    // permit to check, a node that cannot be reached only leaves the permit to sign out of the answer
    const permitDomain = priced.tokenIn.native
      ? null
      : yield* tokens.permitDomain(priced.tokenIn.erc20Address).pipe(
          Effect.catchTag("RpcError", (e) =>
            permit === undefined && unreachable(e)
              ? Effect.as(Effect.logWarning(`tokenIn's permit domain could not be read, the node cannot be reached: ${e.message}`), null)
              : Effect.fail(new Unavailable({ detail: `tokenIn's permit domain could not be read: ${e.message}`, retryAfterSeconds: 1 })),
          ),
        )
    if (permit !== undefined) {
      if (priced.tokenIn.native) return yield* new InvalidRequest({ message: "permit: native USDC input is paid with tx.value and takes no permit (a permit is for the ERC-20 USDC 0x3600…0000)" })
      if (permitDomain === null) return yield* new InvalidRequest({ message: `permit: ${priced.tokenIn.symbol || request.tokenIn} does not implement EIP-2612 permits; send /swap without permit and approve the executor (approval)` })
      if (permit.value < takes) {
        return yield* new InvalidRequest({ message: `permit.value: ${permit.value} is below what the transaction takes, ${takes} (${request.tradeType === "exactInput" ? "amountIn" : "maxAmountIn"} at block ${priced.world.blockNumber}); sign a permit for at least that much` })
      }
      // the token compares the deadline with the chain's time, which may run ahead of this service's clock
      if (permit.deadline <= priced.world.blockTimestamp) {
        return yield* new InvalidRequest({ message: `permit.deadline: ${permit.deadline} has passed on the chain (block ${priced.world.blockNumber}'s time is ${priced.world.blockTimestamp}); sign a new permit` })
      }
    }
    const approvalFor = (amount: bigint) => (priced.tokenIn.native || permit !== undefined ? null : { token: request.tokenIn, spender: executor, amount })
    // the sender's real funds at the priced block, read while the routes are simulated
    const funds = yield* Effect.fork(
      senderFunds(rpc, {
        sender: request.sender,
        blockNumber: priced.world.blockNumber,
        ...(!priced.tokenIn.native ? { token: { address: priced.tokenIn.erc20Address, spender: executor, permitNonce: permitDomain !== null } } : {}),
      }).pipe(
        Effect.map((f): SenderFunds | undefined => f),
        Effect.catchTag("RpcError", (e) =>
          unreachable(e)
            ? Effect.as(Effect.logWarning(`the sender's funds could not be read, the node cannot be reached: ${e.message}`), undefined)
            : Effect.fail(new Internal({ detail: `the sender's funds could not be read: ${e.method} ${e.reason}: ${e.message}`, cause: e })),
        ),
      ),
    )
    // a signed permit must recover to the sender at the token's current nonce before a transaction carries it
    const permitCall = permit === undefined || permitDomain === null
      ? undefined
      : yield* Effect.gen(function* () {
          const canonical = canonicalSignature(permit.signature)
          if ("problem" in canonical) return yield* new InvalidRequest({ message: `permit.signature: ${canonical.problem}` })
          const signature = canonical.signature
          const f = yield* Fiber.join(funds)
          if (f === undefined || f.permitNonce === undefined) {
            return yield* new Unavailable({ detail: "the sender's permit nonce could not be read, the node cannot be reached", retryAfterSeconds: 1 })
          }
          const problem = yield* Effect.promise(() =>
            checkPermitSignature({ domain: permitDomain, sender: request.sender, executor, permit, signature, nonce: f.permitNonce!, allowance: f.allowance ?? 0n }),
          )
          if (problem !== undefined) return yield* new InvalidRequest({ message: `permit.signature: ${problem}` })
          return { token: priced.tokenIn.erc20Address, value: permit.value, deadline: permit.deadline, signature }
        })
    const inputKind: InputKind = priced.tokenIn.native ? "native" : priced.tokenIn.erc20Address.toLowerCase() === USDC_ERC20.toLowerCase() ? "usdc" : "erc20"
    /** The answer with the sender's shortfalls, at the gas the transaction is sent with. */
    const withIssues = (response: SwapResponse, takes: bigint): Effect.Effect<SwapResponse, Internal> =>
      Effect.map(Fiber.join(funds), (f) => {
        const issues = f === undefined ? null : senderIssues({
          token: request.tokenIn,
          kind: inputKind,
          spender: executor,
          amountIn: takes,
          gasWei: (response.tx.gas ?? response.gasEstimate ?? 0n) * priced.world.baseFeeWei,
          funds: f,
        })
        // the permit the transaction carries sets the allowance itself
        if (permit !== undefined) return { ...response, issues: issues === null ? null : { ...issues, allowance: null } }
        const short = f?.allowance !== undefined && f.allowance < takes && f.permitNonce !== undefined && permitDomain !== null
        return {
          ...response,
          issues,
          permit: !short ? null : {
            typedData: permitToSign(permitDomain, { owner: request.sender, spender: executor, value: takes, nonce: f.permitNonce!, deadline: BigInt(request.deadline) }),
          },
        }
      })

    /** executeExactOutput's return value (the sender's input), also through permitAndCall's bytes; undefined when unreadable. */
    const paidIn = (returnData: Hex): bigint | undefined => {
      try {
        const inner = permitCall === undefined ? returnData : decodeFunctionResult({ abi: routeExecutorAbi, functionName: "permitAndCall", data: returnData })
        return decodeFunctionResult({ abi: routeExecutorAbi, functionName: "executeExactOutput", data: inner as Hex }) as bigint
      } catch {
        return undefined
      }
    }

    const encode = (route: SourceRoute, quote: { readonly minAmountOut: bigint; readonly maxAmountIn: bigint }) =>
      Effect.try({
        try: () => {
          const common = {
            tokenIn: request.tokenIn,
            tokenOut: request.tokenOut,
            recipient: request.recipient,
            deadline: BigInt(request.deadline),
            feeBps: request.feeBps,
            ...(request.feeRecipient !== null ? { feeRecipient: request.feeRecipient } : {}),
            protocolFeeBps: priced.settings.protocolFeeBps,
            route: route.route,
          }
          const call = request.tradeType === "exactInput"
            ? encodeExecute({ ...common, amountIn: request.amountIn, minAmountOut: quote.minAmountOut })
            : encodeExecuteExactOutput({ ...common, amountOut: request.amountOut, maxAmountIn: quote.maxAmountIn })
          return permitCall === undefined ? call : encodePermitAndCall(permitCall, call)
        },
        catch: (cause) => new Internal({ detail: `the executor call could not be encoded: ${String(cause)}`, cause }),
      })

    // one block for everything: the pools, the fee and the pause were read at it, and the
    // transaction is simulated on its state, as the block after it
    const block = { number: priced.world.blockNumber, timestamp: priced.world.blockTimestamp }
    /** The outcome, or undefined when the node cannot be reached; a refused or unreadable simulation is an error. */
    /** `gas`: the route's shape and the gas model's figure for it, when its least gas limit is to be found. */
    const simulate = (data: Hex, takes: bigint, gas?: { readonly shape: string; readonly expected: bigint | null }): Effect.Effect<SimulationOutcome | undefined, Internal> =>
      simulator
        .simulateExecute({
          sender: request.sender,
          executor,
          data,
          value: executeValue({ tokenIn: request.tokenIn, amountIn: takes }),
          block,
          findGasLimit: gas !== undefined,
          ...(gas !== undefined ? { gasShape: gas.shape } : {}),
          ...(gas?.expected != null ? { gasExpected: gas.expected } : {}),
          // with a permit the allowance is the signature's to set: only the balance is filled in
          ...(!priced.tokenIn.native ? { pulls: { token: priced.tokenIn.erc20Address, amount: takes, allowance: permit === undefined } } : {}),
        })
        .pipe(
          Effect.catchTag("RpcError", (e) =>
            unreachable(e)
              ? Effect.as(Effect.logWarning(`simulation could not run, the node cannot be reached: ${e.message}`), undefined)
              : Effect.logError(`simulation refused by the node (${e.method}, ${e.reason}): ${e.message}`).pipe(
                  Effect.zipRight(Metric.increment(Metric.tagged(simulationErrors, "reason", e.reason))),
                  Effect.zipRight(Effect.fail(new Internal({ detail: `the simulation could not be run: ${e.method} ${e.reason}: ${e.message}`, cause: e }))),
                ),
          ),
        )
    const refusal = (outcome: { readonly revertData: Hex }): Attempt => {
      const reason = revertReason(outcome.revertData)
      return { kind: "refused", reason, detail: reason ?? "reverted" }
    }

    /** One candidate: encoded and simulated with its gas limit found; an external route must also deliver what it quoted. */
    const attempt = (route: SourceRoute): Effect.Effect<Attempt, Internal> =>
      Effect.gen(function* () {
        const quote = priced.respond(route)
        const takes = takesOf(route)
        const value = executeValue({ tokenIn: request.tokenIn, amountIn: takes })
        const data = yield* encode(route, quote)
        const respond = (gas: bigint | null): Attempt => ({
          kind: "ok",
          response: {
            ...quote,
            sender: request.sender,
            recipient: request.recipient,
            deadline: request.deadline,
            tx: { to: executor, data, value, gas },
            approval: approvalFor(takes),
            permit: null,
            simulated: gas !== null,
            issues: null,
          },
        })
        const answer = (outcome: SimulationOutcome): Attempt =>
          !outcome.ok ? refusal(outcome)
          : outcome.gasLimit === undefined ? { kind: "refused", reason: undefined, detail: "no gas limit found" }
          : respond(gasLimit(outcome.gasLimit))
        const shape = gasShape({
          entry: request.tradeType,
          input: inputKind,
          nativeOut: isNativePlaceholder(request.tokenOut),
          permit: permitCall !== undefined,
          route: route.route,
        })
        const gas = { shape, expected: quote.gasEstimate }
        if (!isExternalRoute(route)) {
          const outcome = yield* simulate(data, takes, gas)
          return outcome === undefined ? respond(null) : answer(outcome)
        }
        if (request.tradeType === "exactOutput") {
          // third-party calldata buying the exact output: what the simulated call returns, the input
          // the sender paid, must be no more than was quoted (within the tolerance)
          const outcome = yield* simulate(data, takes, gas)
          if (outcome === undefined) return { kind: "refused", reason: undefined, detail: "not simulated (node unreachable)" }
          if (!outcome.ok) return refusal(outcome)
          const paid = outcome.returnData === undefined ? undefined : paidIn(outcome.returnData)
          if (paid === undefined) return { kind: "refused", reason: undefined, detail: "the simulation returned no amountIn" }
          const quoted = (quote.amountIn * (10_000n + EXTERNAL_SHORTFALL_TOLERANCE_BPS)) / 10_000n
          if (paid > quoted) return { kind: "refused", reason: "Slippage", detail: `takes ${paid}, more than its quote of ${quote.amountIn}` }
          return answer(outcome)
        }
        // third-party calldata: the same transaction, also asked to pay at least what was quoted;
        // returned only when both simulations ran and passed
        const quoted = (quote.amountOut * (10_000n - EXTERNAL_SHORTFALL_TOLERANCE_BPS)) / 10_000n
        const strictMin = quoted > quote.minAmountOut ? quoted : quote.minAmountOut
        const strictData = yield* encode(route, { ...quote, minAmountOut: strictMin })
        const [outcome, strict] = yield* Effect.all([simulate(data, takes, gas), simulate(strictData, takes)], { concurrency: 2 })
        if (outcome === undefined || strict === undefined) return { kind: "refused", reason: undefined, detail: "not simulated (node unreachable)" }
        if (!outcome.ok) return refusal(outcome)
        if (!strict.ok) {
          return { kind: "refused", reason: "Slippage", detail: `delivers less than its quote of ${quote.amountOut} (${revertReason(strict.revertData) ?? "reverted"})` }
        }
        return answer(outcome)
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
      if (result.kind === "ok") return { response: yield* withIssues(result.response, takesOf(route)), route, refused }
      lastReason = result.reason
      if (!isExternalRoute(route)) break
      yield* Effect.logWarning(`route from ${route.source} refused by the simulation (${result.detail}); trying the next best`)
      refused.push({ route, detail: result.detail })
    }
    return yield* new SimulationFailed(lastReason !== undefined ? { reason: lastReason } : {})
  })
