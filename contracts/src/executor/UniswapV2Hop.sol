// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IRouteV2Pair} from "./ExecutorInterfaces.sol";
import "./RouteCodec.sol" as RouteCodec;
import {VenueRegistry} from "./VenueRegistry.sol";

/// @title UniswapV2Hop
/// @notice RouteExecutor's Uniswap V2 hop: the pair derived from the venue, paid first, then swapped.
abstract contract UniswapV2Hop is VenueRegistry {
    /// @dev The pair of `tokenA` and `tokenB` in V2 venue `venueId`.
    function _v2PairOf(uint256 venueId, address tokenA, address tokenB) internal view returns (address) {
        (address factory,, bytes32 initCodeHash) = _venuePools(venueId, RouteCodec.KIND_V2);
        return _v2Pair(factory, initCodeHash, tokenA, tokenB);
    }

    function _v2Pair(address factory, bytes32 initCodeHash, address tokenA, address tokenB)
        internal
        pure
        returns (address)
    {
        if (tokenA == tokenB) revert InvalidRoute(RouteFault.TokenChain);
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        bytes32 salt;
        assembly ("memory-safe") {
            // keccak256(abi.encodePacked(token0, token1))
            let m := mload(0x40)
            mstore(m, shl(96, token0))
            mstore(add(m, 0x14), shl(96, token1))
            salt := keccak256(m, 0x28)
        }
        return _create2(factory, salt, initCodeHash);
    }

    /// @dev Swaps c.amount of c.token in the pair of V2 venue `venueId`; c.pair is that pair
    /// when the previous hop already sent the input into it.
    function _swapV2(Cursor memory c, uint256 venueId, address tokenOut, address to) internal returns (uint256 amountOut) {
        address pair = c.pair;
        bool delivered = pair != address(0);
        (address factory, uint256 feeBps, uint256 knownHash) = _venueSlot(venueId, RouteCodec.KIND_V2);
        if (!delivered) pair = _v2Pair(factory, _initCodeHash(venueId, knownHash), c.token, tokenOut);
        if (pair.code.length == 0) revert InvalidRoute(RouteFault.UnknownPool);
        if (!delivered) _pay(c.token, c.payer, pair, c.amount);
        bool zeroForOne = c.token < tokenOut;
        amountOut = _v2AmountOut(pair, zeroForOne, c.amount, feeBps);
        if (amountOut == 0) revert InvalidRoute(RouteFault.ZeroAmount);
        IRouteV2Pair(pair).swap(zeroForOne ? 0 : amountOut, zeroForOne ? amountOut : 0, to, "");
    }

    /// @dev The pair's own rule with the venue's fee on the input (30 bps: Uniswap's
    /// 997/1000), the product of reserves kept.
    function _v2AmountOut(address pair, bool zeroForOne, uint256 amount, uint256 feeBps) internal view returns (uint256) {
        (uint256 reserve0, uint256 reserve1,) = IRouteV2Pair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 amountInWithFee = amount * (BPS - feeBps);
        return amountInWithFee * reserveOut / (reserveIn * BPS + amountInWithFee);
    }

    /// @dev Exact output through the V2 hop at `last`: `amountOut` of its tokenOut to `to`.
    /// The least input the pair takes for it is delivered into the pair by the hops in calldata
    /// [start, last) (or the payer), then the pair swaps.
    function _swapV2ExactOut(uint256 last, address tokenIn, uint256 amountOut, address to, uint256 start, address segmentIn)
        internal
        returns (uint256 amountIn)
    {
        address pair;
        bool zeroForOne;
        {
            address tokenOut = RouteCodec.addr(last + 1);
            uint256 venueId = RouteCodec.u8(last + RouteCodec.HOP_PREFIX);
            (address factory, uint256 feeBps, bytes32 initCodeHash) = _venuePools(venueId, RouteCodec.KIND_V2);
            pair = _v2Pair(factory, initCodeHash, tokenIn, tokenOut);
            if (pair.code.length == 0) revert InvalidRoute(RouteFault.UnknownPool);
            zeroForOne = tokenIn < tokenOut;
            amountIn = _v2AmountIn(pair, zeroForOne, amountOut, feeBps);
        }
        _deliverExact(start, last, segmentIn, amountIn, pair);
        IRouteV2Pair(pair).swap(zeroForOne ? 0 : amountOut, zeroForOne ? amountOut : 0, to, "");
    }

    /// @dev The least input whose output by _v2AmountOut reaches `amountOut`:
    /// ceil(reserveIn * amountOut * 10000 / ((reserveOut - amountOut) * (10000 - feeBps))).
    /// An output the reserve cannot pay is Slippage(reserveOut, amountOut).
    function _v2AmountIn(address pair, bool zeroForOne, uint256 amountOut, uint256 feeBps) internal view returns (uint256) {
        (uint256 reserve0, uint256 reserve1,) = IRouteV2Pair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        if (amountOut >= reserveOut) revert Slippage(reserveOut, amountOut);
        // reserves < 2**112, amountOut < reserveOut: no overflow
        uint256 numerator = reserveIn * amountOut * BPS;
        uint256 denominator = (reserveOut - amountOut) * (BPS - feeBps);
        return (numerator + denominator - 1) / denominator;
    }
}
