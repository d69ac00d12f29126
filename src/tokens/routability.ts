// The routability check: whether a token's transfers move exactly what they
// say. Half of a holder's balance goes out to a fresh account and back, with
// the probe contract's code standing in for both accounts (state overrides,
// nothing sent on chain), and the holder's balance is read now and a horizon
// later. Tokens that tax, rebase or restrict transfers are never routed. Many
// tokens are checked together: their balances in one batched read, their probes
// many to an eth_simulateV1 request.
import { Effect, Either, Option } from "effect"
import { decodeAbiParameters, decodeFunctionResult, encodeFunctionData, parseAbi, type Address, type Hex } from "viem"
import { read, type Read, type RpcBlock, type RpcError, type RpcService } from "../chain/index.ts"
import { ownArtifact } from "../contracts/index.ts"
import type { Routability } from "../domain/index.ts"

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

/** One token's probe: `amount` of `token` out of `holder` and back. */
interface Probe {
  readonly token: Address
  readonly holder: Address
  readonly amount: bigint
}

/** A token to check, and the accounts that may hold it (the first with the largest balance probes). */
export interface TokenToCheck {
  readonly token: Address
  readonly holders: readonly Address[]
}

/** Most tokens probed in one eth_simulateV1 request (some 150k gas each; nodes cap a request's gas near 50M). */
export const PROBES_PER_SIMULATION = 32

/** The account that receives the probe's transfer and sends it back; it never exists on chain. */
export const PROBE_RECEIVER: Address = "0x7e57000000000000000000000000000000007e57"

const decodeInt = (data: Hex): readonly [bigint, bigint] =>
  decodeAbiParameters([{ type: "int256" }, { type: "int256" }], data)

