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
        address router = _allowedRouter(ptr, token, tokenOut);
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

    /// @dev Exact output through the kind 7 hop at `ptr`: the router buys exactly `amount` of the
    /// hop's tokenOut for this contract with at most the hop's maxIn of `token`. That ceiling is
    /// taken from the payer (counted against the budget: Slippage past it, _payIn), the router is
    /// approved for exactly it, called, and its approval reset to zero; only what it took (this
    /// contract's balance change) stays counted, the rest goes back to the payer at once (native
    /// input: stays here, uncounted, for the refund). Less than `amount` out reverts
    /// Slippage(received, amount); more is passed on to the sender, so exactly `amount` stays.
    function _swapExternalExactOut(uint256 ptr, address token, uint256 amount) internal {
        address tokenOut = RouteCodec.addr(ptr + 1);
        address router = _allowedRouter(ptr, token, tokenOut);
        uint256 ceiling = RouteCodec.u128(ptr + 41);
        _payIn(token, address(this), ceiling);
        uint256 inBefore = token.balanceOfToken(address(this));
        uint256 outBefore = tokenOut.balanceOfToken(address(this));
        token.safeApprove(router, ceiling);
        _callRouter(router, ptr + RouteCodec.EXTERNAL_EXACT_OUT_HOP, RouteCodec.u24(ptr + 57));
        token.safeApprove(router, 0);
        // checked: a router that leaves more input here than it found reverts; it can take at
        // most the ceiling (its approval)
        uint256 unspent = ceiling - (inBefore - token.balanceOfToken(address(this)));
        uint256 received = tokenOut.balanceOfToken(address(this)) - outBefore;
        if (received < amount) revert Slippage(received, amount);
        unchecked {
            _xoSpent -= unspent;
            if (received != amount) tokenOut.safeTransfer(_xoSender, received - amount);
        }
        if (unspent != 0 && _xoPayer != address(this)) token.safeTransfer(_xoPayer, unspent);
    }

    /// @dev The router of the external hop at `ptr`, which must be on the allowlist and never one
    /// of the hop's tokens, whatever the allowlist says.
    function _allowedRouter(uint256 ptr, address token, address tokenOut) private view returns (address router) {
        router = RouteCodec.addr(ptr + 21);
        if (!isRouterAllowed[router] || router == token || router == tokenOut) {
            revert InvalidRoute(RouteFault.RouterNotAllowed);
        }
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
