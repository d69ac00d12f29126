// The parts of Uniswap V2, V3 and V4, Curve's plain pools and their factories,
// the route executor (and Multicall3) the market reads: our own minimal interfaces, checked
// against the compiled artifacts by the tests.
import { parseAbi, toEventSelector, type Hex } from "viem"

export const V2_FACTORY_ABI = parseAbi([
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256)",
  "function getPair(address tokenA, address tokenB) view returns (address pair)",
])

export const V2_PAIR_ABI = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
])

export const V3_FACTORY_ABI = parseAbi([
  "event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)",
  "function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)",
])

export const V3_POOL_ABI = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
  "function liquidity() view returns (uint128)",
  "function tickBitmap(int16 wordPosition) view returns (uint256)",
  "function ticks(int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet, uint256 feeGrowthOutside0X128, uint256 feeGrowthOutside1X128, int56 tickCumulativeOutside, uint160 secondsPerLiquidityOutsideX128, uint32 secondsOutside, bool initialized)",
  "event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)",
  "event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
])

export const V4_POOL_MANAGER_ABI = parseAbi([
  "event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)",
  "event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)",
  "event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)",
  "event ProtocolFeeUpdated(bytes32 indexed id, uint24 protocolFee)",
])

export const V4_STATE_VIEW_ABI = parseAbi([
  "function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)",
  "function getLiquidity(bytes32 poolId) view returns (uint128 liquidity)",
  "function getTickBitmap(bytes32 poolId, int16 tick) view returns (uint256 tickBitmap)",
  "function getTickLiquidity(bytes32 poolId, int24 tick) view returns (uint128 liquidityGross, int128 liquidityNet)",
])

/** Curve's plain pool (any log a pool emits marks it touched). */
export const STABLE_POOL_ABI = parseAbi([
  "function coins(uint256 i) view returns (address)",
  "function balances(uint256 i) view returns (uint256)",
  "function A_precise() view returns (uint256)",
  "function fee() view returns (uint256)",
  "function future_A_time() view returns (uint256)",
  "function admin_fee() view returns (uint256)",
])

/** Curve's plain pool's exchange: what a swap paid in and out, by coin index */
export const STABLE_EVENTS_ABI = parseAbi(["event TokenExchange(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought)"])

/**
 * Curve's plain-pool factory (its own and stableswap-ng's): its pools by index. Its deploy
 * event differs between versions and does not always name the pool, so any log of a factory
 * only says "look again".
 */
export const STABLE_FACTORY_ABI = parseAbi([
  "function pool_count() view returns (uint256)",
  "function pool_list(uint256 i) view returns (address)",
])

export const ERC20_DECIMALS_ABI = parseAbi(["function decimals() view returns (uint8)"])

export const EXECUTOR_EVENTS_ABI = parseAbi([
  "event RouterAllowlistChanged(address indexed router, bool allowed)",
  "event VenueSet(uint8 indexed id, uint8 kind, address indexed factory, bytes32 initCodeHash, uint16 feeBps)",
  "event StablePoolSet(address indexed pool, bool registered)",
])

export const MULTICALL3_BLOCK_ABI = parseAbi([
  "function getCurrentBlockTimestamp() view returns (uint256 timestamp)",
  "function getBasefee() view returns (uint256 basefee)",
])

/** topic0 of every event the market follows */
export const TOPIC = {
  v2PairCreated: toEventSelector(V2_FACTORY_ABI[0]),
  v3PoolCreated: toEventSelector(V3_FACTORY_ABI[0]),
  v4Initialize: toEventSelector(V4_POOL_MANAGER_ABI[0]),
  v2Sync: toEventSelector(V2_PAIR_ABI[1]),
  v2Swap: toEventSelector(V2_PAIR_ABI[2]),
  v2Mint: toEventSelector(V2_PAIR_ABI[3]),
  v2Burn: toEventSelector(V2_PAIR_ABI[4]),
  v3Swap: toEventSelector(V3_POOL_ABI[4]),
  v3Mint: toEventSelector(V3_POOL_ABI[5]),
  v3Burn: toEventSelector(V3_POOL_ABI[6]),
  v4ModifyLiquidity: toEventSelector(V4_POOL_MANAGER_ABI[1]),
  v4Swap: toEventSelector(V4_POOL_MANAGER_ABI[2]),
  v4ProtocolFeeUpdated: toEventSelector(V4_POOL_MANAGER_ABI[3]),
  routerAllowlistChanged: toEventSelector(EXECUTOR_EVENTS_ABI[0]),
  venueSet: toEventSelector(EXECUTOR_EVENTS_ABI[1]),
  stablePoolSet: toEventSelector(EXECUTOR_EVENTS_ABI[2]),
  stableTokenExchange: toEventSelector(STABLE_EVENTS_ABI[0]),
} as const satisfies Record<string, Hex>

/** Events that create pools or change the executor's registry: few, asked over the whole history by emitter */
export const CREATION_TOPICS: readonly Hex[] = [TOPIC.v2PairCreated, TOPIC.v3PoolCreated, TOPIC.v4Initialize, TOPIC.routerAllowlistChanged, TOPIC.venueSet, TOPIC.stablePoolSet]

/**
 * Every event the market follows block by block, asked of every emitter: the creations, and the
 * changes of a pool's state (a V2 pair's Sync comes with each of its swaps, mints and burns)
 */
/**
 * Events that change which ticks of a V3/V4 pool hold liquidity (Mint, Burn, ModifyLiquidity): what a
 * stored market's ticks need from the blocks it missed (a swap never changes a tick)
 */
export const LIQUIDITY_TOPICS: readonly Hex[] = [TOPIC.v3Mint, TOPIC.v3Burn, TOPIC.v4ModifyLiquidity]

export const FOLLOWED_TOPICS: readonly Hex[] = [...CREATION_TOPICS, TOPIC.v2Sync, TOPIC.v3Swap, TOPIC.v3Mint, TOPIC.v3Burn, TOPIC.v4Swap, TOPIC.v4ModifyLiquidity, TOPIC.v4ProtocolFeeUpdated]
