// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @notice A token call failed without a revert reason of its own, or returned false.
error TokenCallFailed(address token);
/// @notice A token's balanceOf could not be read.
error BalanceUnreadable(address token);

// ERC-20 calls for the route executor (free functions, attached to address with `using`).
// They accept tokens that return nothing, reject tokens that return false, and bubble a token's
// own revert reason (an allowance or a balance the payer lacks, say) unchanged. Calls are
// encoded in scratch memory past the free memory pointer, which is never moved. Address
// arguments are cleaned to 160 bits before they are encoded (a token's ABI decoder refuses
// dirty ones).

bytes32 constant TRANSFER_SELECTOR = 0xa9059cbb00000000000000000000000000000000000000000000000000000000;
bytes32 constant TRANSFER_FROM_SELECTOR = 0x23b872dd00000000000000000000000000000000000000000000000000000000;
bytes32 constant APPROVE_SELECTOR = 0x095ea7b300000000000000000000000000000000000000000000000000000000;
bytes32 constant BALANCE_OF_SELECTOR = 0x70a0823100000000000000000000000000000000000000000000000000000000;

function safeTransfer(address token, address to, uint256 amount) {
    bool ok;
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, TRANSFER_SELECTOR)
        mstore(add(m, 0x04), shr(96, shl(96, to)))
        mstore(add(m, 0x24), amount)
        ok := call(gas(), token, 0, m, 0x44, 0x00, 0x20)
        // accepted: returned true (one word, value 1), or returned nothing from an address with code
        ok := and(ok, or(and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1)), and(iszero(returndatasize()), gt(extcodesize(token), 0))))
    }
    if (!ok) _tokenCallFailed(token);
}

function safeTransferFrom(address token, address from, address to, uint256 amount) {
    bool ok;
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, TRANSFER_FROM_SELECTOR)
        mstore(add(m, 0x04), shr(96, shl(96, from)))
        mstore(add(m, 0x24), shr(96, shl(96, to)))
        mstore(add(m, 0x44), amount)
        ok := call(gas(), token, 0, m, 0x64, 0x00, 0x20)
        // accepted: returned true (one word, value 1), or returned nothing from an address with code
        ok := and(ok, or(and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1)), and(iszero(returndatasize()), gt(extcodesize(token), 0))))
    }
    if (!ok) _tokenCallFailed(token);
}

function safeApprove(address token, address spender, uint256 amount) {
    bool ok;
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, APPROVE_SELECTOR)
        mstore(add(m, 0x04), shr(96, shl(96, spender)))
        mstore(add(m, 0x24), amount)
        ok := call(gas(), token, 0, m, 0x44, 0x00, 0x20)
        // accepted: returned true (one word, value 1), or returned nothing from an address with code
        ok := and(ok, or(and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1)), and(iszero(returndatasize()), gt(extcodesize(token), 0))))
    }
    if (!ok) _tokenCallFailed(token);
}

function balanceOfToken(address token, address account) view returns (uint256 amount) {
    bool ok;
    assembly ("memory-safe") {
        mstore(0x00, BALANCE_OF_SELECTOR)
        mstore(0x04, shr(96, shl(96, account)))
        ok := and(gt(returndatasize(), 0x1f), staticcall(gas(), token, 0x00, 0x24, 0x00, 0x20))
        amount := mload(0x00)
    }
    if (!ok) revert BalanceUnreadable(token);
}

bytes32 constant ALLOWANCE_SELECTOR = 0xdd62ed3e00000000000000000000000000000000000000000000000000000000;

function allowanceOfToken(address token, address owner, address spender) view returns (uint256 amount) {
    bool ok;
    assembly ("memory-safe") {
        let m := mload(0x40)
        mstore(m, ALLOWANCE_SELECTOR)
        mstore(add(m, 0x04), shr(96, shl(96, owner)))
        mstore(add(m, 0x24), shr(96, shl(96, spender)))
        ok := and(gt(returndatasize(), 0x1f), staticcall(gas(), token, m, 0x44, 0x00, 0x20))
        amount := mload(0x00)
    }
    if (!ok) _tokenCallFailed(token);
}

/// @dev Bubbles the token's revert data, or reverts TokenCallFailed(token) when there is none.
function _tokenCallFailed(address token) pure {
    assembly ("memory-safe") {
        let size := returndatasize()
        if size {
            let m := mload(0x40)
            returndatacopy(m, 0, size)
            revert(m, size)
        }
    }
    revert TokenCallFailed(token);
}
