// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IUnlockCallback {
    function unlockCallback(bytes calldata data) external returns (bytes memory);
}

interface IHostileToken {
    function balanceOf(address account) external view returns (uint256);
}

/// @title HostilePoolManager
/// @notice Test-only stand-in for a V4 PoolManager that an executor's owner registered by
/// mistake: unlock() calls the caller's unlockCallback with the data set by setAttack instead
/// of its own (or its own, more than once, or with the failure swallowed), and the rest of the
/// PoolManager the executor calls agrees with whatever it is told: every pool exists, a swap
/// takes exactly its input and gives one unit, settle() reports what arrived since sync(),
/// take() sends nothing. Anyone may set it.
contract HostilePoolManager {
    /// @dev the data to call back with; empty: unlock's own
    bytes public data;
    /// @dev how many times unlock() calls back
    uint256 public callbacks = 1;
    /// @dev whether a failed callback is swallowed (unlock() then returns an output of one unit)
    bool public swallow;

    address private syncedCurrency;
    uint256 private syncedBalance;

    struct PoolKey {
        address currency0;
        address currency1;
        uint24 fee;
        int24 tickSpacing;
        address hooks;
    }

    struct SwapParams {
        bool zeroForOne;
        int256 amountSpecified;
        uint160 sqrtPriceLimitX96;
    }

    function setAttack(bytes calldata data_, uint256 callbacks_, bool swallow_) external {
        data = data_;
        callbacks = callbacks_;
        swallow = swallow_;
    }

    function unlock(bytes calldata unlockData) external returns (bytes memory result) {
        bytes memory callbackData = data;
        if (callbackData.length == 0) callbackData = unlockData;
        for (uint256 k; k < callbacks; ++k) {
            (bool ok, bytes memory returned) =
                msg.sender.call(abi.encodeCall(IUnlockCallback.unlockCallback, (callbackData)));
            if (ok) {
                result = abi.decode(returned, (bytes));
            } else if (swallow) {
                result = abi.encode(uint256(1));
            } else {
                assembly ("memory-safe") {
                    revert(add(returned, 0x20), mload(returned))
                }
            }
        }
    }

    function extsload(bytes32) external pure returns (bytes32) {
        return bytes32(uint256(1));
    }

    function swap(PoolKey calldata, SwapParams calldata params, bytes calldata) external pure returns (int256) {
        // exact input: the input's delta is amountSpecified (negative), the output's +1
        int256 amountIn = params.amountSpecified;
        return params.zeroForOne ? (amountIn << 128) | int256(1) : (int256(1) << 128) | int256(uint256(uint128(int128(amountIn))));
    }

    function sync(address currency) external {
        syncedCurrency = currency;
        syncedBalance = IHostileToken(currency).balanceOf(address(this));
    }

    function settle() external payable returns (uint256) {
        return IHostileToken(syncedCurrency).balanceOf(address(this)) - syncedBalance;
    }

    function take(address, address, uint256) external {}
}
