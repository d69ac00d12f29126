// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IV3SwapCallback {
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external;
}

/// @title HostileV3Deployer
/// @notice Test-only stand-in for a V3 pool deployer that an executor's owner registered by
/// mistake: it CREATE2s HostileV3Pools where the executor derives a V3 pool (salt
/// keccak256(abi.encode(token0, token1, fee)), init code hash poolInitCodeHash()).
contract HostileV3Deployer {
    function poolInitCodeHash() external pure returns (bytes32) {
        return keccak256(type(HostileV3Pool).creationCode);
    }

    function deploy(address tokenA, address tokenB, uint24 fee) external returns (address) {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        return address(new HostileV3Pool{salt: keccak256(abi.encode(token0, token1, fee))}());
    }
}

/// @title HostileV3Pool
/// @notice Test-only fake V3 pool: swap() calls the caller's uniswapV3SwapCallback as set by
/// setAttack (its own deltas and data instead of the ones it was given, a second time, or with
/// the failure of that callback swallowed), then returns as if it had swapped. Anyone may set it.
contract HostileV3Pool {
    /// @dev the deltas to call back with (both zero: the swap's input, on its side) and the data
    /// (empty: the swap's own)
    int256 public amount0Delta;
    int256 public amount1Delta;
    bytes public data;
    /// @dev how many times swap() calls back
    uint256 public callbacks = 1;
    /// @dev whether a failed callback is swallowed (swap() then returns normally)
    bool public swallow;

    function setAttack(int256 amount0Delta_, int256 amount1Delta_, bytes calldata data_, uint256 callbacks_, bool swallow_)
        external
    {
        amount0Delta = amount0Delta_;
        amount1Delta = amount1Delta_;
        data = data_;
        callbacks = callbacks_;
        swallow = swallow_;
    }

    function swap(address, bool zeroForOne, int256 amountSpecified, uint160, bytes calldata swapData)
        external
        returns (int256, int256)
    {
        bytes memory callbackData = data;
        if (callbackData.length == 0) callbackData = swapData;
        (int256 d0, int256 d1) = (amount0Delta, amount1Delta);
        if (d0 == 0 && d1 == 0) (d0, d1) = zeroForOne ? (amountSpecified, int256(0)) : (int256(0), amountSpecified);
        for (uint256 k; k < callbacks; ++k) {
            (bool ok, bytes memory result) =
                msg.sender.call(abi.encodeCall(IV3SwapCallback.uniswapV3SwapCallback, (d0, d1, callbackData)));
            if (!ok && !swallow) {
                assembly ("memory-safe") {
                    revert(add(result, 0x20), mload(result))
                }
            }
        }
        // one unit out, so the hop has an output
        return zeroForOne ? (amountSpecified, int256(-1)) : (int256(-1), amountSpecified);
    }
}
