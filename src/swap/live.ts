// The request programs over the real services: one RPC client, the market
// actor (one World per block: pools, the executor's settings, reference prices),
// tokens, the external sources and the simulator, built once and shared by
// every request.
import { Context, Effect, Layer, Redacted } from "effect"
import { privateKeyToAccount } from "viem/accounts"
import { SwapPrograms } from "./programs.ts"
import { ARC_CHAINS_TEXT } from "../domain/index.ts"
import { Rpc, RpcError } from "../chain/index.ts"
import { Simulator } from "../chain/index.ts"
import { MarketState } from "../market/index.ts"
import { externalSources, Sources } from "../sources/index.ts"
import { Tokens } from "../tokens/index.ts"
import type { ChainSettings, DatabaseLocation, RelayerSettings } from "../config/index.ts"
import { Database } from "../database/index.ts"
import { RelayerHealth } from "../ops/index.ts"
import { OrderPlanFailure, OrderPlanner, OrderStoreFailure, Relayer, RelayerLive, RelayerNode } from "../relayer/index.ts"
import { ORDER_ERRORS } from "../chain/index.ts"
import { GaslessPrograms, type GaslessProgramsShape } from "./gasless.ts"
import { gaslessQuoteProgram, type GaslessSettings } from "./gasless-quote.ts"
import { gaslessStatusProgram, gaslessSubmitProgram, relayerUnavailable } from "./gasless-submit.ts"
import { planOrder, type PlanError } from "./order-plan.ts"
import { catalogPrograms } from "./catalog.ts"
import { latestWorld, makeQuoteServices, quoteProgram } from "./quote.ts"
import { programServices, swapProgram } from "./swap.ts"

/** How often the market looks for a new block: Arc makes one about every half second. */
const MARKET_POLL_INTERVAL = "100 millis"

/**
 * Every service the programs use, over the chain the settings name; the market's snapshot (when
 * the settings keep one) is signed with a key derived from `snapshotSecret` (the key store's).
 */
export const chainServices = (settings: ChainSettings, snapshotSecret?: Redacted.Redacted<string>) => {
  // the node decides the chain: a CHAIN_ID (or a manifest's chainId) that is not its own is refused at start
  const rpc = Rpc.layer({ urls: settings.rpcUrls, chainId: settings.chainId, multicall3: settings.multicall3, batchSize: settings.rpcBatchSize }).pipe(
    Layer.mapError((e) =>
      e.reason === "chain-mismatch" ? new RpcError({ ...e, message: `CHAIN_ID: ${e.message}; it must be the node's chain, ${ARC_CHAINS_TEXT}` }) : e),
  )
  const tokens = Tokens.layer()
  const market = MarketState.layer({
    venues: settings.venues,
    multicall3: settings.multicall3,
    executor: settings.executor,
    priceFeeds: settings.priceFeeds,
    fromBlock: settings.fromBlock,
    pollInterval: MARKET_POLL_INTERVAL,
    ...(settings.marketSnapshot !== undefined
      ? { snapshot: { path: settings.marketSnapshot.path, interval: settings.marketSnapshot.intervalMs, secret: snapshotSecret } }
      : {}),
  })
  // every configured aggregator, each with its own breaker and budget (the own router is the pricer's)
  const sources = Layer.succeed(Sources, externalSources(settings.aggregators, { chainId: settings.chainId, executor: settings.executor }))
  return Layer.mergeAll(Simulator.layer, sources).pipe(Layer.provideMerge(market), Layer.provideMerge(tokens), Layer.provideMerge(rpc))
}

const programsLayer = (settings: ChainSettings) =>
  Layer.effect(
    SwapPrograms,
    Effect.gen(function* () {
      const services = yield* makeQuoteServices({ maxPriceImpactBps: settings.maxPriceImpactBps })
      const chain = yield* programServices
      const catalog = catalogPrograms(latestWorld(services.market), settings.venues, services.sources, yield* Tokens)
      return {
        chainId: settings.chainId,
        executor: settings.executor,
        quote: (request) => quoteProgram(services, request),
        swap: (request) => swapProgram(services, chain, request),
        ...catalog,
      }
    }),
  )

const databaseName = (database: DatabaseLocation): string => (database.kind === "sqlite" ? ` ${database.path}` : database.kind === "memory" ? " in memory" : " in Postgres")

type ChainContext = Tokens | MarketState | Sources | Simulator | Rpc

