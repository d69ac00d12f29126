// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IRouteV3Pool} from "./ExecutorInterfaces.sol";
import "./RouteCodec.sol" as RouteCodec;
import {safeTransfer, safeTransferFrom} from "./TokenOps.sol";
import {VenueRegistry} from "./VenueRegistry.sol";

/// @title UniswapV3Hop
/// @notice RouteExecutor's Uniswap V3 hop and the swap callback that pays the pool.
abstract contract UniswapV3Hop is VenueRegistry {
    using {safeTransfer, safeTransferFrom} for address;

    /// @dev The V3 hop at `ptr`: its pool is derived from the hop's venue and fee.
    function _swapV3(uint256 ptr, address token, address tokenOut, uint256 amount, address payer, address to)
        internal
        returns (uint256 amountOut)
    {
        address pool = _v3PoolOf(ptr, token, tokenOut);
        if (amount > uint256(type(int256).max)) revert InvalidRoute(RouteFault.Malformed);
        amountOut = _callV3(pool, to, token < tokenOut, amount, token, payer);
        _checkCallbackTaken();
    }

    /// @dev pool.swap(to, zeroForOne, amount, limit, data) with data = abi.encode(token, payer,
    /// amount, zeroForOne), after expecting the pool's callback with that data (_expectCallback,
    /// inline); returns the output.
    function _callV3(address pool, address to, bool zeroForOne, uint256 amount, address token, address payer)
        internal
        returns (uint256 amountOut)
    {
        uint160 limit = zeroForOne ? MIN_PRICE_LIMIT : MAX_PRICE_LIMIT;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0x128acb08)) // swap(address,bool,int256,uint160,bytes)
            mstore(add(m, 0x04), shr(96, shl(96, to)))
            mstore(add(m, 0x24), iszero(iszero(zeroForOne)))
            mstore(add(m, 0x44), amount)
            mstore(add(m, 0x64), limit)
            mstore(add(m, 0x84), 0xa0)
            mstore(add(m, 0xc4), shr(96, shl(96, token)))
            mstore(add(m, 0xe4), shr(96, shl(96, payer)))
            mstore(add(m, 0x104), amount)
            mstore(add(m, 0x124), iszero(iszero(zeroForOne)))
            // the binding, keccak256(pool ‖ data), with the pool where data's length goes next
            mstore(add(m, 0xa4), pool)
            tstore(_expectedCallback.slot, keccak256(add(m, 0xb0), 0x94))
            mstore(add(m, 0xa4), 0x80)
            if iszero(call(gas(), pool, 0, m, 0x144, m, 0x40)) {
                returndatacopy(m, 0, returndatasize())
                // Error("IIA"): the pool received less input than it asked for
                if and(
                    eq(returndatasize(), 0x64),
                    and(eq(shr(224, mload(m)), 0x08c379a0), eq(mload(add(m, 0x44)), shl(232, 0x494941)))
                ) {
                    mstore(0x00, shl(224, 0xbf16aab6)) // UnsupportedToken(address)
                    mstore(0x04, shr(96, shl(96, token)))
                    revert(0x00, 0x24)
                }
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x40) { revert(0, 0) }
            // (int256 amount0, int256 amount1): the output is the negative one
            amountOut := sub(0, mload(add(m, mul(iszero(iszero(zeroForOne)), 0x20))))
        }
    }

    /// @dev The pool of the V3 hop at `ptr` (venue and fee after its prefix) between `tokenIn`
    /// and `tokenOut`, which must have code.
    function _v3PoolOf(uint256 ptr, address tokenIn, address tokenOut) private view returns (address pool) {
        (address deployer,, bytes32 initCodeHash) = _venuePools(RouteCodec.u8(ptr + RouteCodec.HOP_PREFIX), RouteCodec.KIND_V3);
        pool = _v3Pool(deployer, initCodeHash, tokenIn, tokenOut, RouteCodec.u24(ptr + 22));
        if (pool.code.length == 0) revert InvalidRoute(RouteFault.UnknownPool);
    }

    function _v3Pool(address deployer, bytes32 initCodeHash, address tokenA, address tokenB, uint24 fee)
        internal
        pure
        returns (address)
    {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        bytes32 salt;
        assembly ("memory-safe") {
            // keccak256(abi.encode(token0, token1, fee))
            let m := mload(0x40)
            mstore(m, shr(96, shl(96, token0)))
            mstore(add(m, 0x20), shr(96, shl(96, token1)))
            mstore(add(m, 0x40), and(fee, 0xffffff))
            salt := keccak256(m, 0x60)
        }
        return _create2(deployer, salt, initCodeHash);
    }

    /// @notice Pays a V3 pool during a swap this contract started: only that pool may call,
    /// once, handing back the very data the swap gave it; it is paid exactly the input that swap
    /// bound (token, payer, amount), whatever else it says. During an exact-output swap the data
    /// binds the output and the hops before the pool instead, and the pool is paid what it asks
    /// for that output, by those hops (or the payer, within the sender's maximum).
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        _acceptCallback(data);
        if (_xoPayer != address(0)) return _payV3ExactOut(amount0Delta, amount1Delta, data);
        // data is abi.encode(token, payer, amount, zeroForOne), as _callV3 wrote it
        address token;
        address payer;
        uint256 amount;
        bool zeroForOne;
        assembly ("memory-safe") {
            token := calldataload(data.offset)
            payer := calldataload(add(data.offset, 0x20))
            amount := calldataload(add(data.offset, 0x40))
            zeroForOne := calldataload(add(data.offset, 0x60))
        }
        // exact input: the pool asks for all of the input token (token0 when zeroForOne), unless
        // its price limit stopped the swap early (amount < 2**255, checked in _swapV3)
        if ((zeroForOne ? amount0Delta : amount1Delta) != int256(amount)) revert InvalidRoute(RouteFault.PartialFill);
        // the pool checks its own balance after this callback: an input that arrives short
        // makes it revert "IIA", which _callV3 reports as UnsupportedToken
        if (payer == address(this)) token.safeTransfer(msg.sender, amount);
        else token.safeTransferFrom(payer, msg.sender, amount);
    }

    /// @dev Exact output through the V3 hop at `last`: the pool pays exactly `amountOut` to
    /// `to`; in its callback the hops in calldata [start, last) deliver what it asks for.
    /// The callback data is abi.encode(tokenIn, segmentIn, amountOut, zeroForOne, last - start)
    /// followed by those hops' bytes (so it is never the 128 bytes of an exact-input swap).
    function _swapV3ExactOut(uint256 last, address tokenIn, uint256 amountOut, address to, uint256 start, address segmentIn)
        internal
    {
        (address pool, bool zeroForOne) = _v3PoolAt(last, tokenIn);
        bytes memory data =
            bytes.concat(abi.encode(tokenIn, segmentIn, amountOut, zeroForOne, last - start), msg.data[start:last]);
        _expectCallback(pool, data);
        _callV3ExactOut(pool, to, zeroForOne, amountOut, tokenIn, data);
        _checkCallbackTaken();
    }

    /// @dev The pool of the V3 hop at `ptr` from `tokenIn`, which must have code, and the direction.
    function _v3PoolAt(uint256 ptr, address tokenIn) internal view returns (address pool, bool zeroForOne) {
        address tokenOut = RouteCodec.addr(ptr + 1);
        pool = _v3PoolOf(ptr, tokenIn, tokenOut);
        zeroForOne = tokenIn < tokenOut;
    }

    /// @dev pool.swap(to, zeroForOne, -amountOut, limit, data); the pool must pay exactly amountOut.
    function _callV3ExactOut(address pool, address to, bool zeroForOne, uint256 amountOut, address tokenIn, bytes memory data)
        internal
    {
        // amountOut < 2**128 (no split's output exceeds the route's)
        try IRouteV3Pool(pool).swap(to, zeroForOne, -int256(amountOut), zeroForOne ? MIN_PRICE_LIMIT : MAX_PRICE_LIMIT, data)
        returns (int256 amount0, int256 amount1) {
            if ((zeroForOne ? amount1 : amount0) != -int256(amountOut)) revert InvalidRoute(RouteFault.PartialFill);
        } catch (bytes memory reason) {
            // Error("IIA"): the pool received less input than it asked for
            if (keccak256(reason) == keccak256(abi.encodeWithSignature("Error(string)", "IIA"))) {
                revert UnsupportedToken(tokenIn);
            }
            assembly ("memory-safe") {
                revert(add(reason, 0x20), mload(reason))
            }
        }
    }

    /// @dev The exact-output callback: the pool must be paying exactly the bound output and
    /// asking for some input, which the hops carried in `data` deliver to it.
    function _payV3ExactOut(int256 amount0Delta, int256 amount1Delta, bytes calldata data) internal {
        address segmentIn;
        uint256 amountOut;
        bool zeroForOne;
        uint256 prefix;
        uint256 start;
        assembly ("memory-safe") {
            // the hops' bytes follow the five words
            start := add(data.offset, 0xa0)
            segmentIn := calldataload(add(data.offset, 0x20))
            amountOut := calldataload(add(data.offset, 0x40))
            zeroForOne := calldataload(add(data.offset, 0x60))
            prefix := calldataload(add(data.offset, 0x80))
        }
        (int256 owed, int256 paid) = zeroForOne ? (amount0Delta, amount1Delta) : (amount1Delta, amount0Delta);
        if (paid != -int256(amountOut) || owed <= 0) revert InvalidRoute(RouteFault.PartialFill);
        _deliverExact(start, start + prefix, segmentIn, uint256(owed), msg.sender);
    }
}
