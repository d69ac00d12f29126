// Simulates a route executor call from its sender, with the balance and
// allowance the sender will have filled in by state overrides, so the check
// works before the approval is sent.
import { Context, Effect, Layer } from "effect"
import { numberToHex, type Address, type Hex, type StateOverride } from "viem"
import { USDC_ERC20_ADDRESS, USDC_NATIVE_SCALE } from "../tokens/index.ts"
import { Rpc, RpcError, toRpcError, type RpcService } from "./rpc.ts"
import { allowanceKey, balanceKey, findAllowanceSlot, findBalanceSlot, type MappingSlot } from "./storage-slots.ts"

// Arc's USDC ERC-20 keeps no balances: they are native balances, so its balance is overridden as native
const USDC_ERC20 = USDC_ERC20_ADDRESS.toLowerCase()

export interface SimulateExecute {
  readonly sender: Address
  readonly executor: Address
  readonly data: Hex
  /** native value sent (native input) */
  readonly value: bigint
  /** the ERC-20 the executor pulls from the sender; undefined for native input */
  readonly pulls?: { readonly token: Address; readonly amount: bigint }
  /** the block the route was priced at: the call runs on its state, as the block after it */
  readonly block: { readonly number: bigint; readonly timestamp: bigint }
  /** also find the least gas limit at which the call succeeds */
  readonly findGasLimit?: boolean
}

export type SimulationOutcome =
  | {
      readonly ok: true
      /** the least gas limit at which the call succeeds, when asked for (before refunds, EIP-150's 1/64 included) */
      readonly gasLimit?: bigint
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
  static readonly layer = Layer.effect(Simulator, Effect.map(Rpc, (rpc) => makeSimulator(rpc)))
}

interface TokenSlots {
  readonly balance: MappingSlot | undefined
  readonly allowance: MappingSlot | undefined
}

/** Enough native balance for the value, plus room the sender's own balance may lack. */
const NATIVE_HEADROOM = 10n ** 24n

export const makeSimulator = (rpc: RpcService): SimulatorShape => {
  // per token, found once; a failed look-up is not cached
  const slots = new Map<string, TokenSlots>()

  const slotsOf = (token: Address) =>
    Effect.gen(function* () {
      const key = token.toLowerCase()
      const known = slots.get(key)
      if (known !== undefined) return known
      const [balance, allowance] = yield* Effect.all(
        [key === USDC_ERC20 ? Effect.succeed(undefined) : findBalanceSlot(rpc, token), findAllowanceSlot(rpc, token)],
        { concurrency: 2 },
      )
      const found: TokenSlots = { balance, allowance }
      slots.set(key, found)
      return found
    })

  const overrides = (params: SimulateExecute) =>
    Effect.gen(function* () {
      const state: StateOverride = []
      let senderBalance = params.value + NATIVE_HEADROOM
      if (params.pulls !== undefined) {
        const { token, amount } = params.pulls
        const found = yield* slotsOf(token)
        const stateDiff: { slot: Hex; value: Hex }[] = []
        if (token.toLowerCase() === USDC_ERC20) senderBalance += amount * USDC_NATIVE_SCALE
        else if (found.balance !== undefined) stateDiff.push({ slot: balanceKey(found.balance, params.sender), value: numberToHex(amount, { size: 32 }) })
        if (found.allowance !== undefined) {
          stateDiff.push({ slot: allowanceKey(found.allowance, params.sender, params.executor), value: numberToHex(amount, { size: 32 }) })
        }
        if (stateDiff.length > 0) state.push({ address: token, stateDiff })
      }
      state.push({ address: params.sender, balance: senderBalance })
      return state
    })

  // eth_simulateV1 runs the call as the next block; a node without it (method not found) is asked
  // with eth_call on the block's own state instead, from then on
  let simulateV1 = true

  const check = (params: SimulateExecute, stateOverride: StateOverride): Effect.Effect<SimulationOutcome, RpcError> => {
    const { number, timestamp } = params.block
    const viaCall = rpc
      .call({ from: params.sender, to: params.executor, data: params.data, value: params.value, blockNumber: number, stateOverride })
      .pipe(
        Effect.as<SimulationOutcome>({ ok: true }),
        Effect.catchTag("RpcError", (e) =>
          e.reason === "revert" ? Effect.succeed<SimulationOutcome>({ ok: false, revertData: e.revertData ?? "0x" }) : Effect.fail(e),
        ),
      )
    if (!simulateV1) return viaCall
    return rpc
      .simulate(
        [
          {
            // based explicitly on the priced block: the overrides move forward from it, as geth and reth require
            blockOverrides: { number: number + 1n, time: timestamp + 1n },
            stateOverrides: stateOverride,
            calls: [{ from: params.sender, to: params.executor, data: params.data, value: params.value }],
          },
        ],
        { blockNumber: number },
      )
      .pipe(
        Effect.map((blocks): SimulationOutcome => {
          const call = blocks[0]![0]!
          return call.success ? { ok: true } : { ok: false, revertData: call.data }
        }),
        Effect.catchTag("RpcError", (e) =>
          e.reason !== "unsupported"
            ? Effect.fail(e)
            : Effect.logWarning(`the node does not offer eth_simulateV1 (${e.message}): simulating with eth_call and eth_estimateGas`).pipe(
                Effect.zipRight(Effect.sync(() => (simulateV1 = false))),
                Effect.zipRight(viaCall),
              ),
        ),
      )
  }

  /** The node's search for the least limit that succeeds, on the same state; undefined when the call reverts. */
  const leastGasLimit = (params: SimulateExecute, stateOverride: StateOverride) =>
    rpc
      .estimateGas({ from: params.sender, to: params.executor, data: params.data, value: params.value, blockNumber: params.block.number, stateOverride })
      .pipe(
        Effect.map((gas): { readonly gas: bigint } | { readonly revertData: Hex } => ({ gas })),
        Effect.catchTag("RpcError", (e) => (e.reason === "revert" ? Effect.succeed({ revertData: e.revertData ?? ("0x" as Hex) }) : Effect.fail(e))),
      )

  const simulateExecute = Effect.fn("Simulator.simulateExecute")(function* (params: SimulateExecute) {
    const stateOverride = yield* overrides(params)
    if (params.findGasLimit !== true) return yield* check(params, stateOverride)
    const [outcome, limit] = yield* Effect.all([check(params, stateOverride), leastGasLimit(params, stateOverride)], { concurrency: 2 })
    if (!outcome.ok) return outcome
    // the call succeeds as the next block but not on the block's own state: a refusal all the same
    if ("revertData" in limit) return { ok: false, revertData: limit.revertData } as const
    return { ok: true, gasLimit: limit.gas } as const
  })

  return { simulateExecute }
}
