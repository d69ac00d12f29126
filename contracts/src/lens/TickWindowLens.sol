// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IV3TickReads {
    function tickBitmap(int16 wordPosition) external view returns (uint256);
    function ticks(int24 tick) external view returns (uint128 liquidityGross, int128 liquidityNet);
}

interface IV4TickReads {
    function getTickBitmap(bytes32 poolId, int16 tick) external view returns (uint256);
    function getTickLiquidity(bytes32 poolId, int24 tick) external view returns (uint128 liquidityGross, int128 liquidityNet);
}

/// @title TickWindowLens
/// @notice The initialized ticks of many concentrated pools' tick windows in one call: every
/// tick-bitmap word of each window is read, and every tick a word marks (its liquidityNet).
/// Meant to run inside eth_call with its runtime code placed (state override `code`) at an
/// address without code; nothing is ever sent on chain. Most bitmap words of a window are
/// empty: reading them here, next to the pool, answers with the few ticks that exist instead
/// of one 32-byte answer per word.
contract TickWindowLens {
    /// @dev a window's count when one of its reads failed (or answered too little)
    int256 internal constant FAILED = -1;
    /// @dev a window's count when the call's gas ran short before it: the window was not read
    int256 internal constant NOT_READ = -2;
    /// @dev what a window costs past its words' reads (its ticks, the answer), at most, in gas
    uint256 internal constant WINDOW_RESERVE = 150_000;
    /// @dev what one bitmap word's read costs, at most, in gas (a cold slot, a warm account)
    uint256 internal constant WORD_GAS = 6_000;

    struct Window {
        /// @dev a V3 pool, or a V4 venue's StateView
        address target;
        /// @dev zero for a V3 pool; a V4 pool's id
        bytes32 poolId;
        int24 tickSpacing;
        int16 minWord;
        int16 maxWord;
    }

    /// @notice For each window, in order: its count of initialized ticks, then each tick and its
    /// liquidityNet, ascending. A count of -1: a read failed; -2: the call's gas ran short first
    /// (that window and every later one are not read: ask again for them).
    function windowTicks(Window[] calldata windows) external view returns (int256[] memory out) {
        out = new int256[](windows.length * 5 + 16);
        uint256 at = 0;
        for (uint256 w = 0; w < windows.length; w++) {
            Window calldata window = windows[w];
            uint256 words = uint256(int256(window.maxWord) - int256(window.minWord) + 1);
            if (gasleft() < words * WORD_GAS + WINDOW_RESERVE) {
                for (; w < windows.length; w++) (out, at) = push(out, at, NOT_READ);
                break;
            }
            uint256 countAt = at;
            bool ok;
            (out, at) = push(out, at, 0);
            (out, at, ok) = readWindow(window, out, at);
            if (ok) {
                out[countAt] = int256((at - countAt - 1) / 2);
            } else {
                at = countAt + 1;
                out[countAt] = FAILED;
            }
        }
        assembly {
            mstore(out, at)
        }
    }

    /// @dev the window's ticks and liquidityNets pushed; false when a read failed
    function readWindow(Window calldata window, int256[] memory out, uint256 at) internal view returns (int256[] memory, uint256, bool) {
        for (int256 word = window.minWord; word <= window.maxWord; word++) {
            (bool ok, uint256 bitmap) = bitmapOf(window, int16(word));
            if (!ok) return (out, at, false);
            while (bitmap != 0) {
                int24 tick = int24((word * 256 + int256(lowestBit(bitmap))) * window.tickSpacing);
                bitmap &= bitmap - 1;
                (bool read, int128 net) = liquidityNetOf(window, tick);
                if (!read) return (out, at, false);
                (out, at) = push(out, at, tick);
                (out, at) = push(out, at, net);
            }
        }
        return (out, at, true);
    }

    function bitmapOf(Window calldata window, int16 word) internal view returns (bool ok, uint256 bitmap) {
        (ok, bitmap) = poolRead(window, IV3TickReads.tickBitmap.selector, IV4TickReads.getTickBitmap.selector, word, 0);
    }

    /// @dev V3 ticks(tick) and V4 getTickLiquidity(id, tick) both answer liquidityGross, liquidityNet first
    function liquidityNetOf(Window calldata window, int24 tick) internal view returns (bool ok, int128 net) {
        (bool read, uint256 word) = poolRead(window, IV3TickReads.ticks.selector, IV4TickReads.getTickLiquidity.selector, tick, 1);
        int256 value = int256(word);
        if (!read || value < type(int128).min || value > type(int128).max) return (false, 0);
        return (true, int128(value));
    }

    /// @dev One read of the window's pool: `v3(arg)` of a V3 pool, `v4(poolId, arg)` of a V4
    /// StateView; ok with the answer's word `index` when the call succeeded and answered it. The
    /// call data is written in free memory without claiming it: a window's many reads then cost
    /// no memory growth.
    function poolRead(Window calldata window, bytes4 v3, bytes4 v4, int256 arg, uint256 index) internal view returns (bool ok, uint256 word) {
        address target = window.target;
        bytes32 poolId = window.poolId;
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            let answered := mul(32, add(index, 1))
            switch poolId
            case 0 {
                mstore(ptr, v3)
                mstore(add(ptr, 4), arg)
                ok := staticcall(gas(), target, ptr, 36, ptr, answered)
            }
            default {
                mstore(ptr, v4)
                mstore(add(ptr, 4), poolId)
                mstore(add(ptr, 36), arg)
                ok := staticcall(gas(), target, ptr, 68, ptr, answered)
            }
            ok := and(ok, iszero(lt(returndatasize(), answered)))
            word := mload(add(ptr, mul(32, index)))
        }
    }

    function lowestBit(uint256 x) internal pure returns (uint256 bit) {
        // x & -x isolates the lowest set bit; its index by binary search
        x &= (~x + 1);
        if (x >> 128 != 0) { bit += 128; x >>= 128; }
        if (x >> 64 != 0) { bit += 64; x >>= 64; }
        if (x >> 32 != 0) { bit += 32; x >>= 32; }
        if (x >> 16 != 0) { bit += 16; x >>= 16; }
        if (x >> 8 != 0) { bit += 8; x >>= 8; }
        if (x >> 4 != 0) { bit += 4; x >>= 4; }
        if (x >> 2 != 0) { bit += 2; x >>= 2; }
        if (x >> 1 != 0) { bit += 1; }
    }

    /// @dev out[at] = value, the array grown (doubled) when full
    function push(int256[] memory out, uint256 at, int256 value) internal pure returns (int256[] memory, uint256) {
        if (at == out.length) {
            int256[] memory grown = new int256[](out.length * 2);
            for (uint256 i = 0; i < at; i++) grown[i] = out[i];
            out = grown;
        }
        out[at] = value;
        return (out, at + 1);
    }
}
