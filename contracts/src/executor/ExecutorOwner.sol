// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ExecutorBase} from "./ExecutorBase.sol";

/// @title ExecutorOwner
/// @notice RouteExecutor's owner functions: pause, the protocol fee and its collector, the
/// router allowlist, and the two-step ownership transfer.
abstract contract ExecutorOwner is ExecutorBase {
    event OwnershipTransferStarted(address indexed owner, address indexed pendingOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event PauseChanged(bool paused);
    event ProtocolFeeChanged(uint16 previousBps, uint16 newBps);
    event FeeCollectorChanged(address indexed previousCollector, address indexed newCollector);
    event RouterAllowlistChanged(address indexed router, bool allowed);

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }

    function paused() external view returns (bool) {
        return _config.paused;
    }

    function protocolFeeBps() external view returns (uint16) {
        return _config.protocolFeeBps;
    }

    function feeCollector() external view returns (address) {
        return _config.feeCollector;
    }

    function pause() external onlyOwner {
        _config.paused = true;
        emit PauseChanged(true);
    }

    function unpause() external onlyOwner {
        _config.paused = false;
        emit PauseChanged(false);
    }

    /// @notice Sets the protocol fee, at most MAX_PROTOCOL_FEE_BPS. Quotes made at the old rate
    /// revert StaleFeeConfig from now on.
    function setProtocolFeeBps(uint16 bps) external onlyOwner {
        if (bps > MAX_PROTOCOL_FEE_BPS) revert InvalidConfig(ConfigFault.ProtocolFee);
        emit ProtocolFeeChanged(_config.protocolFeeBps, bps);
        _config.protocolFeeBps = bps;
    }

    function setFeeCollector(address collector) external onlyOwner {
        if (collector == address(0) || collector == address(this)) revert InvalidConfig(ConfigFault.FeeCollector);
        emit FeeCollectorChanged(_config.feeCollector, collector);
        _config.feeCollector = collector;
    }

    /// @notice Adds or removes an external router. The executor approves an allowlisted router
    /// for exactly one hop's input and calls it with that hop's data, so only aggregator routers
    /// that pull at most the approved amount and send their output to the caller belong here.
    /// A registered venue contract (factory, pool deployer, PoolManager) or stable pool is never
    /// a router.
    function setRouterAllowed(address router, bool allowed) external onlyOwner {
        if (router == address(0) || router == address(this) || router == USDC || _venueUses[router] != 0) {
            revert InvalidConfig(ConfigFault.Router);
        }
        isRouterAllowed[router] = allowed;
        emit RouterAllowlistChanged(router, allowed);
    }

    /// @notice Starts a two-step ownership transfer; address(0) cancels a pending one.
    function transferOwnership(address newOwner) external onlyOwner {
        pendingOwner = newOwner;
        emit OwnershipTransferStarted(owner, newOwner);
    }

    function acceptOwnership() external {
        if (msg.sender != pendingOwner) revert Unauthorized(msg.sender);
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }
}
