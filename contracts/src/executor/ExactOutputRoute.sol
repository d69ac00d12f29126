// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./RouteCodec.sol" as RouteCodec;
import {ExternalRouterHop} from "./ExternalRouterHop.sol";
import {StableHop} from "./StableHop.sol";
import {UniswapV2Hop} from "./UniswapV2Hop.sol";
import {UniswapV3Hop} from "./UniswapV3Hop.sol";
import {UniswapV4Hops} from "./UniswapV4Hops.sol";

/// @title ExactOutputRoute
/// @notice RouteExecutor's exact-output routes: every split delivers its share of the output
/// by running its hops backward. The last hop is asked for the split's output; what it needs
/// is delivered, straight to where it needs it (a V2 pair before its swap, a V3 pool in its
/// callback, a PoolManager between sync and settle, this contract for a stable pool), by the
/// hops before it, asked in turn; the first hop's input comes from the payer, within the
/// sender's maximum. Only hops of kinds 1, 2, 3, 6 and 7 run here; kind 7 (an external
/// router buying the exact amount) only as the first hop of its split, delivering here.
abstract contract ExactOutputRoute is StableHop, ExternalRouterHop, UniswapV2Hop, UniswapV3Hop, UniswapV4Hops {
    /// @dev Runs every split of `route` for exactly `amount` of tokenOut (pool units) in all,
    /// delivered to this contract.
    function _runRouteExactOutput(bytes calldata route, address tokenIn, address tokenOut, uint256 amount) internal {
        unchecked {
            uint256 ptr;
            uint256 end;
            assembly ("memory-safe") {
                ptr := route.offset
                end := add(route.offset, route.length)
            }
            if (route.length == 0) revert InvalidRoute(RouteFault.Malformed);
            uint256 splits = RouteCodec.u8(ptr);
            if (splits == 0) revert InvalidRoute(RouteFault.Malformed);
            ++ptr;
            uint256 remaining = amount;
            uint256 sharesLeft = BPS;
            do {
                if (ptr + RouteCodec.SPLIT_HEADER > end) revert InvalidRoute(RouteFault.Malformed);
                uint256 share = RouteCodec.u16(ptr);
                if (share == 0 || share > sharesLeft) revert InvalidRoute(RouteFault.Shares);
                sharesLeft -= share;
                // every split but the last gets its share rounded down, the last gets the rest
                // (amount < 2**128: the product cannot overflow)
                uint256 splitAmount = --splits == 0 ? remaining : amount * share / BPS;
                remaining -= splitAmount;
                uint256 hops = RouteCodec.u8(ptr + 2);
                if (hops == 0) revert InvalidRoute(RouteFault.Malformed);
                uint256 start = ptr + RouteCodec.SPLIT_HEADER;
                ptr = start;
                uint256 last;
                do {
                    if (ptr + RouteCodec.HOP_PREFIX > end) revert InvalidRoute(RouteFault.Malformed);
                    last = ptr;
                    ptr += _exactOutHopLength(ptr);
                } while (--hops != 0);
                if (ptr > end) revert InvalidRoute(RouteFault.Malformed);
                if (RouteCodec.addr(last + 1) != tokenOut) revert InvalidRoute(RouteFault.TokenChain);
                if (splitAmount == 0) revert InvalidRoute(RouteFault.ZeroAmount);
                _deliverExact(start, ptr, tokenIn, splitAmount, address(this));
            } while (splits != 0);
            if (sharesLeft != 0) revert InvalidRoute(RouteFault.Shares);
            if (ptr != end) revert InvalidRoute(RouteFault.Malformed);
        }
    }

    /// @dev The length of the exact-output hop at `ptr`; other kinds (the exact-input external
    /// and stable hops) are refused.
    function _exactOutHopLength(uint256 ptr) private pure returns (uint256) {
        uint256 kind = RouteCodec.u8(ptr);
        if (kind == RouteCodec.KIND_V2) return RouteCodec.V2_HOP;
        if (kind == RouteCodec.KIND_V3) return RouteCodec.V3_HOP;
        if (kind == RouteCodec.KIND_V4) return RouteCodec.V4_HOP;
        if (kind == RouteCodec.KIND_STABLE_EXACT_OUT) return RouteCodec.STABLE_EXACT_OUT_HOP;
        // a data length read past the route's end is caught by the callers' bounds checks
        if (kind == RouteCodec.KIND_EXTERNAL_EXACT_OUT) return RouteCodec.EXTERNAL_EXACT_OUT_HOP + RouteCodec.u24(ptr + 57);
        revert InvalidRoute(RouteFault.Malformed);
    }

    /// @dev The last hop in calldata [start, end), with the token going into it, and, when it is
    /// a V4 hop, where the run of V4 hops of its venue that it ends begins and the token going
    /// into that run. Checks the token chain on the way.
    function _lastHop(uint256 start, uint256 end, address tokenIn)
        private
        pure
        returns (uint256 last, address lastIn, uint256 runStart, address runIn)
    {
        unchecked {
            uint256 ptr = start;
            address token = tokenIn;
            // the venue of the V4 run in progress; 256 when the previous hop is not a V4 hop
            uint256 runVenue = 256;
            while (ptr < end) {
                uint256 kind = RouteCodec.u8(ptr);
                address tokenOut = RouteCodec.addr(ptr + 1);
                if (tokenOut == address(0) || tokenOut == token) revert InvalidRoute(RouteFault.TokenChain);
                uint256 length = _exactOutHopLength(ptr);
                if (kind == RouteCodec.KIND_V4) {
                    uint256 venueId = RouteCodec.u8(ptr + RouteCodec.HOP_PREFIX);
                    if (venueId != runVenue) {
                        runStart = ptr;
                        runIn = token;
                        runVenue = venueId;
                    }
                } else {
                    runVenue = 256;
                }
                last = ptr;
                lastIn = token;
                token = tokenOut;
                ptr += length;
            }
            if (ptr != end) revert InvalidRoute(RouteFault.Malformed);
        }
    }

    function _deliverExact(uint256 start, uint256 end, address tokenIn, uint256 amount, address to)
        internal
        override
    {
        if (start == end) return _payIn(tokenIn, to, amount);
        (uint256 last, address lastIn, uint256 runStart, address runIn) = _lastHop(start, end, tokenIn);
        uint256 kind = RouteCodec.u8(last);
        if (kind == RouteCodec.KIND_V2) {
            _swapV2ExactOut(last, lastIn, amount, to, start, tokenIn);
        } else if (kind == RouteCodec.KIND_V3) {
            _swapV3ExactOut(last, lastIn, amount, to, start, tokenIn);
        } else if (kind == RouteCodec.KIND_V4) {
            _swapV4ExactOut(runStart, end, runIn, amount, to, start, tokenIn);
        } else if (kind == RouteCodec.KIND_EXTERNAL_EXACT_OUT) {
            // its input comes from the payer, its output stays here
            if (last != start || to != address(this)) revert InvalidRoute(RouteFault.Malformed);
            _swapExternalExactOut(last, tokenIn, amount);
        } else {
            _swapStableExactOut(last, lastIn, amount, to, start, tokenIn);
        }
    }
}
