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
  /** the head block, when the caller knows it (saves a round trip); read from the node otherwise */
  readonly head?: { readonly number: bigint; readonly timestamp: bigint }
}

export type SimulationOutcome =
  | { readonly ok: true; readonly gasUsed: bigint }
  | { readonly ok: false; readonly revertData: Hex }

export interface SimulatorShape {
  /** fails with RpcError only when the check cannot run (node unreachable, say) */
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

  const simulateExecute = Effect.fn("Simulator.simulateExecute")(function* (params: SimulateExecute) {
    const stateOverrides = yield* overrides(params)
    const latest = params.head ?? (yield* rpc.getBlock())
    // the next block, as the transaction will be mined: gas and block.timestamp as then
    const result = yield* Effect.tryPromise({
      try: () =>
        rpc.client.simulateBlocks({
          blocks: [
            {
              blockOverrides: { number: latest.number + 1n, time: latest.timestamp + 1n },
              stateOverrides,
              calls: [{ account: params.sender, to: params.executor, data: params.data, value: params.value }],
            },
          ],
        }),
      catch: toRpcError("eth_simulateV1"),
    })
    const call = result[0]?.calls[0]
    if (call === undefined) return yield* new RpcError({ reason: "decode", method: "eth_simulateV1", message: "no call result" })
    if (call.status === "success") return { ok: true, gasUsed: call.gasUsed } as const
    return { ok: false, revertData: ((call as { data?: Hex }).data ?? "0x") as Hex } as const
  })

  return { simulateExecute }
}
