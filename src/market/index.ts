// The market room's door: the MarketState actor and the snapshot it publishes.
export { MarketState, makeMarketState, type MarketConfig, type MarketStateService, type Staleness } from "./market-state.ts"
export { DEFAULT_TICK_WINDOW, MIN_TICK, MAX_TICK, tickWindow, type TickWindow } from "./tick-window.ts"
export type { ConcentratedPoolState, Dex, ExecutorSettings, MarketSnapshot, PoolState, TickInfo, V2PoolState } from "./types.ts"
