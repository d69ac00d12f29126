// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

// The packed route format the route executor takes, and calldata readers for it
// (import this file `as RouteCodec`).
//
// A route is a byte string, all integers big-endian:
//
//   route := splitCount:uint8  split{splitCount}
//   split := shareBps:uint16  hopCount:uint8  hop{hopCount}
//   hop   := kind:uint8  tokenOut:address  body
//
//   kind 1, Uniswap V2  body = (none)                                       21 bytes a hop
//   kind 2, Uniswap V3  body = fee:uint24                                   24 bytes
//   kind 3, Uniswap V4  body = fee:uint24 tickSpacing:int24 hooks:address   47 bytes
//   kind 4, external    body = router:address dataLength:uint24 data        44 + dataLength bytes
//
// A hop names only the token it produces: its input is the previous hop's output, and the
// first hop of every split takes the swap's input token (the ERC-20 USDC at 0x3600… for
// native input). Every split must end in the swap's output token (the ERC-20 USDC for native
// output). Pools are never named: a V2 pair and a V3 pool are derived from the two tokens
// (and the fee) through their factory's CREATE2 address, a V4 pool from its key. Shares are
// basis points of the input, summing to 10000; every split but the last gets
// floor(amountIn * shareBps / 10000), the last gets the rest.

uint256 constant KIND_V2 = 1;
uint256 constant KIND_V3 = 2;
uint256 constant KIND_V4 = 3;
uint256 constant KIND_EXTERNAL = 4;

/// @dev kind + tokenOut, the prefix every hop has
uint256 constant HOP_PREFIX = 21;
uint256 constant V2_HOP = 21;
uint256 constant V3_HOP = 24;
uint256 constant V4_HOP = 47;
/// @dev an external hop without its data
uint256 constant EXTERNAL_HOP = 44;
/// @dev shareBps + hopCount
uint256 constant SPLIT_HEADER = 3;

function u8(uint256 ptr) pure returns (uint256 v) {
    assembly ("memory-safe") {
        v := shr(248, calldataload(ptr))
    }
}

function u16(uint256 ptr) pure returns (uint256 v) {
    assembly ("memory-safe") {
        v := shr(240, calldataload(ptr))
    }
}

function u24(uint256 ptr) pure returns (uint24 v) {
    assembly ("memory-safe") {
        v := shr(232, calldataload(ptr))
    }
}

function i24(uint256 ptr) pure returns (int24 v) {
    assembly ("memory-safe") {
        v := signextend(2, shr(232, calldataload(ptr)))
    }
}

function addr(uint256 ptr) pure returns (address v) {
    assembly ("memory-safe") {
        v := shr(96, calldataload(ptr))
    }
}

function word(uint256 ptr) pure returns (uint256 v) {
    assembly ("memory-safe") {
        v := calldataload(ptr)
    }
}
