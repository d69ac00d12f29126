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
//   kind 1, Uniswap V2  body = venue:uint8                                               22 bytes a hop
//   kind 2, Uniswap V3  body = venue:uint8 fee:uint24                                    25 bytes
//   kind 3, Uniswap V4  body = venue:uint8 fee:uint24 tickSpacing:int24 hooks:address    48 bytes
//   kind 4, external    body = router:address dataLength:uint24 data                     44 + dataLength bytes
//   kind 5, stable      body = pool:address                                              41 bytes
//
// A hop names only the token it produces: its input is the previous hop's output, and the
// first hop of every split takes the swap's input token (the ERC-20 USDC at 0x3600… for
// native input). Every split must end in the swap's output token (the ERC-20 USDC for native
// output). tokenOut is at hop + 1 for every kind.
//
// `venue` is the id of a deployment the executor's owner registered (setVenue): its kind must
// be the hop's kind, and it gives the factory (V2), the pool deployer (V3) or the PoolManager
// (V4), the pool init code hash (V2, V3) and the swap fee (V2). Pools are never named: a V2
// pair and a V3 pool are derived from the two tokens (and the fee) through the venue's
// CREATE2 address, a V4 pool from its key in the venue's PoolManager. Consecutive V4 hops of
// the same venue run inside one unlock of its PoolManager. A stable hop names a Curve-style
// pool the owner registered (setStablePool) whose coins include both tokens. Calldata never
// brings a factory, an init code hash or a pool of its own.
//
// Shares are basis points of the input, summing to 10000; every split but the last gets
// floor(amountIn * shareBps / 10000), the last gets the rest.
//
// Exact output (executeExactOutput) takes routes of kinds 1, 2, 3, 6 and 7 only; execute takes
// kinds 1 to 5. There the shares divide the gross output the same way, and each split runs
// backward from the output it must deliver. Kind 6 is a stable pool hop for exact output:
// dxHint is the least input the router computed off chain, from which the executor finds the
// input that pays the hop's output (Curve-style pools have no exact-output exchange).
//
//   kind 6, stable, exact output    body = pool:address dxHint:uint128                            57 bytes
//   kind 7, external, exact output  body = router:address maxIn:uint128 dataLength:uint24 data   60 + dataLength bytes
//
// Kind 7 is an allowlisted router asked to buy exactly the split's output for this contract
// (0x's buyAmount, this contract as taker and recipient), spending at most maxIn of the
// route's input (the aggregator's maxSellAmount): only as the first hop of a split, whose
// output it delivers to this contract (alone in its split, or before a kind 6 hop).

uint256 constant KIND_V2 = 1;
uint256 constant KIND_V3 = 2;
uint256 constant KIND_V4 = 3;
uint256 constant KIND_EXTERNAL = 4;
uint256 constant KIND_STABLE = 5;
uint256 constant KIND_STABLE_EXACT_OUT = 6;
uint256 constant KIND_EXTERNAL_EXACT_OUT = 7;

/// @dev kind + tokenOut, the prefix every hop has
uint256 constant HOP_PREFIX = 21;
uint256 constant V2_HOP = 22;
uint256 constant V3_HOP = 25;
uint256 constant V4_HOP = 48;
/// @dev an external hop without its data
uint256 constant EXTERNAL_HOP = 44;
uint256 constant STABLE_HOP = 41;
uint256 constant STABLE_EXACT_OUT_HOP = 57;
/// @dev an exact-output external hop without its data
uint256 constant EXTERNAL_EXACT_OUT_HOP = 60;
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

function u128(uint256 ptr) pure returns (uint256 v) {
    assembly ("memory-safe") {
        v := shr(128, calldataload(ptr))
    }
}
