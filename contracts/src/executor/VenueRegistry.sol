// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./RouteCodec.sol" as RouteCodec;
import {ExecutorOwner} from "./ExecutorOwner.sol";

/// @title VenueRegistry
/// @notice The owner's registry of venues (Uniswap V2 / V3 deployments, V4 PoolManagers) and
/// Curve-style stable pools that hops name.
abstract contract VenueRegistry is ExecutorOwner {
    event VenueSet(uint8 indexed id, uint8 kind, address indexed factory, bytes32 initCodeHash, uint16 feeBps);
    event StablePoolSet(address indexed pool, bool registered);

    /// @notice Registers, replaces or removes venue `id`, which hops name by that id.
    /// kind 1, Uniswap V2: factory = the pair factory, initCodeHash = keccak256 of the pair's
    ///   creation code, feeBps = the pairs' swap fee, 1..9999 (30 for Uniswap V2 itself); it must
    ///   be the pairs' true fee, or their K check refuses every swap.
    /// kind 2, Uniswap V3: factory = the address that CREATE2s the pools (the factory, or a
    ///   fork's pool deployer), initCodeHash = the pool's init code hash, feeBps = 0.
    /// kind 3, Uniswap V4: factory = the PoolManager, initCodeHash = 0, feeBps = 0.
    /// kind 0 removes the venue: factory, initCodeHash and feeBps must be zero.
    /// The contract must not be an allowed router, USDC, this contract or zero.
    function setVenue(uint8 id, uint8 kind, address factory, bytes32 initCodeHash, uint16 feeBps) external onlyOwner {
        _setVenue(id, kind, factory, initCodeHash, feeBps);
    }

    /// @notice A venue the constructor registers, as setVenue takes it.
    struct InitialVenue {
        uint8 id;
        uint8 kind;
        address factory;
        bytes32 initCodeHash;
        uint16 feeBps;
    }

    /// @dev The first CACHED_VENUES venues the constructor registers (ids below 64), each as its
    /// _venues slot with (id | 0x100) above bit 192; 0 for none. Used while Config.cachedVenues
    /// has the id's bit, which setVenue clears for good.
    uint256 private immutable _cachedVenue0;
    uint256 private immutable _cachedVenue1;
    uint256 private immutable _cachedVenue2;
    uint256 private constant CACHED_VENUES = 3;

    /// @dev Registers `venues` as setVenue would (distinct ids, else InvalidConfig(Venue)), and
    /// caches the first CACHED_VENUES of them in code.
    constructor(InitialVenue[] memory venues) {
        uint256[CACHED_VENUES] memory cached;
        uint256 seen;
        uint64 bits;
        for (uint256 k; k < venues.length; ++k) {
            InitialVenue memory v = venues[k];
            if ((seen >> v.id) & 1 != 0) revert InvalidConfig(ConfigFault.Venue);
            seen |= 1 << v.id;
            uint256 packed = _setVenue(v.id, v.kind, v.factory, v.initCodeHash, v.feeBps);
            if (k < CACHED_VENUES && v.kind != 0 && v.id < 64) {
                cached[k] = packed | ((uint256(v.id) | 0x100) << 192);
                bits |= uint64(1) << v.id;
            }
        }
        (_cachedVenue0, _cachedVenue1, _cachedVenue2) = (cached[0], cached[1], cached[2]);
        _config.cachedVenues = bits;
    }

    /// @dev setVenue without the owner check; returns the venue's slot as _venueSlot reads it.
    function _setVenue(uint8 id, uint8 kind, address factory, bytes32 initCodeHash, uint16 feeBps)
        private
        returns (uint256 packed)
    {
        bool ok;
        if (kind == 0) ok = factory == address(0) && initCodeHash == 0 && feeBps == 0;
        else if (kind == RouteCodec.KIND_V2) ok = initCodeHash != 0 && feeBps != 0 && feeBps < BPS;
        else if (kind == RouteCodec.KIND_V3) ok = initCodeHash != 0 && feeBps == 0;
        else if (kind == RouteCodec.KIND_V4) ok = initCodeHash == 0 && feeBps == 0;
        if (!ok || (kind != 0 && !_mayBeVenueContract(factory))) revert InvalidConfig(ConfigFault.Venue);
        address previous = _venues[id].factory;
        unchecked {
            if (previous != address(0)) --_venueUses[previous];
            if (factory != address(0)) ++_venueUses[factory];
        }
        uint8 knownHash = initCodeHash == UNISWAP_V2_PAIR_HASH
            ? uint8(KNOWN_HASH_V2_PAIR)
            : initCodeHash == UNISWAP_V3_POOL_HASH ? uint8(KNOWN_HASH_V3_POOL) : 0;
        _venues[id] = Venue({kind: kind, feeBps: feeBps, factory: factory, knownHash: knownHash});
        _venueInitCodeHash[id] = initCodeHash;
        // the code's copy of this id, if any, is stale from now on
        if (id < 64) _config.cachedVenues &= ~(uint64(1) << id);
        emit VenueSet(id, kind, factory, initCodeHash, feeBps);
        return uint256(kind) | uint256(feeBps) << 8 | uint256(uint160(factory)) << 24 | uint256(knownHash) << 184;
    }

    /// @notice Venue `id` as setVenue registered it; kind 0 when there is none.
    function venue(uint8 id) external view returns (uint8 kind, address factory, bytes32 initCodeHash, uint16 feeBps) {
        Venue memory v = _venues[id];
        return (v.kind, v.factory, _venueInitCodeHash[id], v.feeBps);
    }

    /// @notice Registers (again) or removes a Curve-style stable pool. Registering reads the
    /// pool's coins(k) for k = 0, 1, … until it reverts: 2 to 8 distinct non-zero coins, none
    /// of them the pool. Removing clears them. The pool must not be an allowed router, USDC,
    /// this contract or zero.
    function setStablePool(address pool, bool registered) external onlyOwner {
        if (!_mayBeVenueContract(pool)) revert InvalidConfig(ConfigFault.StablePool);
        address[] storage coins = _stableCoins[pool];
        uint256 count = coins.length;
        if (count != 0) {
            for (uint256 k; k < count; ++k) {
                delete _stableIndex[pool][coins[k]];
            }
            delete _stableCoins[pool];
            unchecked {
                --_venueUses[pool];
            }
        }
        if (registered) {
            for (uint256 k;; ++k) {
                (bool exists, address coin) = _stableCoin(pool, k);
                if (!exists) break;
                if (k == MAX_STABLE_COINS || coin == address(0) || coin == pool || _stableIndex[pool][coin] != 0) {
                    revert InvalidConfig(ConfigFault.StablePool);
                }
                _stableIndex[pool][coin] = k + 1;
                coins.push(coin);
            }
            if (coins.length < 2) revert InvalidConfig(ConfigFault.StablePool);
            unchecked {
                ++_venueUses[pool];
            }
        }
        emit StablePoolSet(pool, registered);
    }

    /// @notice The index + 1 of `token` among a registered stable pool's coins; 0 when the pool
    /// is not registered or `token` is not one of its coins.
    function stableCoinIndex(address pool, address token) external view returns (uint256 indexPlusOne) {
        return _stableIndex[pool][token];
    }

    function _mayBeVenueContract(address a) internal view returns (bool) {
        return a != address(0) && a != address(this) && a != USDC && !isRouterAllowed[a];
    }

    /// @dev pool.coins(k): whether it answered (not reverting, one word), and the address. An
    /// answer that is not an address (dirty upper bits) is refused.
    function _stableCoin(address pool, uint256 k) internal view returns (bool exists, address coin) {
        uint256 word;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0xc6610657)) // coins(uint256)
            mstore(add(m, 0x04), k)
            exists := and(gt(returndatasize(), 0x1f), staticcall(gas(), pool, m, 0x24, 0x00, 0x20))
            word := mload(0x00)
        }
        if (exists && word >> 160 != 0) revert InvalidConfig(ConfigFault.StablePool);
        coin = address(uint160(word));
    }


    /// @dev The factory (pool deployer, PoolManager) and swap fee of venue `id`, which must be
    /// registered with kind `kind`; one storage read.
    function _venue(uint256 id, uint256 kind) internal view returns (address factory, uint256 feeBps) {
        (factory, feeBps,) = _venueSlot(id, kind);
    }

    /// @dev As _venue, and the venue's pool init code hash: a well-known one without a second
    /// storage read.
    function _venuePools(uint256 id, uint256 kind)
        internal
        view
        returns (address factory, uint256 feeBps, bytes32 initCodeHash)
    {
        uint256 knownHash;
        (factory, feeBps, knownHash) = _venueSlot(id, kind);
        initCodeHash = _initCodeHash(id, knownHash);
    }

    /// @dev The pool init code hash of venue `id`, whose slot says `knownHash`.
    function _initCodeHash(uint256 id, uint256 knownHash) internal view returns (bytes32) {
        if (knownHash == KNOWN_HASH_V3_POOL) return UNISWAP_V3_POOL_HASH;
        if (knownHash == KNOWN_HASH_V2_PAIR) return UNISWAP_V2_PAIR_HASH;
        return _venueInitCodeHash[id];
    }

    /// @dev _venue's one read (of the code's copy, while it is current, else of storage), and
    /// the venue's knownHash.
    function _venueSlot(uint256 id, uint256 kind) internal view returns (address factory, uint256 feeBps, uint256 knownHash) {
        uint256 packed;
        // id < 256; ids from 64 on are never cached
        if ((uint256(_config.cachedVenues) >> id) & 1 != 0) {
            packed = _cachedVenue(id);
        } else {
            assembly ("memory-safe") {
                // _venues[id]: kind in the lowest byte, then feeBps (2 bytes), the factory (20), knownHash (1)
                mstore(0x00, id)
                mstore(0x20, _venues.slot)
                packed := sload(keccak256(0x00, 0x40))
            }
        }
        if (packed & 0xff != kind) revert InvalidRoute(RouteFault.UnknownPool);
        factory = address(uint160(packed >> 24));
        feeBps = (packed >> 8) & 0xffff;
        knownHash = (packed >> 184) & 0xff;
    }

    /// @dev The code's copy of venue `id`, whose Config.cachedVenues bit is set.
    function _cachedVenue(uint256 id) private view returns (uint256) {
        uint256 key = id | 0x100;
        if (_cachedVenue0 >> 192 == key) return _cachedVenue0;
        if (_cachedVenue1 >> 192 == key) return _cachedVenue1;
        return _cachedVenue2;
    }
}
