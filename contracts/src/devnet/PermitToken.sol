// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {DevnetERC20} from "./DevnetERC20.sol";
import {Eip2612} from "./Eip2612.sol";

/// @title PermitToken
/// @notice A standard ERC-20 with a deployer-only mint and EIP-2612 permits; its EIP-712 domain
/// name is its name (the devnet deploys it with name = symbol), version "2".
/// @dev Storage layout: DevnetERC20's slots 0-4, then
///   slot 5: mapping(address owner => uint256) nonces
contract PermitToken is DevnetERC20, Eip2612 {
    mapping(address owner => uint256) public nonces;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) DevnetERC20(name_, symbol_, decimals_) {}

    function _domainName() internal view override returns (string memory) {
        return name;
    }

    function _useNonce(address owner_) internal override returns (uint256) {
        unchecked {
            return nonces[owner_]++;
        }
    }

    function _permitApprove(address owner_, address spender, uint256 value) internal override {
        if (spender == address(0)) revert ERC20InvalidSpender(spender);
        allowance[owner_][spender] = value;
        emit Approval(owner_, spender, value);
    }
}
