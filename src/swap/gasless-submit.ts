// /gasless/submit and /gasless/status. A signed order is checked before the
// relayer accepts it: its tradeHash (the EIP-712 digest over this chain and
// executor) already known answers at once (sent once); then the relayer's
// readiness, the signature (ECDSA recovering to order.sender, low-s, or
// ERC-1271 for a contract sender), the deadline at the head, then, read from
// the node together, the nonce, the permit's signature at the token's nonce,
// and the order planned at the head as the relayer will send it (priced again,
// simulated with the real signatures). A check that
// fails looks once more for the tradeHash: the same order accepted meanwhile
// (by another instance) is answered, not refused for its nonce.
import { Effect } from "effect"
import { decodeFunctionResult, encodeFunctionData, hashTypedData, parseAbi, recoverTypedDataAddress, type Address, type Hex } from "viem"
import { encodeNonceUsed, NONCE_USED_ABI, ORDER_ERRORS, readTogether, Rpc, senderFunds, type RpcError } from "../chain/index.ts"
import { swapOrderTypedData } from "../domain/index.ts"
import { Relayer, type RelayerUnavailable } from "../relayer/index.ts"
import { Tokens } from "../tokens/index.ts"
import { InvalidRequest, OrderNotFound, SimulationFailed, Unavailable, type GaslessError } from "./errors.ts"
import type { GaslessStatusResponse, GaslessSubmitRequest, GaslessSubmitResponse } from "./gasless.ts"
import type { GaslessSettings } from "./gasless-quote.ts"
import { planOrder, type OrderPlan, type PlanError, type SignedOrder } from "./order-plan.ts"
import { canonicalSignature, checkPermitSignature } from "./permit.ts"

const ERC1271_ABI = parseAbi(["function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)"])
const ERC1271_MAGIC = "0x1626ba7e"

const unreadable = (what: string) => (e: RpcError) => new Unavailable({ detail: `${what} could not be read: ${e.method} ${e.reason}: ${e.message}`, retryAfterSeconds: 1 })

/** The relayer short of USDC (or its node unreachable): 503 with its reason and Retry-After. */
export const relayerUnavailable = (e: RelayerUnavailable) =>
  new Unavailable({ message: `the relayer cannot send orders now: ${e.reason}; retry later`, detail: e.reason, retryAfterSeconds: e.retryAfterSeconds })

const storeUnavailable = (e: { readonly message: string }) => new Unavailable({ detail: `the order store: ${e.message}`, retryAfterSeconds: 1 })

/** A refusal of the planner, as the client is told: the field it is about, or SIMULATION_FAILED. */
export const planRefusal = (e: PlanError): GaslessError => {
  switch (e._tag) {
    case "OrderExpired":
    case "RelayerFeeAboveMax":
      return new InvalidRequest({ message: e.message })
    case "OrderReverted": {
      const field = e.reason !== undefined && Object.hasOwn(ORDER_ERRORS, e.reason) ? ORDER_ERRORS[e.reason as keyof typeof ORDER_ERRORS] : undefined
      if (field !== undefined) return new InvalidRequest({ message: `${field}: the executor refuses the order (${e.reason})` })
      return new SimulationFailed({ ...(e.reason !== undefined ? { reason: e.reason } : {}), message: e.message })
    }
    default:
      return e
  }
}

/**
 * The signature the executor is given: for a sender whose signature recovers by ECDSA, the 65-byte
 * (r, s, v) form with s low; for a contract sender (ERC-1271) the signature as sent. A refusal names
 * `signature`.
 */
