// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {IRoutePoolManager, RoutePoolKey, RouteSwapParams} from "./ExecutorInterfaces.sol";
import "./RouteCodec.sol" as RouteCodec;
import {safeTransfer, safeTransferFrom} from "./TokenOps.sol";
import {VenueRegistry} from "./VenueRegistry.sol";

/// @title UniswapV4Hops
/// @notice RouteExecutor's Uniswap V4 hops: a run of them inside one unlock of the venue's
/// PoolManager, and the unlock callback that swaps, settles and takes.
abstract contract UniswapV4Hops is VenueRegistry {
    using {safeTransfer, safeTransferFrom} for address;

    /// @dev Runs the V4 hops between calldata positions `start` and `stop` (all of one venue)
    /// in one unlock of the venue's PoolManager.
    function _swapV4(uint256 start, uint256 stop, address token, uint256 amount, address payer, address to)
        internal
        returns (uint256)
    {
        bytes memory data = abi.encodePacked(token, amount, payer, to, msg.data[start:stop]);
        return _unlock(RouteCodec.u8(start + RouteCodec.HOP_PREFIX), data);
    }

    /// @dev Unlocks the PoolManager of V4 venue `venueId` with `data`, expecting its callback
    /// with that data; returns the run's output.
    function _unlock(uint256 venueId, bytes memory data) internal returns (uint256 amountOut) {
        (address manager,) = _venue(venueId, RouteCodec.KIND_V4);
        _expectCallback(manager, data);
        amountOut = abi.decode(IRoutePoolManager(manager).unlock(data), (uint256));
        _checkCallbackTaken();
    }

    /// @notice Runs V4 hops for a swap this contract started: only the PoolManager of the run
    /// in progress may call, once, handing back the very data the unlock gave it, so it pays
    /// exactly the input that run bound. `data` is tokenIn(20) amountIn(32) payer(20) to(20)
    /// and the V4 hops in the route format; during an exact-output swap, the layout of
    /// _swapV4ExactOut.
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        _acceptCallback(data);
        IRoutePoolManager manager = IRoutePoolManager(msg.sender);
        uint256 base;
        uint256 end;
        assembly ("memory-safe") {
            base := data.offset
            end := add(data.offset, data.length)
        }
        if (_xoPayer != address(0)) return _runV4ExactOut(manager, base, end);
        address tokenIn = RouteCodec.addr(base);
        uint256 amountIn = RouteCodec.word(base + 20);
        address token = tokenIn;
        uint256 amount = amountIn;
        for (uint256 ptr = base + 92; ptr < end; ptr += RouteCodec.V4_HOP) {
            address tokenOut = RouteCodec.addr(ptr + 1);
            if (tokenOut == address(0) || tokenOut == token) revert InvalidRoute(RouteFault.TokenChain);
            amount = _v4Swap(manager, ptr, token, tokenOut, amount);
            token = tokenOut;
        }
        // intermediate currencies net to zero; pay the first input, take the last output
        manager.sync(tokenIn);
        address payer = RouteCodec.addr(base + 52);
        if (payer == address(this)) tokenIn.safeTransfer(address(manager), amountIn);
        else tokenIn.safeTransferFrom(payer, address(manager), amountIn);
        if (manager.settle() != amountIn) revert UnsupportedToken(tokenIn);
        manager.take(token, RouteCodec.addr(base + 72), amount);
        return abi.encode(amount);
    }

    /// @dev The key of the V4 hop at `ptr` (venue, fee, tickSpacing, hooks after its prefix),
    /// whose pool must be initialized in `manager`.
    function _v4Key(IRoutePoolManager manager, uint256 ptr, address token, address tokenOut, bool zeroForOne)
        internal
        view
        returns (RoutePoolKey memory key)
    {
        key = RoutePoolKey(
            zeroForOne ? token : tokenOut,
            zeroForOne ? tokenOut : token,
            RouteCodec.u24(ptr + 22),
            RouteCodec.i24(ptr + 25),
            RouteCodec.addr(ptr + 28)
        );
        // an uninitialized pool has a zero price in slot0 (the low 160 bits of its first slot)
        bytes32 stateSlot = keccak256(abi.encode(keccak256(abi.encode(key)), V4_POOLS_SLOT));
        if (uint160(uint256(manager.extsload(stateSlot))) == 0) revert InvalidRoute(RouteFault.UnknownPool);
    }

    /// @dev The V4 hop at `ptr` (venue, fee, tickSpacing, hooks after its prefix) in `manager`.
    function _v4Swap(IRoutePoolManager manager, uint256 ptr, address token, address tokenOut, uint256 amount)
        internal
        returns (uint256)
    {
        bool zeroForOne = token < tokenOut;
        RoutePoolKey memory key = _v4Key(manager, ptr, token, tokenOut, zeroForOne);
        if (amount > uint256(uint128(type(int128).max))) revert InvalidRoute(RouteFault.Malformed);
        int256 delta = manager.swap(
            key, RouteSwapParams(zeroForOne, -int256(amount), zeroForOne ? MIN_PRICE_LIMIT : MAX_PRICE_LIMIT), ""
        );
        int256 amount0 = delta >> 128;
        int256 amount1 = int256(int128(delta));
        (int256 deltaIn, int256 deltaOut) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (deltaIn != -int256(amount)) revert InvalidRoute(RouteFault.PartialFill);
        if (deltaOut <= 0) revert InvalidRoute(RouteFault.ZeroAmount);
        return uint256(deltaOut);
    }

    /// @dev Exact output through the run of V4 hops in calldata [runStart, end) (one venue),
    /// `runIn` going in: in an unlock of the venue's PoolManager the run's hops swap backward for
    /// exactly `amountOut` to `to`, and the hops in [start, runStart) (or the payer) deliver the
    /// run's input into the PoolManager between its sync and settle. Inside an unlock of that
    /// PoolManager already (a run of it later in the split is waiting for this one's output), the
    /// run goes on in that unlock. Unlock data: runIn(20) amountOut(32) to(20) segmentIn(20)
    /// runStart - start (32), then the bytes of [start, end).
    function _swapV4ExactOut(
        uint256 runStart,
        uint256 end,
        address runIn,
        uint256 amountOut,
        address to,
        uint256 start,
        address segmentIn
    ) internal {
        (address manager,) = _venue(RouteCodec.u8(runStart + RouteCodec.HOP_PREFIX), RouteCodec.KIND_V4);
        if (_insideUnlock(manager)) {
            _runV4ExactOutIn(IRoutePoolManager(manager), start, runStart, end, runIn, amountOut, to, segmentIn);
        } else {
            _unlockExactOut(runStart, end, runIn, amountOut, to, start, segmentIn);
        }
    }

    function _unlockExactOut(
        uint256 runStart,
        uint256 end,
        address runIn,
        uint256 amountOut,
        address to,
        uint256 start,
        address segmentIn
    ) private {
        bytes memory data = abi.encodePacked(runIn, amountOut, to, segmentIn, runStart - start, msg.data[start:end]);
        _unlock(RouteCodec.u8(runStart + RouteCodec.HOP_PREFIX), data);
    }

    /// @dev The exact-output unlock callback (data between `base` and `end`, as _swapV4ExactOut
    /// wrote it): the run, with this PoolManager marked unlocked meanwhile.
    function _runV4ExactOut(IRoutePoolManager manager, uint256 base, uint256 end) internal returns (bytes memory) {
        uint256 start = base + 124;
        _markUnlocked(address(manager), true);
        uint256 amountIn = _runV4ExactOutIn(
            manager,
            start,
            start + RouteCodec.word(base + 92),
            end,
            RouteCodec.addr(base),
            RouteCodec.word(base + 20),
            RouteCodec.addr(base + 52),
            RouteCodec.addr(base + 72)
        );
        _markUnlocked(address(manager), false);
        return abi.encode(amountIn);
    }

    /// @dev Inside an unlock of `manager`: swaps the run [runStart, end) backward, takes its
    /// output to `to`, settles its input, which the hops in [start, runStart) deliver; returns
    /// that input. When those hops include a run of this PoolManager (which syncs and settles
    /// on its own inside this one), they deliver here first, and the input is synced, paid and
    /// settled after them.
    function _runV4ExactOutIn(
        IRoutePoolManager manager,
        uint256 start,
        uint256 runStart,
        uint256 end,
        address runIn,
        uint256 amountOut,
        address to,
        address segmentIn
    ) internal returns (uint256 amount) {
        amount = amountOut;
        for (uint256 ptr = end; ptr > runStart;) {
            ptr -= RouteCodec.V4_HOP;
            address tokenIn = ptr == runStart ? runIn : RouteCodec.addr(ptr - RouteCodec.V4_HOP + 1);
            address tokenOut = RouteCodec.addr(ptr + 1);
            if (tokenOut == address(0) || tokenOut == tokenIn) revert InvalidRoute(RouteFault.TokenChain);
            amount = _v4SwapExactOut(manager, ptr, tokenIn, tokenOut, amount);
        }
        manager.take(RouteCodec.addr(end - RouteCodec.V4_HOP + 1), to, amountOut);
        if (_hasRunOf(address(manager), start, runStart)) {
            _deliverExact(start, runStart, segmentIn, amount, address(this));
            manager.sync(runIn);
            runIn.safeTransfer(address(manager), amount);
        } else {
            manager.sync(runIn);
            _deliverExact(start, runStart, segmentIn, amount, address(manager));
        }
        if (manager.settle() != amount) revert UnsupportedToken(runIn);
    }

    /// @dev Whether the exact-output hops in [start, stop) include a V4 hop of a venue whose
    /// PoolManager is `manager`.
    function _hasRunOf(address manager, uint256 start, uint256 stop) private view returns (bool) {
        for (uint256 ptr = start; ptr < stop;) {
            uint256 kind = RouteCodec.u8(ptr);
            if (kind == RouteCodec.KIND_V4) {
                (address other,) = _venue(RouteCodec.u8(ptr + RouteCodec.HOP_PREFIX), RouteCodec.KIND_V4);
                if (other == manager) return true;
                ptr += RouteCodec.V4_HOP;
            } else {
                ptr += kind == RouteCodec.KIND_V2
                    ? RouteCodec.V2_HOP
                    : kind == RouteCodec.KIND_V3 ? RouteCodec.V3_HOP : RouteCodec.STABLE_EXACT_OUT_HOP;
            }
        }
        return false;
    }

    /// @dev Marks (or clears) `manager` as unlocked by this contract, in transient storage.
    function _markUnlocked(address manager, bool unlocked) private {
        bytes32 slot = _unlockedSlot(manager);
        assembly ("memory-safe") {
            tstore(slot, unlocked)
        }
    }

    function _insideUnlock(address manager) private view returns (bool unlocked) {
        bytes32 slot = _unlockedSlot(manager);
        assembly ("memory-safe") {
            unlocked := tload(slot)
        }
    }

    /// @dev keccak256(manager ‖ "RouteExecutor.v4.unlocked"): apart from every declared transient variable
    function _unlockedSlot(address manager) private pure returns (bytes32) {
        return keccak256(abi.encodePacked(manager, "RouteExecutor.v4.unlocked"));
    }

    /// @dev Exact output through the V4 hop at `ptr`: exactly `amountOut` of tokenOut owed to
    /// this contract; returns the input owed for it.
    function _v4SwapExactOut(IRoutePoolManager manager, uint256 ptr, address token, address tokenOut, uint256 amountOut)
        internal
        returns (uint256)
    {
        bool zeroForOne = token < tokenOut;
        RoutePoolKey memory key = _v4Key(manager, ptr, token, tokenOut, zeroForOne);
        if (amountOut > uint256(uint128(type(int128).max))) revert InvalidRoute(RouteFault.Malformed);
        // amountSpecified > 0: exact output
        int256 delta = manager.swap(
            key, RouteSwapParams(zeroForOne, int256(amountOut), zeroForOne ? MIN_PRICE_LIMIT : MAX_PRICE_LIMIT), ""
        );
        int256 amount0 = delta >> 128;
        int256 amount1 = int256(int128(delta));
        (int256 deltaIn, int256 deltaOut) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (deltaOut != int256(amountOut)) revert InvalidRoute(RouteFault.PartialFill);
        if (deltaIn >= 0) revert InvalidRoute(RouteFault.ZeroAmount);
        return uint256(-deltaIn);
    }
}
