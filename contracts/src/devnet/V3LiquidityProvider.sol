// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {safeTransferToken} from "./TokenTransfer.sol";

/// @dev The parts of a Uniswap V3 pool this contract uses.
interface IV3PoolForLiquidity {
    function token0() external view returns (address);
    function token1() external view returns (address);
    function mint(address recipient, int24 tickLower, int24 tickUpper, uint128 amount, bytes calldata data)
        external
        returns (uint256 amount0, uint256 amount1);
}

/// @title V3LiquidityProvider
/// @notice Adds liquidity to Uniswap V3 pools from tokens this contract holds (its owner funds it
/// first). Positions belong to this contract.
contract V3LiquidityProvider {
    /// @dev the pool of the mint in progress (transient: cleared when the mint returns)
    address private transient activePool;

    address public immutable owner;

    error Unauthorized(address caller);
    error UnexpectedCallback(address caller);

    constructor() {
        owner = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }

    /// @notice Mints `liquidity` in [tickLower, tickUpper) of `pool` for this contract.
    /// @return amount0 token0 paid to the pool
    /// @return amount1 token1 paid to the pool
    function mint(address pool, int24 tickLower, int24 tickUpper, uint128 liquidity)
        external
        onlyOwner
        returns (uint256 amount0, uint256 amount1)
    {
        activePool = pool;
        (amount0, amount1) = IV3PoolForLiquidity(pool).mint(address(this), tickLower, tickUpper, liquidity, "");
        activePool = address(0);
    }

    /// @notice Pays the pool being minted in by this contract's current `mint` call.
    function uniswapV3MintCallback(uint256 amount0Owed, uint256 amount1Owed, bytes calldata) external {
        address active = activePool;
        if (active == address(0) || msg.sender != active) revert UnexpectedCallback(msg.sender);
        if (amount0Owed != 0) safeTransferToken(IV3PoolForLiquidity(active).token0(), active, amount0Owed);
        if (amount1Owed != 0) safeTransferToken(IV3PoolForLiquidity(active).token1(), active, amount1Owed);
    }

    /// @notice Sends tokens held here to `to` (owner only).
    function withdraw(address token, address to, uint256 amount) external onlyOwner {
        safeTransferToken(token, to, amount);
    }
}
