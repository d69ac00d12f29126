// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {DevnetERC20} from "./DevnetERC20.sol";

/// @title TestToken
/// @notice A standard ERC-20 with a deployer-only mint (storage layout: see DevnetERC20).
contract TestToken is DevnetERC20 {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) DevnetERC20(name_, symbol_, decimals_) {}
}