/**
 * The check of many tokens over one node, with rebasing looked for `horizon` seconds ahead: each
 * question's answer, or the node's failure for it. `latestBlock`: the head's block.
 */
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

  /**
   * eth_simulateV1 for many tokens at once: in the first block, each token's two legs and its
   * holder's balance; in the second, a horizon later, each holder's balance again. One token's
   * failed call (a revert, its gas spent) is its own finding; the others' calls run as alone.
   */
  const probeBySimulation = (probes: readonly Probe[], start: bigint) => {
    const holders = new Map<string, Address>()
    for (const { holder } of probes) holders.set(holder.toLowerCase(), holder)
    holders.set(PROBE_RECEIVER.toLowerCase(), PROBE_RECEIVER)
    return rpc
      .simulate([
        {
          blockOverrides: { time: start },
          stateOverrides: [...holders.values()].map((address) => ({ address, code: probeCode })),
          calls: probes.flatMap(({ token, holder, amount }) => [
            probeAt(holder, PROBE_RECEIVER, token, amount),
            probeAt(PROBE_RECEIVER, holder, token, amount),
            balanceCall(token, holder),
          ]),
        },
        { blockOverrides: { time: start + horizon }, calls: probes.map(({ token, holder }) => balanceCall(token, holder)) },
      ])
      .pipe(
        Effect.map(([first, later]) =>
          probes.map((_, i): ProbeFindings => ({
            out: leg(first![3 * i]!),
            back: leg(first![3 * i + 1]!),
            balanceNow: uint(first![3 * i + 2]!),
            balanceLater: uint(later![i]!),
          })),
        ),
      )
  }

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
  /**
   * Each probe's findings, or the node's failure for it. A request the node fails whole is split
   * in two and each half sent again, down to one token: a token that fails the request fails
   * only its own check.
   */
  const probeAll = (probes: readonly Probe[], start: bigint): Effect.Effect<Either.Either<ProbeFindings, RpcError>[]> =>
    !simulateV1
      ? Effect.forEach(probes, ({ token, holder, amount }) => Effect.either(probeByCalls(token, holder, amount, start)), { concurrency: 8 })
      : probeBySimulation(probes, start).pipe(
          Effect.map((findings) => findings.map((f) => Either.right(f))),
          Effect.catchTag("RpcError", (e) => {
            if (e.reason === "unsupported") return Effect.sync(() => (simulateV1 = false)).pipe(Effect.zipRight(probeAll(probes, start)))
            if (probes.length === 1) return Effect.succeed([Either.left(e)])
            const half = Math.ceil(probes.length / 2)
            return Effect.all([probeAll(probes.slice(0, half), start), probeAll(probes.slice(half), start)], { concurrency: 2 }).pipe(
              Effect.map(([left, right]) => [...left, ...right]),
            )
          }),
        )

  /** What a probe's findings say of the token. */
  const verdictOf = ({ out, back, balanceNow, balanceLater }: ProbeFindings, amount: bigint): Routability => {
    if (balanceNow !== undefined && balanceLater !== undefined && balanceNow !== balanceLater) {
      return {
        routable: false,
        reason: "rebasing",
        detail: `the holder's balance changes from ${balanceNow} to ${balanceLater} without a transfer`,
      }
    }
    for (const [leg, outcome] of [["out of a holder", out], ["back to the holder", back]] as const) {
      if (outcome === undefined) {
        return { routable: false, reason: "transfer-restricted", detail: `a transfer ${leg} reverts` }
      }
      const { sent, received } = outcome
      if (sent === amount && received < amount) {
        return { routable: false, reason: "fee-on-transfer", detail: `a transfer ${leg} of ${amount} delivers ${received}` }
      }
      if (sent !== amount || received !== amount) {
        return { routable: false, reason: "irregular-transfer", detail: `a transfer ${leg} of ${amount} debits ${sent} and credits ${received}` }
      }
    }
    return { routable: true }
  }

  /**
   * The checks of many tokens together: every token's decimals and holders' balances in one
   * batched read, then the probes, PROBES_PER_SIMULATION tokens to an eth_simulateV1 request.
   * In one request the holders of every token probed run the probe's code: a token found
   * unroutable there is probed again alone, so that its verdict is the one it gets alone.
   */
  const checkAll = (questions: readonly TokenToCheck[]): Effect.Effect<Either.Either<Routability, RpcError>[], RpcError> =>
    Effect.gen(function* () {
      const reads: Read<unknown>[] = []
      const firstRead = questions.map(({ token, holders }) => {
        const at = reads.length
        reads.push(read({ address: token, abi: ERC20_ABI, functionName: "decimals", args: [] }) as Read<unknown>)
        for (const h of holders) reads.push(read({ address: token, abi: ERC20_ABI, functionName: "balanceOf", args: [h] }) as Read<unknown>)
        return at
      })
      const [head, results] = yield* Effect.all([latestBlock, rpc.multicall(reads)], { concurrency: 2 })
      const answers: Either.Either<Routability, RpcError>[] = []
      const probes: (Probe & { readonly question: number })[] = []
      for (const [q, { token, holders }] of questions.entries()) {
        const at = firstRead[q]!
        if (!results[at]!.success) {
          answers[q] = Either.right({ routable: false, reason: "not-a-token", detail: `${token} does not answer decimals()` })
          continue
        }
        let holder: Address | undefined
        let balance = 0n
        for (const [i, h] of holders.entries()) {
          const r = results[at + 1 + i]!
          if (r.success && (r.value as bigint) > balance) {
            holder = h
            balance = r.value as bigint
          }
        }
        if (holder === undefined) {
          answers[q] = Either.right({ routable: false, reason: "unverified", detail: "no known holder has a balance to probe with" })
          continue
        }
        // Half the holder's balance out to a fresh account and back, then the holder's balance
        // now and a horizon later. The probe's code stands in for both accounts' code for the
        // simulation only; the token still sees their real balances.
        probes.push({ question: q, token, holder, amount: balance / 2n > 0n ? balance / 2n : balance })
      }
      const start = head.timestamp + 1n
      const groups: (typeof probes)[] = []
      for (let i = 0; i < probes.length; i += PROBES_PER_SIMULATION) groups.push(probes.slice(i, i + PROBES_PER_SIMULATION))
      const found = yield* Effect.forEach(groups, (group) => probeAll(group, start), { concurrency: 4 })
      const alone: (typeof probes)[number][] = []
      for (const [g, group] of groups.entries()) {
        for (const [i, probe] of group.entries()) {
          const findings = found[g]![i]!
          const answer = Either.map(findings, (f) => verdictOf(f, probe.amount))
          if (group.length > 1 && Either.isRight(answer) && !answer.right.routable) alone.push(probe)
          else answers[probe.question] = answer
        }
      }
      yield* Effect.forEach(
        alone,
        (probe) =>
          Effect.map(probeAll([probe], start), ([findings]) => {
            answers[probe.question] = Either.map(findings!, (f) => verdictOf(f, probe.amount))
          }),
        { concurrency: 8, discard: true },
      )
      return answers
    })

  return checkAll
}
