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

    /// @dev The stable hop at `ptr`: brings the input here, exchanges it (_exchangeStable) and
    /// sends the output on.
    function _swapStable(uint256 ptr, address token, address tokenOut, uint256 amount, address payer, address to)
        internal
        returns (uint256 amountOut)
    {
        address pool = RouteCodec.addr(ptr + RouteCodec.HOP_PREFIX);
        (uint256 i, uint256 j) = _stableIndices(pool, token, tokenOut);
        uint256 inBefore = token.balanceOfToken(address(this));
        if (payer != address(this)) {
            // from the sender, the input must arrive in full (as _pay checks)
            token.safeTransferFrom(payer, address(this), amount);
            uint256 arrived = token.balanceOfToken(address(this));
            if (arrived != inBefore + amount) revert UnsupportedToken(token);
            inBefore = arrived;
        }
        amountOut = _exchangeStable(pool, i, j, token, tokenOut, amount, 0, inBefore);
        if (to != address(this)) tokenOut.safeTransfer(to, amountOut);
    }

    /// @dev Exact output through the stable hop at `last` (kind 6): from its dxHint, the input
    /// dx whose get_dy reaches `amountOut` (at most four corrections: dx grows by
    /// ceil((amountOut - y) * dx / y) + 1, or doubles while get_dy pays nothing; still short,
    /// Slippage(y, amountOut)). The hops in [start, last) (or the payer) deliver dx here; the
    /// pool exchanges it; `amountOut` goes to `to` and whatever it paid above that to the sender.
    function _swapStableExactOut(uint256 last, address token, uint256 amountOut, address to, uint256 start, address segmentIn)
        internal
    {
        address pool = RouteCodec.addr(last + RouteCodec.HOP_PREFIX);
        (uint256 i, uint256 j) = _stableIndices(pool, token, RouteCodec.addr(last + 1));
        uint256 dx = _stableInputFor(pool, i, j, RouteCodec.u128(last + 41), amountOut);
        _deliverExact(start, last, segmentIn, dx, address(this));
        _exchangeStableExactOut(last, pool, i, j, token, dx, amountOut, to);
    }

    /// @dev exchange(dx) for at least `amountOut`: that much to `to` (kept when it is this
    /// contract), the rest of what the pool paid to the sender.
    function _exchangeStableExactOut(
        uint256 last,
        address pool,
        uint256 i,
        uint256 j,
        address token,
        uint256 dx,
        uint256 amountOut,
        address to
    ) private {
        address tokenOut = RouteCodec.addr(last + 1);
        uint256 paid = _exchangeStable(pool, i, j, token, tokenOut, dx, amountOut, token.balanceOfToken(address(this)));
        if (paid < amountOut) revert Slippage(paid, amountOut);
        if (to != address(this)) tokenOut.safeTransfer(to, amountOut);
        unchecked {
            if (paid != amountOut) tokenOut.safeTransfer(_xoSender, paid - amountOut);
        }
    }

    /// @dev The input from `dx` (the hint) on whose get_dy reaches `amountOut`, as
    /// _swapStableExactOut says.
    function _stableInputFor(address pool, uint256 i, uint256 j, uint256 dx, uint256 amountOut)
        internal
        view
        returns (uint256)
    {
        if (dx == 0) revert InvalidRoute(RouteFault.ZeroAmount);
        uint256 y = _stableDy(pool, i, j, dx);
        for (uint256 k; k < 4 && y < amountOut; ++k) {
            dx = y == 0 ? dx * 2 : dx + ((amountOut - y) * dx + y - 1) / y + 1;
            y = _stableDy(pool, i, j, dx);
        }
        if (y < amountOut) revert Slippage(y, amountOut);
        return dx;
    }

    /// @dev The indices + 1 of `token` and `tokenOut` in registered stable pool `pool`.
    function _stableIndices(address pool, address token, address tokenOut) internal view returns (uint256 i, uint256 j) {
        i = _stableIndex[pool][token];
        j = _stableIndex[pool][tokenOut];
        if (i == 0 || j == 0) revert InvalidRoute(RouteFault.UnknownPool);
    }

    /// @dev pool.get_dy(i - 1, j - 1, dx); 0 when it reverts (a dx too small to pay anything).
    function _stableDy(address pool, uint256 i, uint256 j, uint256 dx) internal view returns (uint256 dy) {
        unchecked {
            // 1 <= i, j <= MAX_STABLE_COINS
            try IRouteStablePool(pool).get_dy(int128(int256(i - 1)), int128(int256(j - 1)), dx) returns (uint256 y) {
                dy = y;
            } catch {}
        }
    }

    /// @dev Approves registered pool `pool` for exactly `amount` of `token` (held here, this
    /// contract's balance of it `inBefore`), calls exchange(i - 1, j - 1, amount, minDy), and
    /// measures the output as this contract's balance change; the pool must take all of the
    /// input and keeps no allowance.
    function _exchangeStable(
        address pool,
        uint256 i,
        uint256 j,
        address token,
        address tokenOut,
        uint256 amount,
        uint256 minDy,
        uint256 inBefore
    ) internal returns (uint256 amountOut) {
        uint256 outBefore = tokenOut.balanceOfToken(address(this));
        token.safeApprove(pool, amount);
        unchecked {
            // 1 <= i, j <= MAX_STABLE_COINS
            IRouteStablePool(pool).exchange(int128(int256(i - 1)), int128(int256(j - 1)), amount, minDy);
        }
        if (token.balanceOfToken(address(this)) + amount != inBefore) revert InvalidRoute(RouteFault.PartialFill);
        // a pool that took all of it with transferFrom used the approval up: nothing to reset then
        if (token.allowanceOfToken(address(this), pool) != 0) token.safeApprove(pool, 0);
        uint256 outAfter = tokenOut.balanceOfToken(address(this));
        if (outAfter <= outBefore) revert InvalidRoute(RouteFault.ZeroAmount);
        unchecked {
            amountOut = outAfter - outBefore;
        }
    }
}