/** Whether the relayer gives an order up (its terms cannot be met, its signature is refused) or tries it again later. */
const permanent = (e: PlanError): boolean => {
  switch (e._tag) {
    case "OrderExpired":
    case "RelayerFeeAboveMax":
    case "InvalidRequest":
      return true
    case "OrderReverted":
      return e.reason !== undefined && Object.hasOwn(ORDER_ERRORS, e.reason)
    default:
      return false
  }
}

const planFailure = (e: PlanError) =>
  new OrderPlanFailure({ reason: "message" in e && typeof e.message === "string" && e.message !== "" ? e.message : "detail" in e && e.detail !== undefined ? e.detail : e._tag, permanent: permanent(e) })

/**
 * The gasless side over the chain services: the OrderPlanner (the relayer's view of planOrder),
 * the relayer over `database` (the key store's) and its node, and the gasless programs, with the
 * relayer's readiness for /health.
 */
const gaslessLayer = (settings: ChainSettings, relayer: RelayerSettings, database: DatabaseLocation) => {
  const gasless: GaslessSettings = {
    chainId: settings.chainId,
    executor: settings.executor,
    feeMarginBps: relayer.feeMarginBps,
    venues: new Set(settings.venues.map((v) => v.name)),
  }
  const relayerAddress = privateKeyToAccount(Redacted.value(relayer.privateKey)).address
  const planner = Layer.effect(
    OrderPlanner,
    Effect.gen(function* () {
      const context = yield* Effect.context<ChainContext>()
      const services = yield* makeQuoteServices({ maxPriceImpactBps: settings.maxPriceImpactBps })
      return {
        plan: (accepted) =>
          planOrder(services, gasless, relayerAddress, accepted).pipe(Effect.provide(context), Effect.mapError(planFailure)),
      }
    }),
  )
  const relayerService = RelayerLive({ privateKey: relayer.privateKey }).pipe(
    Layer.provide(planner),
    Layer.provide(RelayerNode.fromRpc),
    // the orders live in the key store's database: a start that cannot open it says so in the key store's words
    Layer.provide(Database.layer(database).pipe(Layer.mapError((e) => new OrderStoreFailure({ message: `cannot open the key store${databaseName(database)} (the relayer keeps its orders there): ${e.message}` })))),
  )
  const programs = Layer.effectContext(
    Effect.gen(function* () {
      const service = yield* Relayer
      const context = yield* Effect.context<ChainContext | Relayer>()
      const services = yield* makeQuoteServices({ maxPriceImpactBps: settings.maxPriceImpactBps })
      const chain = yield* programServices
      const plan = (signed: Parameters<typeof planOrder>[3]) => planOrder(services, gasless, service.address, signed).pipe(Effect.provide(context))
      const ready = service.readiness.pipe(Effect.mapError(relayerUnavailable))
      const shape: GaslessProgramsShape = {
        relayer: service.address,
        // a relayer short of USDC cannot send what it would quote
        quote: (request) => Effect.zipRight(ready, gaslessQuoteProgram(services, chain, gasless, request)),
        submit: (request) => Effect.provide(gaslessSubmitProgram(gasless, { plan }, request), context),
        status: (tradeHash, keyId) => Effect.provide(gaslessStatusProgram(tradeHash, keyId), context),
      }
      return Context.make(GaslessPrograms, shape).pipe(Context.add(RelayerHealth, { address: service.address, readiness: service.readiness }))
    }),
  )
  return programs.pipe(Layer.provide(relayerService))
}

/**
 * The request programs: SwapPrograms, and GaslessPrograms when the settings name a relayer and a
 * database (the key store's) is given for its orders.
 */
const allPrograms = (settings: ChainSettings, database?: DatabaseLocation) =>
  settings.relayer === undefined || database === undefined
    ? programsLayer(settings)
    : Layer.merge(programsLayer(settings), gaslessLayer(settings, settings.relayer, database))

/** SwapPrograms over live services (and GaslessPrograms, see allPrograms): each request runs with the shared context. */
export const livePrograms = (settings: ChainSettings, snapshotSecret?: Redacted.Redacted<string>, database?: DatabaseLocation) =>
  allPrograms(settings, database).pipe(Layer.provide(chainServices(settings, snapshotSecret)))

/** The programs and the chain services behind them (the market among them, for health and metrics). */
export const liveServices = (settings: ChainSettings, snapshotSecret?: Redacted.Redacted<string>, database?: DatabaseLocation) =>
  allPrograms(settings, database).pipe(Layer.provideMerge(chainServices(settings, snapshotSecret)))
