// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

error TokenTransferFailed(address token, address to, uint256 amount);

/// @dev ERC-20 transfer that accepts tokens returning nothing and rejects tokens returning false.
/// A reverting token's own error is passed on unchanged.
function safeTransferToken(address token, address to, uint256 amount) {
    // transfer(address,uint256) = 0xa9059cbb
    (bool ok, bytes memory ret) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
    if (!ok && ret.length != 0) {
        assembly ("memory-safe") {
            revert(add(ret, 0x20), mload(ret))
        }
    }
    if (!ok || (ret.length == 0 ? token.code.length == 0 : !abi.decode(ret, (bool)))) {
        revert TokenTransferFailed(token, to, amount);
    }
}
