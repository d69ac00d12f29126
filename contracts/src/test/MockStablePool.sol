// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IMockStableToken {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// @title MockStablePool
/// @notice Test-only stand-in for a Curve-style plain pool with any list of coins (none
/// checked): coins(k) reverts past the last one; exchange(i, j, dx, minDy) pulls dx - shortBy
/// of coin i from the caller and pays `payout` of coin j from its own inventory, whatever the
/// amounts — a pool that misbehaves on demand.
contract MockStablePool {
    address[] private _coins;
    uint256 public shortBy;
    uint256 public payout;

    constructor(address[] memory coins_) {
        _coins = coins_;
    }

    function coins(uint256 k) external view returns (address) {
        require(k < _coins.length, "index");
        return _coins[k];
    }

    function setBehavior(uint256 shortBy_, uint256 payout_) external {
        shortBy = shortBy_;
        payout = payout_;
    }

    function exchange(int128 i, int128 j, uint256 dx, uint256) external returns (uint256) {
        require(IMockStableToken(_coins[uint256(int256(i))]).transferFrom(msg.sender, address(this), dx - shortBy), "pull");
        if (payout != 0) require(IMockStableToken(_coins[uint256(int256(j))]).transfer(msg.sender, payout), "pay");
        return payout;
    }
}