const checkOrderSignature = (settings: GaslessSettings, signed: SignedOrder, digest: Hex, blockNumber: bigint): Effect.Effect<Hex, InvalidRequest | Unavailable, Rpc> =>
  Effect.gen(function* () {
    const { order, signature } = signed
    const canonical = signature.length === 130 || signature.length === 132 ? canonicalSignature(signature) : { problem: "is not a 65-byte (r, s, v) or 64-byte (EIP-2098) signature" }
    let recovered: Address | undefined
    if ("signature" in canonical) {
      recovered = yield* Effect.promise(() =>
        recoverTypedDataAddress({ ...swapOrderTypedData(settings.chainId, settings.executor, order), signature: canonical.signature }).catch(() => undefined))
      if (recovered?.toLowerCase() === order.sender.toLowerCase()) return canonical.signature
    }
    // a contract wallet answers for itself (ERC-1271); an account without code answers nothing
    const rpc = yield* Rpc
    const answer = yield* rpc
      .call({ to: order.sender, data: encodeFunctionData({ abi: ERC1271_ABI, functionName: "isValidSignature", args: [digest, signature] }), blockNumber })
      .pipe(
        Effect.map((data): Hex | undefined => data),
        Effect.catchTag("RpcError", (e) => (e.reason === "revert" ? Effect.succeed(undefined) : Effect.fail(unreadable("the sender's ERC-1271 answer")(e)))),
      )
    if (answer !== undefined && answer.length >= 10 && answer.slice(0, 10).toLowerCase() === ERC1271_MAGIC) return signature
    if ("problem" in canonical) return yield* new InvalidRequest({ message: `signature: ${canonical.problem}` })
    return yield* new InvalidRequest({
      message: `signature: does not recover to order.sender ${order.sender} for this order on chain ${settings.chainId} at the executor ${settings.executor}` +
        `${recovered !== undefined ? ` (it recovers to ${recovered})` : ""}; sign the order's typedData exactly as /gasless/quote returned it`,
    })
  })

/** Whether the sender's order of this nonce was filled or cancelled, at `blockNumber`. */
const nonceUsed = (executor: Address, sender: Address, nonce: bigint, blockNumber: bigint): Effect.Effect<boolean, Unavailable, Rpc> =>
  Effect.flatMap(Rpc, (rpc) =>
    rpc.call({ to: executor, data: encodeNonceUsed(sender, nonce), blockNumber }).pipe(
      Effect.map((data) => decodeFunctionResult({ abi: NONCE_USED_ABI, functionName: "nonceUsed", data }) as boolean),
      Effect.mapError(unreadable("the order's nonce")),
    ))

/** The permit's signature (65 bytes, s low), or what is wrong with its form. */
const permitForm = (permitSignature: Hex): Effect.Effect<Hex, InvalidRequest> => {
  const canonical = canonicalSignature(permitSignature)
  return "problem" in canonical ? Effect.fail(new InvalidRequest({ message: `permit.signature: ${canonical.problem}` })) : Effect.succeed(canonical.signature)
}

/** Refuses a permit signature (its form checked) that does not recover to the sender for value = order.amountIn, deadline = order.deadline at the token's current nonce. */
const checkPermit = (settings: GaslessSettings, signed: SignedOrder, signature: Hex, blockNumber: bigint): Effect.Effect<void, InvalidRequest | Unavailable, Tokens | Rpc> =>
  Effect.gen(function* () {
    const { order } = signed
    const domain = yield* (yield* Tokens).permitDomain(order.tokenIn).pipe(Effect.mapError(unreadable("tokenIn's permit domain")))
    if (domain === null) return yield* new InvalidRequest({ message: `permit: tokenIn ${order.tokenIn} does not implement EIP-2612 permits; approve the executor instead and submit without permit` })
    const funds = yield* senderFunds(yield* Rpc, { sender: order.sender, blockNumber, token: { address: order.tokenIn, spender: settings.executor, permitNonce: true } }).pipe(
      Effect.mapError(unreadable("the sender's permit nonce")),
    )
    const problem = yield* Effect.promise(() =>
      checkPermitSignature({
        domain,
        sender: order.sender,
        executor: settings.executor,
        permit: { value: order.amountIn, deadline: order.deadline, signature },
        signature,
        nonce: funds.permitNonce!,
        allowance: funds.allowance ?? 0n,
      }))
    if (problem !== undefined) return yield* new InvalidRequest({ message: `permit.signature: ${problem} (the permit's value is order.amountIn, its deadline order.deadline)` })
  })

export interface SubmitDependencies {
  /** the order planned at the head, as the relayer will send it */
  readonly plan: (signed: SignedOrder) => Effect.Effect<OrderPlan, PlanError>
}

