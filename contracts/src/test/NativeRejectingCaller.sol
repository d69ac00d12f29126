// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title NativeRejectingCaller
/// @notice Test-only account that cannot receive native currency (no receive or payable
/// fallback) but can make calls, with value, as a sender.
contract NativeRejectingCaller {
    function forward(address target, bytes calldata data) external payable returns (bytes memory) {
        (bool ok, bytes memory result) = target.call{value: msg.value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
        return result;
    }
}
