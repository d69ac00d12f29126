// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {DevnetERC20} from "./DevnetERC20.sol";

/// @title FeeOnTransferToken
/// @notice An ERC-20 that burns a fee on every transfer and transferFrom: the sender is debited
/// `value`, the receiver gets `value - value * feeBps / 10000`, the fee is burned (totalSupply
/// drops; a second Transfer event goes to address(0)). Minting takes no fee.
/// @dev Storage layout: see DevnetERC20 (balances in slot 0, allowances in slot 1).
///
/// How an off-chain checker detects the fee with one eth_call:
///   pick an account H holding at least `x` of the token (a pool, say) and put the runtime
///   code of TokenTransferProbe at H with a state override (`code`); call
///   H.probe(token, R, x) for a fresh R. The token still sees H's balance (it lives in the
///   token's storage), H's code is replaced only for this call. The probe returns how much
///   left H and how much reached R: `received < x` means the token takes a fee on transfer
///   (here received == x - x * feeBps / 10000, sent == x).
///   Without a holder, override the balance slot instead (stateDiff on the token at
///   keccak256(abi.encode(H, 0))) and run the same probe at any address H.
contract FeeOnTransferToken is DevnetERC20 {
    uint16 public immutable feeBps;

    error InvalidFee(uint16 feeBps);

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint16 feeBps_)
        DevnetERC20(name_, symbol_, decimals_)
    {
        if (feeBps_ > 10_000) revert InvalidFee(feeBps_);
        feeBps = feeBps_;
    }

    function _transfer(address from, address to, uint256 value) internal override {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        _spend(from, value, value);
        // value <= the sender's balance <= totalSupply, so the product only overflows for absurd supplies
        uint256 fee = value * feeBps / 10_000;
        uint256 delivered;
        unchecked {
            delivered = value - fee;
            _totalUnits -= fee;
        }
        _credit(to, delivered);
        emit Transfer(from, to, delivered);
        if (fee != 0) emit Transfer(from, address(0), fee);
    }
}
