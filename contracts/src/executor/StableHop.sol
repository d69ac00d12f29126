// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IRouteStablePool} from "./ExecutorInterfaces.sol";
import "./RouteCodec.sol" as RouteCodec;
import {safeTransfer, safeTransferFrom, safeApprove, balanceOfToken, allowanceOfToken} from "./TokenOps.sol";
import {ExecutorBase} from "./ExecutorBase.sol";

/// @title StableHop
/// @notice RouteExecutor's hop through a registered Curve-style stable pool.
abstract contract StableHop is ExecutorBase {
    using {safeTransfer, safeTransferFrom, safeApprove, balanceOfToken, allowanceOfToken} for address;

    /// @dev The stable hop at `ptr`: brings the input here, approves the registered pool for
    /// exactly `amount`, calls exchange(i, j, amount, 0), and measures the output as this
    /// contract's balance change; the pool must take all of the input and keeps no allowance.
    function _swapStable(uint256 ptr, address token, address tokenOut, uint256 amount, address payer, address to)
        internal
        returns (uint256 amountOut)
    {
        address pool = RouteCodec.addr(ptr + RouteCodec.HOP_PREFIX);
        uint256 i = _stableIndex[pool][token];
        uint256 j = _stableIndex[pool][tokenOut];
        if (i == 0 || j == 0) revert InvalidRoute(RouteFault.UnknownPool);
        uint256 inBefore = token.balanceOfToken(address(this));
        if (payer != address(this)) {
            // from the sender, the input must arrive in full (as _pay checks)
            token.safeTransferFrom(payer, address(this), amount);
            uint256 arrived = token.balanceOfToken(address(this));
            if (arrived != inBefore + amount) revert UnsupportedToken(token);
            inBefore = arrived;
        }
        uint256 outBefore = tokenOut.balanceOfToken(address(this));
        token.safeApprove(pool, amount);
        unchecked {
            // 1 <= i, j <= MAX_STABLE_COINS
            IRouteStablePool(pool).exchange(int128(int256(i - 1)), int128(int256(j - 1)), amount, 0);
        }
        if (token.balanceOfToken(address(this)) + amount != inBefore) revert InvalidRoute(RouteFault.PartialFill);
        // a pool that took all of it with transferFrom used the approval up: nothing to reset then
        if (token.allowanceOfToken(address(this), pool) != 0) token.safeApprove(pool, 0);
        uint256 outAfter = tokenOut.balanceOfToken(address(this));
        if (outAfter <= outBefore) revert InvalidRoute(RouteFault.ZeroAmount);
        unchecked {
            amountOut = outAfter - outBefore;
        }
        if (to != address(this)) tokenOut.safeTransfer(to, amountOut);
    }
}
