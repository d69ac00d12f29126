// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {DevnetERC20} from "./DevnetERC20.sol";

/// @title RebasingToken
/// @notice A shares-based ERC-20 whose balances grow with time, without any transfer:
///   index(t) = 1e18 + (t - deployTime) * RATE, RATE = 1e17 / 365 days (10% a year, linear)
///   balanceOf(a) = shares(a) * index / 1e18, totalSupply = totalShares * index / 1e18.
/// Transfers, transferFrom and mint take amounts in balance units and move
/// floor(value * 1e18 / index) shares, so what arrives can be a unit or two short of `value`
/// (the sender's balance can also drop by less than `value`).
/// @dev Storage layout: see DevnetERC20; slot 0 holds SHARES (not balances), slot 2 total shares.
///
/// How an off-chain checker detects the rebase with eth_call:
///   1. Balance that moves with time: eth_call balanceOf(H) for a holder H twice, once as is
///      and once with a block override moving the timestamp forward (eth_call's block
///      overrides `{ time }`, or eth_simulateV1's blockOverrides), e.g. by one year. A standard
///      token answers the same; this one answers more (+10% of H's balance after a year, so
///      even tiny balances show it).
///   2. Transfer that does not deliver exactly: the TokenTransferProbe check described in
///      FeeOnTransferToken (probe code placed at H with a `code` state override, or at any
///      address after a stateDiff on its share slot keccak256(abi.encode(H, 0))) returns
///      sent/received different from the amount for most amounts once the index is not 1e18.
///   Check 1 is the reliable one: it needs no amount and fires whenever H holds anything.
contract RebasingToken is DevnetERC20 {
    uint256 public constant RATE = 1e17 / uint256(365 days);
    uint256 internal constant ONE = 1e18;
    uint256 public immutable startTime;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) DevnetERC20(name_, symbol_, decimals_) {
        startTime = block.timestamp;
    }

    /// @notice Balance units per share, scaled by 1e18.
    function index() public view returns (uint256) {
        return ONE + (block.timestamp - startTime) * RATE;
    }

    function sharesOf(address account) external view returns (uint256) {
        return _units[account];
    }

    function totalShares() external view returns (uint256) {
        return _totalUnits;
    }

    function balanceOf(address account) public view override returns (uint256) {
        return _units[account] * index() / ONE;
    }

    function totalSupply() public view override returns (uint256) {
        return _totalUnits * index() / ONE;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        uint256 current = index();
        uint256 balance = _units[from] * current / ONE;
        if (balance < value) revert ERC20InsufficientBalance(from, balance, value);
        // value <= balance, so shares <= the sender's shares
        uint256 shares = value * ONE / current;
        _spend(from, shares, value);
        _credit(to, shares);
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) internal override {
        uint256 shares = value * ONE / index();
        _totalUnits += shares;
        _credit(to, shares);
        emit Transfer(address(0), to, value);
    }
}
