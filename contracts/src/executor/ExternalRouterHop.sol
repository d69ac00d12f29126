// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./RouteCodec.sol" as RouteCodec;
import {safeTransfer, safeApprove, balanceOfToken} from "./TokenOps.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title ExternalRouterHop
/// @notice RouteExecutor's hop through an allowlisted external (aggregator) router.
abstract contract ExternalRouterHop is ExecutorBase {
    using {safeTransfer, safeApprove, balanceOfToken} for address;

    /// @dev Approves the router for exactly `amount`, calls it with the hop's data, resets the
    /// approval to zero, and measures the output as this contract's balance change.
    function _swapExternal(uint256 ptr, address token, address tokenOut, uint256 amount, address payer, address to)
        internal
        returns (uint256 amountOut)
    {
        address router = RouteCodec.addr(ptr + 21);
        // never a call to a token, whatever the allowlist says
        if (!isRouterAllowed[router] || router == token || router == tokenOut) {
            revert InvalidRoute(RouteFault.RouterNotAllowed);
        }
        if (payer != address(this)) _pay(token, payer, address(this), amount);
        uint256 inBefore = token.balanceOfToken(address(this));
        uint256 outBefore = tokenOut.balanceOfToken(address(this));
        token.safeApprove(router, amount);
        _callRouter(router, ptr + RouteCodec.EXTERNAL_HOP, RouteCodec.u24(ptr + 41));
        token.safeApprove(router, 0);
        if (token.balanceOfToken(address(this)) + amount != inBefore) revert InvalidRoute(RouteFault.PartialFill);
        uint256 outAfter = tokenOut.balanceOfToken(address(this));
        if (outAfter <= outBefore) revert InvalidRoute(RouteFault.ZeroAmount);
        amountOut = outAfter - outBefore;
        if (to != address(this)) tokenOut.safeTransfer(to, amountOut);
    }

    /// @dev Calls `router` with `length` bytes of calldata from position `start`, without
    /// value; bubbles its revert.
    function _callRouter(address router, uint256 start, uint256 length) internal {
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, start, length)
            if iszero(call(gas(), router, 0, m, length, 0, 0)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
        }
    }
}
