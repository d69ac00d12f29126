// Simulates a route executor call from its sender, with the balance and
// allowance the sender will have filled in by state overrides, so the check
// works before the approval is sent.
import { Context, Effect, Layer, Metric } from "effect"
import { numberToHex, type Address, type Hex, type StateOverride } from "viem"
import { USDC_ERC20_ADDRESS, USDC_NATIVE_SCALE } from "../domain/index.ts"
import { RpcError } from "./rpc-error.ts"
import { Rpc, type RpcService } from "./rpc.ts"
import { allowanceKey, balanceKey, findAllowanceSlot, findBalanceSlot, type MappingSlot } from "./storage-slots.ts"
import { makeKeptAnswers } from "./kept-answers.ts"
import { traced } from "./traced.ts"

// Arc's USDC ERC-20 keeps no balances: they are native balances, so its balance is overridden as native
const USDC_ERC20 = USDC_ERC20_ADDRESS.toLowerCase()

export interface SimulateExecute {
  readonly sender: Address
  readonly executor: Address
  readonly data: Hex
  /** native value sent (native input) */
  readonly value: bigint
  /**
   * the ERC-20 the executor pulls from the sender, its balance filled in, and its allowance to the
   * executor unless `allowance` is false (the call carries the sender's permit); undefined for
   * native input
   */
  readonly pulls?: { readonly token: Address; readonly amount: bigint; readonly allowance?: boolean }
  /** the block the route was priced at: the call runs on its state, as the block after it */
  readonly block: { readonly number: bigint; readonly timestamp: bigint }
  /** also find the least gas limit at which the call succeeds */
  readonly findGasLimit?: boolean
  /**
   * The route's shape (its entry, hop kinds and native sides): calls of one shape need about the
   * same limit over the gas they use, so once one was searched the next is checked at one limit.
   */
  readonly gasShape?: string
  /**
   * The gas the route uses by the gas model: calls of one shape use about the same multiple of
   * it, so with a shape seen before the call is run once, at the limit that predicts.
   */
  readonly gasExpected?: bigint
}

export type SimulationOutcome =
  | {
      readonly ok: true
      /** the least gas limit at which the call succeeds, when asked for (before refunds, EIP-150's 1/64 included) */
      readonly gasLimit?: bigint
      /** what the call returned (execute: amountOut; executeExactOutput: amountIn) */
      readonly returnData?: Hex
    }
  | { readonly ok: false; readonly revertData: Hex }

export interface SimulatorShape {
  /**
   * The call's outcome at the block after `block`, from the sender, with its balance and allowance
   * filled in. Fails with RpcError when the check cannot run: reason "unreachable" or "timeout"
   * when the node cannot be reached, any other reason when the node refused the request or gave
   * an answer that cannot be read.
   */
  readonly simulateExecute: (params: SimulateExecute) => Effect.Effect<SimulationOutcome, RpcError>
}

export class Simulator extends Context.Tag("chain/Simulator")<Simulator, SimulatorShape>() {
  static readonly layer = Layer.effect(Simulator, Effect.flatMap(Rpc, (rpc) => makeSimulator(rpc)))
}

interface TokenSlots {
  readonly balance: MappingSlot | undefined
  readonly allowance: MappingSlot | undefined
}

/**
 * The limits tried above the gas a simulation reports, in basis points of it: that figure is after
 * refunds (EIP-3529: up to a fifth of the gas) and leaves out the 1/64 each call keeps back
 * (EIP-150), so the least limit that succeeds lies up to ~35% above it, 15-25% for the executor's
 * routes. Each limit below the least costs one execution that runs out of gas, so the grid starts
 * at +8% (a least limit below that is overstated by at most 8%) and climbs in steps of 3%.
 */
const GAS_GRID: readonly bigint[] = [10_800n, 11_100n, 11_400n, 11_700n, 12_000n, 12_300n, 12_600n, 12_900n, 13_200n, 13_600n, 14_000n]
/** Grid limits up to here (+26%) are the executor's usual range; a first success later is checked against eth_estimateGas. */
const GRID_TRUSTED = 7

