// The market room's door: the MarketState actor and the World it publishes per block.
export { MarketStale, MarketState, makeMarketState, type MarketStateService, type Staleness } from "./market-state.ts"
export type { MarketConfig, MarketVenue } from "./market-config.ts"
export { DEFAULT_TICK_WINDOW, tickWindow, type TickWindow } from "./tick-window.ts"
