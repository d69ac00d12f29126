// The routability check: whether a token's transfers move exactly what they
// say. Half of a holder's balance goes out to a fresh account and back, with
// the probe contract's code standing in for both accounts (state overrides,
// nothing sent on chain), and the holder's balance is read now and a horizon
// later. Tokens that tax, rebase or restrict transfers are never routed.
import { Effect, Option } from "effect"
import { decodeAbiParameters, decodeFunctionResult, encodeFunctionData, parseAbi, type Address, type Hex } from "viem"
import { read, type Read, type RpcBlock, type RpcError, type RpcService } from "../chain/index.ts"
import { ownArtifact } from "../contracts/index.ts"
import type { Routability, UnroutableReason } from "../domain/index.ts"

const ERC20_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function balanceOf(address) view returns (uint256)",
])

const PROBE_ABI = parseAbi([
  "function probe(address token, address to, uint256 amount) returns (int256 sent, int256 received)",
  "function roundTrip(address token, address to, uint256 amount) returns (int256 sentOut, int256 receivedOut, bool backOk, int256 sentBack, int256 receivedBack)",
])

/** What one transfer moved, or undefined when it reverted. */
type Leg = { readonly sent: bigint; readonly received: bigint } | undefined

/** The probe's findings: both legs of the round trip, and the holder's balance now and a horizon later (undefined: unreadable). */
interface ProbeFindings {
  readonly out: Leg
  readonly back: Leg
  readonly balanceNow: bigint | undefined
  readonly balanceLater: bigint | undefined
}

/** The account that receives the probe's transfer and sends it back; it never exists on chain. */
export const PROBE_RECEIVER: Address = "0x7e57000000000000000000000000000000007e57"

const decodeInt = (data: Hex): readonly [bigint, bigint] =>
  decodeAbiParameters([{ type: "int256" }, { type: "int256" }], data)

