// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {StableSwapPool} from "./StableSwapPool.sol";

/// @title StableSwapFactory
/// @notice The devnet's stand-in for Curve's plain-pool factory, with the part of its interface
/// the service reads, written anew in Solidity:
///   - deploy_plain_pool(name, symbol, coins, A, fee): anyone deploys a StableSwapPool of the
///     coins (address[4], the unused ones zero after the last), A and fee (1e-10 units)
///   - pool_count(), pool_list(i): every pool deployed, in order; pool_list past the last is
///     the zero address, as Curve's fixed-size list reads
///   - PlainPoolDeployed(coins, A, fee, deployer): Curve's factory event (its v2 signature),
///     which does not name the pool: readers go to pool_count and pool_list
/// Differences from Curve: no implementations to choose from (one pool contract, created
/// with `new`), no asset types, no metapools, no gauges, no admin; the name and symbol are
/// taken for the interface's sake (the pool's LP token has a fixed name).
contract StableSwapFactory {
    uint256 private constant MAX_COINS = 4;

    address[] private _pools;

    event PlainPoolDeployed(address[4] coins, uint256 A, uint256 fee, address deployer);

    /// @dev fewer than two coins, or a coin after a zero address
    error InvalidCoins();

    /// @notice Deploys a plain pool of the coins before the first zero address.
    /// @param _coins the pool's coins in pool order, padded with zero addresses
    /// @param _A the amplification coefficient (StableSwapPool checks 1 <= A <= 1e6)
    /// @param _fee the swap fee in units of 1e-10
    /// @return pool the new pool
    function deploy_plain_pool(string calldata, string calldata, address[4] calldata _coins, uint256 _A, uint256 _fee)
        external
        returns (address pool)
    {
        uint256 n;
        while (n < MAX_COINS && _coins[n] != address(0)) ++n;
        for (uint256 k = n; k < MAX_COINS; ++k) {
            if (_coins[k] != address(0)) revert InvalidCoins();
        }
        if (n < 2) revert InvalidCoins();
        address[] memory coins = new address[](n);
        for (uint256 k; k < n; ++k) coins[k] = _coins[k];
        pool = address(new StableSwapPool(coins, _A, _fee));
        _pools.push(pool);
        emit PlainPoolDeployed(_coins, _A, _fee, msg.sender);
    }

    /// @notice how many pools the factory has deployed
    function pool_count() external view returns (uint256) {
        return _pools.length;
    }

    /// @notice the i-th pool deployed (from 0); the zero address past the last
    function pool_list(uint256 i) external view returns (address) {
        return i < _pools.length ? _pools[i] : address(0);
    }
}