/** Above the ratio a shape needed last time, so that one check usually suffices: 3%, one grid step. */
const SHAPE_MARGIN_BPS = 300n
/**
 * A limit predicted before the gas used is known is the shape's ratio plus its margin over the
 * predicted gas, and is kept when it succeeds and lies within twice the margin over the ratio of
 * the gas then used: a prediction 2.5% off either way still holds (the gas of one shape moves by
 * about that with the amount: a pool's oracle write, say), and the limit is at most ~9% above the
 * least (the ratio may lie 3% above the shape's true one), so tx.gas stays within 1.25x the least.
 */
const PREDICTED_CEILING_BPS = 2n * SHAPE_MARGIN_BPS
/**
 * A failed call that used at least 7/8 of its limit may have run out of gas: a call nested five
 * deep that runs out leaves at most 5/64 unused. A refusal that comes after all the work (the
 * minimum out, say) may look the same, and costs one execution more for it.
 */
const OUT_OF_GAS_NUMERATOR = 7n
const OUT_OF_GAS_DENOMINATOR = 8n
/** How many route shapes' ratios are kept (least recently searched dropped first). */
const SHAPE_CAPACITY = 1_000

/** How each least gas limit was found: the call run once at its predicted limit, a shape's one check, the grid, or the node's own search. */
export const gasLimitSearches = Metric.counter("simulation_gas_limit_searches_total", {
  description:
    "least gas limits found for simulated executor calls, by how (predicted: the call run once, at the limit its shape and gas model predicted; shape: one check at a shape's known ratio; grid; estimate: eth_estimateGas)",
  incremental: true,
})
/** Executions of executor calls asked of the node (eth_estimateGas counted once). */
export const simulatedExecutions = Metric.counter("simulation_executions_total", {
  description: "executions of executor calls asked of the node by simulations (each eth_simulateV1 call, eth_call, eth_estimateGas counted once)",
  incremental: true,
})
const searchedBy = {
  predicted: Metric.increment(Metric.tagged(gasLimitSearches, "how", "predicted")),
  shape: Metric.increment(Metric.tagged(gasLimitSearches, "how", "shape")),
  grid: Metric.increment(Metric.tagged(gasLimitSearches, "how", "grid")),
  estimate: Metric.increment(Metric.tagged(gasLimitSearches, "how", "estimate")),
}
const searched = (how: keyof typeof searchedBy) => searchedBy[how]

/** Enough native balance for the value, plus room the sender's own balance may lack. */
const NATIVE_HEADROOM = 10n ** 24n
const MAX_UINT256 = (1n << 256n) - 1n

/** How many tokens' storage slots are kept. */
const SLOT_CACHE_CAPACITY = 10_000
/** Senders whose storage keys are kept, per token and executor; the oldest goes first. */
const STORAGE_KEYS_KEPT = 10_000