/** The check over one node, with rebasing looked for `horizon` seconds ahead. */
/** `latestBlock`: the head's block, read once for many checks made at about the same time. */
export const makeRoutabilityCheck = (rpc: RpcService, horizon: bigint, latestBlock: Effect.Effect<RpcBlock, RpcError> = rpc.getBlock()) => {
  const probeCode = ownArtifact("TokenTransferProbe").deployedBytecode
  const probeAt = (from: Address, to: Address, token: Address, amount: bigint) =>
    ({ to: from, data: encodeFunctionData({ abi: PROBE_ABI, functionName: "probe", args: [token, to, amount] }) }) as const
  const probeOverrides = (holder: Address) => [
    { address: holder, code: probeCode },
    { address: PROBE_RECEIVER, code: probeCode },
  ]
  const balanceCall = (token: Address, holder: Address) =>
    ({ to: token, data: encodeFunctionData({ abi: ERC20_ABI, functionName: "balanceOf", args: [holder] }) }) as const
  const leg = (call: { readonly success: boolean; readonly data: Hex }): Leg => {
    if (!call.success) return undefined
    const [sent, received] = decodeInt(call.data)
    return { sent, received }
  }
  const uint = (call: { readonly success: boolean; readonly data: Hex }) => (call.success && call.data.length === 66 ? BigInt(call.data) : undefined)

  /** eth_simulateV1: both legs and the balance in one block, the balance again a horizon later. */
  const probeBySimulation = (token: Address, holder: Address, amount: bigint, start: bigint) =>
    rpc
      .simulate([
        {
          blockOverrides: { time: start },
          stateOverrides: probeOverrides(holder),
          calls: [probeAt(holder, PROBE_RECEIVER, token, amount), probeAt(PROBE_RECEIVER, holder, token, amount), balanceCall(token, holder)],
        },
        { blockOverrides: { time: start + horizon }, calls: [balanceCall(token, holder)] },
      ])
      .pipe(
        Effect.map(([first, later]): ProbeFindings => ({
          out: leg(first![0]!),
          back: leg(first![1]!),
          balanceNow: uint(first![2]!),
          balanceLater: uint(later![0]!),
        })),
      )

  /** For a node without eth_simulateV1: the round trip in one eth_call, the balances in two (the later one with a block override). */
  const probeByCalls = (token: Address, holder: Address, amount: bigint, start: bigint) =>
    Effect.gen(function* () {
      const trip = yield* rpc
        .call({ to: holder, data: encodeFunctionData({ abi: PROBE_ABI, functionName: "roundTrip", args: [token, PROBE_RECEIVER, amount] }), stateOverride: probeOverrides(holder) })
        .pipe(
          Effect.map((data) => decodeFunctionResult({ abi: PROBE_ABI, functionName: "roundTrip", data })),
          // only a revert means the way out failed; any other failure is the node's
          Effect.map(Option.some),
          Effect.catchTag("RpcError", (e) => (e.reason === "revert" ? Effect.succeed(Option.none()) : Effect.fail(e))),
        )
      const balanceAt = (time: bigint) =>
        rpc.call({ ...balanceCall(token, holder), blockOverrides: { time } }).pipe(Effect.map((data) => uint({ success: true, data })))
      const [balanceNow, balanceLater] = yield* Effect.all([balanceAt(start), balanceAt(start + horizon)], { concurrency: 2 })
      if (trip._tag === "None") return { out: undefined, back: undefined, balanceNow, balanceLater } satisfies ProbeFindings
      const [sentOut, receivedOut, backOk, sentBack, receivedBack] = trip.value
      return {
        out: { sent: sentOut, received: receivedOut },
        back: backOk ? { sent: sentBack, received: receivedBack } : undefined,
        balanceNow,
        balanceLater,
      } satisfies ProbeFindings
    })

  // a node without eth_simulateV1 (method not found) is probed with eth_call from then on
  let simulateV1 = true
  const probeToken = (token: Address, holder: Address, amount: bigint, start: bigint): Effect.Effect<ProbeFindings, RpcError> =>
    !simulateV1
      ? probeByCalls(token, holder, amount, start)
      : probeBySimulation(token, holder, amount, start).pipe(
          Effect.catchTag("RpcError", (e) =>
            e.reason !== "unsupported"
              ? Effect.fail(e)
              : Effect.sync(() => (simulateV1 = false)).pipe(Effect.zipRight(probeByCalls(token, holder, amount, start))),
          ),
        )

  const check = (token: Address, holders: readonly Address[]) =>
    Effect.gen(function* () {
      const reads = [
        read({ address: token, abi: ERC20_ABI, functionName: "decimals", args: [] }) as Read<unknown>,
        ...holders.map((h) => read({ address: token, abi: ERC20_ABI, functionName: "balanceOf", args: [h] }) as Read<unknown>),
      ]
      const [head, results] = yield* Effect.all([latestBlock, rpc.multicall(reads)], { concurrency: 2 })
      if (!results[0]!.success) {
        return { routable: false, reason: "not-a-token", detail: `${token} does not answer decimals()` } satisfies Routability
      }
      let holder: Address | undefined
      let balance = 0n
      for (const [i, h] of holders.entries()) {
        const r = results[i + 1]!
        if (r.success && (r.value as bigint) > balance) {
          holder = h
          balance = r.value as bigint
        }
      }
      if (holder === undefined) {
        return { routable: false, reason: "unverified", detail: "no known holder has a balance to probe with" } satisfies Routability
      }
      // Half the holder's balance out to a fresh account and back, then the holder's balance
      // now and a horizon later. The probe's code stands in for both accounts' code for the
      // simulation only; the token still sees their real balances.
      const amount = balance / 2n > 0n ? balance / 2n : balance
      const findings = yield* probeToken(token, holder, amount, head.timestamp + 1n)
      const { out, back, balanceNow, balanceLater } = findings
      if (balanceNow !== undefined && balanceLater !== undefined && balanceNow !== balanceLater) {
        return {
          routable: false,
          reason: "rebasing",
          detail: `the holder's balance changes from ${balanceNow} to ${balanceLater} without a transfer`,
        } satisfies Routability
      }
      for (const [leg, outcome] of [["out of a holder", out], ["back to the holder", back]] as const) {
        if (outcome === undefined) {
          return { routable: false, reason: "transfer-restricted", detail: `a transfer ${leg} reverts` } satisfies Routability
        }
        const { sent, received } = outcome
        if (sent === amount && received < amount) {
          return {
            routable: false,
            reason: "fee-on-transfer",
            detail: `a transfer ${leg} of ${amount} delivers ${received}`,
          } satisfies Routability
        }
        if (sent !== amount || received !== amount) {
          return {
            routable: false,
            reason: "irregular-transfer",
            detail: `a transfer ${leg} of ${amount} debits ${sent} and credits ${received}`,
          } satisfies Routability
        }
      }
      return { routable: true } satisfies Routability
    })

  return check
}