export const gaslessSubmitProgram = (
  settings: GaslessSettings,
  deps: SubmitDependencies,
  request: GaslessSubmitRequest,
): Effect.Effect<GaslessSubmitResponse, GaslessError, Relayer | Rpc | Tokens> =>
  Effect.gen(function* () {
    const relayer = yield* Relayer
    const { order } = request
    const digest = hashTypedData(swapOrderTypedData(settings.chainId, settings.executor, order))
    // the same signed order again: its tradeHash, and nothing sent twice
    const known = yield* relayer.find(digest).pipe(Effect.mapError(storeUnavailable))
    if (known !== undefined) return { tradeHash: known.tradeHash, status: known.status }
    return yield* checkAndAccept(settings, deps, request, digest).pipe(
      // accepted meanwhile (by another instance, or the same order sent twice at once): its nonce
      // may be used already, but it is the same order, answered by its tradeHash
      Effect.catchAll((refusal) =>
        relayer.find(digest).pipe(
          Effect.orElseSucceed(() => undefined),
          Effect.flatMap((again) => (again === undefined ? Effect.fail(refusal) : Effect.succeed({ tradeHash: again.tradeHash, status: again.status }))),
        )),
    )
  })

/** The checks of a new order, then the relayer's acceptance. */
const checkAndAccept = (
  settings: GaslessSettings,
  deps: SubmitDependencies,
  request: GaslessSubmitRequest,
  digest: Hex,
): Effect.Effect<GaslessSubmitResponse, GaslessError, Relayer | Rpc | Tokens> =>
  Effect.gen(function* () {
    const relayer = yield* Relayer
    const { order } = request
    yield* relayer.readiness.pipe(Effect.mapError(relayerUnavailable))
    const rpc = yield* Rpc
    const head = yield* rpc.getBlock().pipe(Effect.mapError(unreadable("the head block")))
    const signature = yield* checkOrderSignature(settings, { order, signature: request.signature, permitSignature: null }, digest, head.number)
    if (order.deadline <= head.timestamp) {
      return yield* new InvalidRequest({ message: `order.deadline: ${order.deadline} has passed on the chain (block ${head.number}'s time is ${head.timestamp}); ask /gasless/quote for a new order` })
    }
    const permitSignature = request.permitSignature === null ? null : yield* permitForm(request.permitSignature)
    const signed: SignedOrder = { order, signature, permitSignature }
    // the nonce, the permit's nonce and the plan at the head go to the node together (one JSON-RPC
    // batch where the reads meet); a refusal is told in this order, the plan's last
    const [used, permit, plan] = yield* readTogether(Effect.all([
      Effect.either(nonceUsed(settings.executor, order.sender, order.nonce, head.number)),
      Effect.either(permitSignature === null ? Effect.void : checkPermit(settings, signed, permitSignature, head.number)),
      Effect.either(deps.plan(signed).pipe(Effect.mapError(planRefusal))),
    ], { concurrency: "unbounded" }))
    if (yield* used) {
      return yield* new InvalidRequest({ message: `order.nonce: ${order.nonce} of ${order.sender} is used or cancelled on the executor; ask /gasless/quote for a new order` })
    }
    yield* permit
    yield* plan
    const record = yield* relayer
      .accept({ tradeHash: digest, keyId: request.keyId, order, signature, permitSignature })
      .pipe(Effect.catchTags({ RelayerUnavailable: (e) => Effect.fail(relayerUnavailable(e)), OrderStoreFailure: (e) => Effect.fail(storeUnavailable(e)) }))
    return { tradeHash: record.tradeHash, status: record.status }
  })

export const gaslessStatusProgram = (tradeHash: Hex, keyId: string): Effect.Effect<GaslessStatusResponse, GaslessError, Relayer> =>
  Effect.gen(function* () {
    const record = yield* (yield* Relayer).find(tradeHash).pipe(Effect.mapError(storeUnavailable))
    // another key's order is as unknown as none at all
    if (record === undefined || record.keyId !== keyId) {
      return yield* new OrderNotFound({ message: `tradeHash: no gasless order ${tradeHash} was submitted with this API key` })
    }
    const { status, transactions, amountIn, amountOut, relayerFee, reason } = record
    return { tradeHash: record.tradeHash, status, transactions, amountIn, amountOut, relayerFee, reason }
  })