export const makeSimulator = (rpc: RpcService): Effect.Effect<SimulatorShape> =>
  Effect.gen(function* () {
    // where each token keeps balances and allowances, found once per token (look-ups of one token
    // merged); a failed look-up is not kept
    const slots = makeKeptAnswers<TokenSlots, RpcError>({ capacity: SLOT_CACHE_CAPACITY, ttlMs: Number.POSITIVE_INFINITY })
    const findSlots = (token: Address) =>
      Effect.map(
        Effect.all([token === USDC_ERC20 ? Effect.succeed(undefined) : findBalanceSlot(rpc, token), findAllowanceSlot(rpc, token)], { concurrency: 2 }),
        ([balance, allowance]): TokenSlots => ({ balance, allowance }),
      )
    const slotsOf = (token: Address) => {
      const key = token.toLowerCase() as Address
      return slots.get(key, () => findSlots(key))
    }
    // a sender's storage keys under a token, for its executor: three keccaks in JavaScript, ~4% of a
    // /swap's CPU, kept for the senders seen last (a wallet asks /swap again as it refreshes its quote)
    const keptKeys = new Map<string, { readonly balance: Hex | undefined; readonly allowance: Hex | undefined }>()
    const storageKeys = (token: Address, found: TokenSlots, sender: Address, executor: Address) => {
      const id = `${token}${sender}${executor}`.toLowerCase()
      const kept = keptKeys.get(id)
      if (kept !== undefined) return kept
      const made = {
        balance: found.balance === undefined ? undefined : balanceKey(found.balance, sender),
        allowance: found.allowance === undefined ? undefined : allowanceKey(found.allowance, sender, executor),
      }
      if (keptKeys.size >= STORAGE_KEYS_KEPT) keptKeys.delete(keptKeys.keys().next().value!)
      keptKeys.set(id, made)
      return made
    }

    /**
     * The sender's filled-in funds. Every call of the gas grid that succeeds spends the native value
     * (and, for the ERC-20 USDC, the amount pulled) again in the same simulated block, so the native
     * balance covers `calls` executions; past uint256 it is capped, and `coversGrid` says so.
     */
    const overrides = (params: SimulateExecute) =>
      Effect.gen(function* () {
        const state: StateOverride = []
        let spentPerCall = params.value
        if (params.pulls !== undefined) {
          const { token, amount } = params.pulls
          const found = yield* slotsOf(token)
          const stateDiff: { slot: Hex; value: Hex }[] = []
          const keys = storageKeys(token, found, params.sender, params.executor)
          if (token.toLowerCase() === USDC_ERC20) spentPerCall += amount * USDC_NATIVE_SCALE
          else if (keys.balance !== undefined) stateDiff.push({ slot: keys.balance, value: numberToHex(amount, { size: 32 }) })
          if (keys.allowance !== undefined && params.pulls.allowance !== false) {
            stateDiff.push({ slot: keys.allowance, value: numberToHex(amount, { size: 32 }) })
          }
          if (stateDiff.length > 0) state.push({ address: token, stateDiff })
        }
        const gridBalance = spentPerCall * BigInt(GAS_GRID.length) + NATIVE_HEADROOM
        const coversGrid = gridBalance <= MAX_UINT256
        state.push({ address: params.sender, balance: coversGrid ? gridBalance : MAX_UINT256 })
        return { state, coversGrid }
      })

    // eth_simulateV1 runs the call as the next block; a node without it (method not found) is asked
    // with eth_call and eth_estimateGas on the block's own state instead, from then on
    let simulateV1 = true

    const callOf = (params: SimulateExecute, gas?: bigint) => ({
      from: params.sender,
      to: params.executor,
      data: params.data,
      value: params.value,
      ...(gas !== undefined ? { gas } : {}),
    })
    /** One eth_simulateV1 block of `calls`, based explicitly on the priced block and moving forward from it, as geth and reth require. */
    const simulateNext = (params: SimulateExecute, stateOverride: StateOverride, calls: readonly ReturnType<typeof callOf>[]) =>
      Metric.incrementBy(simulatedExecutions, calls.length).pipe(Effect.zipRight(rpc.simulate(
        [{ blockOverrides: { number: params.block.number + 1n, time: params.block.timestamp + 1n }, stateOverrides: stateOverride, calls }],
        { blockNumber: params.block.number },
      )))

    /** eth_call on the priced block's state; a revert is an outcome, not an error. */
    const checkByCall = (params: SimulateExecute, stateOverride: StateOverride) =>
      Metric.increment(simulatedExecutions).pipe(Effect.zipRight(rpc.call({ ...callOf(params), blockNumber: params.block.number, stateOverride }))).pipe(
        Effect.map((returnData): Checked => ({ ok: true, gasUsed: undefined, returnData })),
        Effect.catchTag("RpcError", (e) => (e.reason === "revert" ? Effect.succeed<Checked>({ ok: false, revertData: e.revertData ?? "0x" }) : Effect.fail(e))),
      )

    type Checked = { readonly ok: true; readonly gasUsed: bigint | undefined; readonly returnData: Hex } | { readonly ok: false; readonly revertData: Hex }
    const check = (params: SimulateExecute, stateOverride: StateOverride): Effect.Effect<Checked, RpcError> =>
      !simulateV1
        ? checkByCall(params, stateOverride)
        : simulateNext(params, stateOverride, [callOf(params)]).pipe(
            Effect.map((blocks): Checked => {
              const call = blocks[0]![0]!
              return call.success ? { ok: true, gasUsed: call.gasUsed, returnData: call.data } : { ok: false, revertData: call.data }
            }),
            Effect.catchTag("RpcError", (e) =>
              e.reason !== "unsupported"
                ? Effect.fail(e)
                : Effect.logWarning(`the node does not offer eth_simulateV1 (${e.message}): simulating with eth_call and eth_estimateGas`).pipe(
                    Effect.zipRight(Effect.sync(() => (simulateV1 = false))),
                    Effect.zipRight(checkByCall(params, stateOverride)),
                  ),
              ),
            )

    /** The node's own search (eth_estimateGas) on the priced block's state with the same overrides; undefined when the call reverts. */
    const estimate = (params: SimulateExecute, stateOverride: StateOverride) =>
      Metric.increment(simulatedExecutions).pipe(Effect.zipRight(rpc.estimateGas({ ...callOf(params), blockNumber: params.block.number, stateOverride }))).pipe(
        Effect.map((gas): bigint | undefined => gas),
        Effect.catchTag("RpcError", (e) => (e.reason === "revert" ? Effect.succeed(undefined) : Effect.fail(e))),
      )

    /**
     * The least limit on a grid above the gas used, in one eth_simulateV1 block: the same call at
     * ascending limits, where a call that runs out of gas leaves no state behind, so the first that
     * succeeds is the least limit of the grid (at most 8% above the true least, 3% past the grid's
     * first step). Past the grid, the node's own search.
     */
    const searchGrid = (params: SimulateExecute, stateOverride: StateOverride, gasUsed: bigint) =>
      Effect.gen(function* () {
        const limits = GAS_GRID.map((bps) => (gasUsed * bps + 9_999n) / 10_000n)
        const [calls] = yield* simulateNext(params, stateOverride, limits.map((gas) => callOf(params, gas)))
        const first = calls!.findIndex((c) => c.success)
        if (first >= 0 && first < GRID_TRUSTED) return yield* Effect.as(searched("grid"), limits[first])
        // past the routes' usual range (or past the grid): the node's own search decides, and the
        // lower of two limits that both succeed is kept
        const estimated = yield* Effect.zipLeft(estimate(params, stateOverride), searched("estimate"))
        if (first < 0) return estimated
        return estimated !== undefined && estimated < limits[first]! ? estimated : limits[first]
      })

    // what each route shape needed when last searched, owned by this simulator: the least limit
    // over the gas used (bps), and the gas used over the gas model's figure (bps) when last run; a
    // Map keeps insertion order, so the first key is the least recently searched
    const shapes = new Map<string, { ratio: bigint; scale: bigint | undefined }>()
    const scaleOf = (params: SimulateExecute, gasUsed: bigint) =>
      params.gasExpected !== undefined && params.gasExpected > 0n ? (gasUsed * 10_000n) / params.gasExpected : undefined
    const learn = (shape: string, params: SimulateExecute, gasUsed: bigint, limit: bigint) =>
      Effect.sync(() => {
        shapes.delete(shape)
        shapes.set(shape, { ratio: (limit * 10_000n + gasUsed - 1n) / gasUsed, scale: scaleOf(params, gasUsed) })
        if (shapes.size > SHAPE_CAPACITY) shapes.delete(shapes.keys().next().value!)
      })
    /** The gas used over the model's figure, kept for the shape's next prediction. */
    const learnScale = (params: SimulateExecute, gasUsed: bigint) => {
      const known = params.gasShape === undefined ? undefined : shapes.get(params.gasShape)
      if (known !== undefined) known.scale = scaleOf(params, gasUsed)
    }
    /** The limit a shape's one check sets for a call that used `gasUsed`. */
    const shapeLimit = (ratio: bigint, gasUsed: bigint) => (gasUsed * (ratio + SHAPE_MARGIN_BPS) + 9_999n) / 10_000n

    /**
     * The least limit for a call that used `gasUsed`: a shape seen before is checked once, at its
     * last ratio plus a grid step (the limit is then at most that much above the least); otherwise,
     * or when that check runs out of gas, the grid.
     */
    const leastLimit = (params: SimulateExecute, stateOverride: StateOverride, gasUsed: bigint) =>
      Effect.gen(function* () {
        const shape = params.gasShape
        const ratio = shape === undefined ? undefined : shapes.get(shape)?.ratio
        if (ratio !== undefined) {
          const limit = shapeLimit(ratio, gasUsed)
          const [calls] = yield* simulateNext(params, stateOverride, [callOf(params, limit)])
          if (calls![0]!.success) return yield* Effect.as(searched("shape"), limit)
        }
        const limit = yield* searchGrid(params, stateOverride, gasUsed)
        if (shape !== undefined && limit !== undefined) yield* learn(shape, params, gasUsed, limit)
        return limit
      })

    /**
     * A shape seen before, with the gas model's figure: the call run once, at the limit predicted
     * from both (the gas used over the model's figure, and the least limit over the gas used, as
     * the shape last needed). Kept when it succeeds there and is not too far above the gas it used;
     * otherwise the gas used finds the limit, as for a shape seen before. Undefined when not
     * predicted or when the call failed at it (out of gas, or refused at any limit: the check decides).
     */
    const predicted = (params: SimulateExecute, stateOverride: StateOverride) =>
      Effect.gen(function* () {
        const known = params.gasShape === undefined ? undefined : shapes.get(params.gasShape)
        if (known?.scale === undefined || params.gasExpected === undefined || !simulateV1) return undefined
        const runAt = (gas: bigint) =>
          // a node without eth_simulateV1 is found out by the check that follows
          simulateNext(params, stateOverride, [callOf(params, gas)]).pipe(
            Effect.map((blocks) => blocks[0]![0]!),
            Effect.catchTag("RpcError", (e) => (e.reason === "unsupported" ? Effect.succeed(undefined) : Effect.fail(e))),
          )
        let gas = (params.gasExpected * known.scale * (known.ratio + SHAPE_MARGIN_BPS) + 99_999_999n) / 100_000_000n
        let call = yield* runAt(gas)
        // a call that ran out of gas, itself or in a call it made (which then reverts with its own
        // reason), used nearly all its limit (all but the 1/64 each call keeps back): once more,
        // a shape's margin higher, in case the least lies just above this limit
        if (call !== undefined && !call.success && call.gasUsed * OUT_OF_GAS_DENOMINATOR >= gas * OUT_OF_GAS_NUMERATOR) {
          gas = (gas * (known.ratio + SHAPE_MARGIN_BPS) + known.ratio - 1n) / known.ratio
          call = yield* runAt(gas)
        }
        if (call === undefined || !call.success) return undefined
        learnScale(params, call.gasUsed)
        const checked = { ok: true, gasUsed: call.gasUsed, returnData: call.data } as const
        return gas * 10_000n <= call.gasUsed * (known.ratio + PREDICTED_CEILING_BPS) ? { checked, limit: gas } : { checked, limit: undefined }
      })

    // its span without the caller's stack (Effect.fn would make an Error on every /swap for it)
    const simulateExecute = (params: SimulateExecute) => Effect.gen(function* () {
      const { state: stateOverride, coversGrid } = yield* overrides(params)
      const first = params.findGasLimit === true && coversGrid ? yield* predicted(params, stateOverride) : undefined
      if (first?.limit !== undefined) return yield* Effect.as(searched("predicted"), { ok: true, gasLimit: first.limit, returnData: first.checked.returnData } as const)
      const outcome: Checked = first?.checked ?? (yield* check(params, stateOverride))
      if (!outcome.ok || params.findGasLimit !== true) return outcome.ok ? ({ ok: true, returnData: outcome.returnData } as const) : outcome
      if (first === undefined && outcome.gasUsed !== undefined) learnScale(params, outcome.gasUsed)
      const limit = outcome.gasUsed !== undefined && coversGrid
        ? yield* leastLimit(params, stateOverride, outcome.gasUsed)
        : yield* Effect.zipLeft(estimate(params, stateOverride), searched("estimate"))
      // it succeeds as the next block but not with any limit on the block's own state: a refusal all the same
      if (limit === undefined) return { ok: false, revertData: "0x" } as const
      return { ok: true, gasLimit: limit, returnData: outcome.returnData } as const
    }).pipe(traced("Simulator.simulateExecute"))

    return { simulateExecute } satisfies SimulatorShape
  })
