// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @dev The parts of a Uniswap V2 pair the executor calls.
interface IRouteV2Pair {
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

/// @dev The parts of a Uniswap V3 pool the executor calls.
interface IRouteV3Pool {
    function swap(address recipient, bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96, bytes calldata data)
        external
        returns (int256 amount0, int256 amount1);
}

/// @dev Uniswap V4's PoolKey, with currencies and hooks as plain addresses.
struct RoutePoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

/// @dev Uniswap V4's SwapParams: amountSpecified < 0 is an exact-input swap.
struct RouteSwapParams {
    bool zeroForOne;
    int256 amountSpecified;
    uint160 sqrtPriceLimitX96;
}

/// @dev The parts of Uniswap V4's PoolManager the executor calls. A BalanceDelta is an int256
/// packing amount0 (upper 128 bits) and amount1 (lower 128 bits), from the caller's side:
/// negative is owed to the manager, positive is owed to the caller.
interface IRoutePoolManager {
    function unlock(bytes calldata data) external returns (bytes memory);
    function swap(RoutePoolKey memory key, RouteSwapParams memory params, bytes calldata hookData)
        external
        returns (int256 swapDelta);
    function sync(address currency) external;
    function settle() external payable returns (uint256 paid);
    function take(address currency, address to, uint256 amount) external;
    function extsload(bytes32 slot) external view returns (bytes32 value);
}

/// @dev The parts of a Curve-style plain pool the executor calls: `coins(k)` for k = 0, 1, …
/// reverts past the last coin; `get_dy` is what exchange pays now for dx; `exchange` takes `dx` of coin i from the caller with
/// transferFrom and sends the output of coin j to the caller. Pools that return the output
/// and pools that return nothing are both accepted (the executor measures its balances).
interface IRouteStablePool {
    function coins(uint256 k) external view returns (address);
    function exchange(int128 i, int128 j, uint256 dx, uint256 minDy) external;
    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256);
}
