// The relayer's tests on a real devnet node: a tiny contract that emits the
// executor's OrderFilled event from its calldata (and reverts on a zero order
// hash), an OrderPlanner that builds real calls of it, signed orders of the
// node's test accounts, and relayers built as layers over a SQLite file or a
// Postgres schema, torn down (their actor interrupted) when asked.
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Exit, Layer, Scope, type Context } from "effect"
import { concat, encodeAbiParameters, encodeErrorResult, getAddress, hashTypedData, pad, parseAbiItem, toEventSelector, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { parseDatabaseUrl } from "../../src/config/index.ts"
import { Database } from "../../src/database/index.ts"
import { startAnvil, testAccounts, devnetClient, type AnvilNode, type DevnetClient } from "../../src/devnet/index.ts"
import { ARC_CHAIN_ID, swapOrderTypedData, type SwapOrder } from "../../src/domain/index.ts"
import {
  OrderPlanFailure,
  OrderPlanner,
  Relayer,
  RelayerLive,
  RelayerNode,
  type AcceptedOrder,
  type OrderRecord,
  type PlannedOrder,
  type RelayerSettings,
} from "../../src/relayer/index.ts"

export const ORDER_FILLED_TOPIC = toEventSelector("OrderFilled(bytes32,address,address,uint256,uint256,uint256)")

/**
 * Runtime code: reverts when the first word of calldata is zero; else LOG4 with the OrderFilled
 * topic, topics from calldata words 0..2 (orderHash, sender, relayer) and data words 3..5.
 */
export const emitterCode = (): Hex => {
  const body = [
    "6060", "6060", "6000", "37", // CALLDATACOPY(0, 0x60, 0x60)
    "604035", "602035", "600035", // relayer, sender, orderHash
    `7f${ORDER_FILLED_TOPIC.slice(2)}`,
    "6060", "6000", "a4", "00", // LOG4(0, 0x60, …); STOP
  ].join("")
  const headLength = 7 // PUSH1 0 CALLDATALOAD ISZERO PUSH1 dest JUMPI
  const byte = (n: number) => n.toString(16).padStart(2, "0")
  const dest = headLength + body.length / 2
  // the revert: Error(EMITTER_REVERT), copied from the code's end
  const payload = encodeErrorResult({ abi: [{ type: "error", name: "Error", inputs: [{ name: "message", type: "string" }] }], errorName: "Error", args: [EMITTER_REVERT] }).slice(2)
  const len = byte(payload.length / 2)
  const tailLength = 13
  const revert = `5b60${len}60${byte(dest + tailLength)}600039` + `60${len}6000fd`
  return `0x6000351560${byte(dest)}57${body}${revert}${payload}` as Hex
}

/** What the emitter reverts with. */
export const EMITTER_REVERT = "no fill for a zero order hash"

export const EMITTER: Address = getAddress("0x00000000000000000000000000000000000fe11d")

export interface PlannerOptions {
  /** a failure of plan for this order, if any (asked on each plan) */
  readonly fault?: (order: AcceptedOrder) => OrderPlanFailure | "revert" | undefined
  /** how many times plan was asked, per tradeHash */
  readonly asked?: Map<string, number>
  /** how long planning takes, ms */
  readonly delayMs?: number
  /** the call goes here instead of the emitter (an account without code: success, no event) */
  readonly to?: Address
}

/** A planner of real transactions: a call of the emitter that fills the order for its signed amounts and the most fee. */
export const emitterPlanner = (relayer: Address, options: PlannerOptions = {}) =>
  Layer.succeed(OrderPlanner, {
    plan: (accepted) =>
      Effect.suspend(() => {
        options.asked?.set(accepted.tradeHash, (options.asked.get(accepted.tradeHash) ?? 0) + 1)
        const fault = options.fault?.(accepted)
        if (fault instanceof OrderPlanFailure) return Effect.fail(fault)
        const { order } = accepted
        const data = concat([
          fault === "revert" ? pad("0x00", { size: 32 }) : accepted.tradeHash,
          encodeAbiParameters(
            [{ type: "address" }, { type: "address" }, { type: "uint256" }, { type: "uint256" }, { type: "uint256" }],
            [order.sender, relayer, order.amountIn, order.amountOut, order.maxRelayerFee],
          ),
        ])
        const planned = Effect.succeed({ to: options.to ?? EMITTER, data, gas: 100_000n, relayerFee: order.maxRelayerFee } satisfies PlannedOrder)
        return options.delayMs === undefined ? planned : Effect.delay(planned, options.delayMs)
      }),
  })

export interface RelayerChain {
  readonly node: AnvilNode
  readonly client: DevnetClient
  readonly stop: () => Promise<void>
}

export const startRelayerChain = async (): Promise<RelayerChain> => {
  const node = await startAnvil({ port: 0 })
  const client = devnetClient(node.rpcUrl)
  await client.setCode({ address: EMITTER, bytecode: emitterCode() })
  return { node, client, stop: () => node.stop() }
}

/** A fresh relayer account holding `balance` wei of USDC. */
export const fundedRelayer = async (chain: RelayerChain, balance = 10n ** 20n) => {
  const privateKey = generatePrivateKey()
  const address = privateKeyToAccount(privateKey).address
  await chain.client.setBalance({ address, value: balance })
  return { privateKey, address }
}

let orderNonce = BigInt(Date.now()) * 1000n
/** An order signed by test account `from`, its tradeHash the digest against the emitter as executor. */
export const signedOrder = async (options: { readonly from?: number; readonly deadline?: bigint; readonly amountIn?: bigint; readonly keyId?: string } = {}): Promise<AcceptedOrder> => {
  const signer = privateKeyToAccount(testAccounts[options.from ?? 1]!.privateKey)
  const order: SwapOrder = {
    sender: signer.address,
    recipient: signer.address,
    tokenIn: getAddress("0x3600000000000000000000000000000000000000"),
    tokenOut: getAddress("0x00000000000000000000000000000000000a11ce"),
    exactOutput: false,
    amountIn: options.amountIn ?? 1_000_000n,
    amountOut: 990_000n + (orderNonce % 1000n),
    maxRelayerFee: 5_000n + (orderNonce % 7n),
    feeBps: 0,
    feeRecipient: "0x0000000000000000000000000000000000000000",
    nonce: orderNonce++,
    deadline: options.deadline ?? BigInt(Math.floor(Date.now() / 1000) + 3600),
  }
  const typed = swapOrderTypedData(ARC_CHAIN_ID, EMITTER, order)
  return {
    tradeHash: hashTypedData(typed as never),
    keyId: options.keyId ?? "key_test",
    order,
    signature: await signer.signTypedData(typed as never),
    permitSignature: null,
  }
}

export interface RunningRelayer {
  readonly relayer: Context.Tag.Service<Relayer>
  readonly run: <A, E>(effect: Effect.Effect<A, E, Relayer | SqlClient.SqlClient>) => Promise<A>
  /** interrupts the actor and closes the database */
  readonly stop: () => Promise<void>
}

/** A relayer over the database at `databaseUrl` (a SQLite path or postgres://), the chain and the planner. */
export const startRelayer = async (
  chain: RelayerChain,
  databaseUrl: string,
  settings: RelayerSettings,
  planner: Layer.Layer<OrderPlanner>,
  rpcUrl: string | readonly string[] = chain.node.rpcUrl,
): Promise<RunningRelayer> => {
  const location = parseDatabaseUrl(databaseUrl)
  if (location._tag === "Left") throw new Error(location.left)
  const database = Database.layer(location.right)
  const layer = Layer.merge(
    RelayerLive({ pollIntervalMs: 100, ...settings }).pipe(Layer.provide(Layer.mergeAll(database, RelayerNode.layer({ urls: typeof rpcUrl === "string" ? [rpcUrl] : rpcUrl, chainId: ARC_CHAIN_ID }), planner))),
    database,
  )
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const run = <A, E>(effect: Effect.Effect<A, E, Relayer | SqlClient.SqlClient>) => Effect.runPromise(Effect.provide(effect, context))
  return {
    relayer: await run(Relayer),
    run,
    stop: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}

const FINAL = new Set(["confirmed", "failed", "expired"])

/** Waits until the order is in one of `statuses` (default: a final one). */
export const waitFor = async (
  running: RunningRelayer,
  tradeHash: Hex,
  statuses: ReadonlySet<string> = FINAL,
  timeoutMs = 20_000,
): Promise<OrderRecord> => {
  const until = Date.now() + timeoutMs
  for (;;) {
    const record = await running.run(running.relayer.find(tradeHash))
    if (record !== undefined && statuses.has(record.status)) return record
    if (Date.now() > until) throw new Error(`order ${tradeHash} is ${record?.status ?? "unknown"} after ${timeoutMs} ms, not ${[...statuses].join("/")}`)
    await Bun.sleep(50)
  }
}

const ORDER_FILLED_EVENT_ITEM = parseAbiItem("event OrderFilled(bytes32 indexed orderHash, address indexed sender, address indexed relayer, uint256 amountIn, uint256 amountOut, uint256 relayerFee)")

/** The OrderFilled events the chain holds for `tradeHash`. */
export const fillsOnChain = async (chain: RelayerChain, tradeHash: Hex) =>
  chain.client.getLogs({ address: EMITTER, event: ORDER_FILLED_EVENT_ITEM, args: { orderHash: tradeHash }, fromBlock: 0n, toBlock: "latest" })

export const relayerNonce = (chain: RelayerChain, address: Address) => chain.client.getTransactionCount({ address, blockTag: "latest" })
