// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {safeTransferToken} from "./TokenTransfer.sol";

/// @dev Uniswap V4's PoolKey (currencies as addresses, hooks as an address).
struct V4PoolKey {
    address currency0;
    address currency1;
    uint24 fee;
    int24 tickSpacing;
    address hooks;
}

/// @dev Uniswap V4's ModifyLiquidityParams.
struct V4ModifyLiquidityParams {
    int24 tickLower;
    int24 tickUpper;
    int256 liquidityDelta;
    bytes32 salt;
}

/// @dev The parts of Uniswap V4's PoolManager this contract uses. BalanceDelta is an int256
/// packing amount0 (upper 128 bits) and amount1 (lower 128 bits), both int128, from the
/// caller's side: negative = owed to the pool manager, positive = owed to the caller.
interface IV4PoolManagerForLiquidity {
    function unlock(bytes calldata data) external returns (bytes memory);
    function modifyLiquidity(V4PoolKey memory key, V4ModifyLiquidityParams memory params, bytes calldata hookData)
        external
        returns (int256 callerDelta, int256 feesAccrued);
    function sync(address currency) external;
    function settle() external payable returns (uint256 paid);
    function take(address currency, address to, uint256 amount) external;
}

/// @title V4LiquidityProvider
/// @notice Adds liquidity to hookless Uniswap V4 pools from ERC-20 tokens this contract holds (its
/// owner funds it first). Positions belong to this contract (owner = this, with the given salt).
/// Native currency (address(0)) is not supported: on Arc, USDC is the ERC-20 at 0x3600… in pools.
contract V4LiquidityProvider {
    /// @dev set while this contract's own addLiquidity has the manager unlocked (transient)
    bool private transient active;

    IV4PoolManagerForLiquidity public immutable poolManager;
    address public immutable owner;

    error Unauthorized(address caller);
    error UnexpectedCallback(address caller);
    error NativeCurrencyUnsupported();
    error LiquidityTooLarge(uint256 liquidity);

    constructor(address poolManager_) {
        poolManager = IV4PoolManagerForLiquidity(poolManager_);
        owner = msg.sender;
    }

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }

    /// @notice Adds `liquidity` in [tickLower, tickUpper) of the pool `key` for this contract.
    /// @return amount0 currency0 paid to the pool manager (net of any fees the position collected)
    /// @return amount1 currency1 paid to the pool manager (likewise)
    function addLiquidity(V4PoolKey calldata key, int24 tickLower, int24 tickUpper, uint256 liquidity, bytes32 salt)
        external
        onlyOwner
        returns (int256 amount0, int256 amount1)
    {
        if (key.currency0 == address(0)) revert NativeCurrencyUnsupported();
        if (liquidity > uint256(uint128(type(int128).max))) revert LiquidityTooLarge(liquidity);
        active = true;
        bytes memory result = poolManager.unlock(
            abi.encode(
                key,
                V4ModifyLiquidityParams({
                    tickLower: tickLower, tickUpper: tickUpper, liquidityDelta: int256(liquidity), salt: salt
                })
            )
        );
        active = false;
        int256 delta = abi.decode(result, (int256));
        // report what was paid: the negation of the caller's delta
        amount0 = -int256(delta >> 128);
        amount1 = -int256(int128(delta));
    }

    /// @notice Called by the pool manager inside addLiquidity: modifies the position, then pays
    /// what is owed (sync, ERC-20 transfer, settle) and takes what is due.
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != address(poolManager) || !active) revert UnexpectedCallback(msg.sender);
        (V4PoolKey memory key, V4ModifyLiquidityParams memory params) =
            abi.decode(data, (V4PoolKey, V4ModifyLiquidityParams));
        (int256 delta,) = poolManager.modifyLiquidity(key, params, "");
        _resolve(key.currency0, int128(delta >> 128));
        _resolve(key.currency1, int128(delta));
        return abi.encode(delta);
    }

    /// @notice Sends tokens held here to `to` (owner only).
    function withdraw(address token, address to, uint256 amount) external onlyOwner {
        safeTransferToken(token, to, amount);
    }

    function _resolve(address currency, int128 amount) private {
        if (amount < 0) {
            poolManager.sync(currency);
            safeTransferToken(currency, address(poolManager), uint256(-int256(amount)));
            poolManager.settle();
        } else if (amount > 0) {
            poolManager.take(currency, address(this), uint256(int256(amount)));
        }
    }
}
