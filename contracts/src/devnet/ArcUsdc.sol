// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {Eip2612} from "./Eip2612.sol";

/// @title ArcUsdc
/// @notice Arc's USDC ERC-20 interface for the devnet. USDC is the chain's native currency
/// (18 decimals, pays gas); this contract is a 6-decimal ERC-20 view of the SAME balance:
///   balanceOf(a) == a.balance / 1e12, and transfer/transferFrom of `value` move exactly
///   value * 1e12 of native balance. Native dust below 1e12 is invisible to the ERC-20 view
///   and cannot be moved through it.
/// @dev Installed with anvil_setCode at 0x3600000000000000000000000000000000000000, so it has
/// no constructor state and no immutables. Native balance moves through NativeTransferRelay
/// (at 0x471EcE3750Da237f93B8E339c536989b8978a438) into the transfer precompile at 0xfd, which
/// changes balances directly: the recipient's code never runs, as on Arc.
///
/// Storage layout (for state overrides):
///   slot 0: mapping(address owner => mapping(address spender => uint256)) allowance
///           allowance(owner, spender) lives at keccak256(abi.encode(spender, keccak256(abi.encode(owner, 0))))
///   slot 1: uint256 totalSupply (6 decimals; written by the devnet installer, see totalSupply())
///   slot 2: mapping(address owner => uint256) nonces (EIP-2612)
///   balances: none in storage. balanceOf is the native balance: override an account's
///           native `balance` (value * 1e12) to override its USDC balance.
///
/// Allowances follow Circle's FiatToken: transferFrom always decreases the allowance,
/// including an allowance of type(uint256).max.
///
/// EIP-2612 permits as on Arc: EIP-712 domain name "USDC", version "2" (see Eip2612).
contract ArcUsdc is Eip2612 {
    address internal constant NATIVE_RELAY = 0x471EcE3750Da237f93B8E339c536989b8978a438;
    uint256 internal constant SCALE = 1e12;

    mapping(address owner => mapping(address spender => uint256)) public allowance;

    /// @notice The supply recorded by whoever mints native USDC on the devnet (6 decimals).
    /// @dev The EVM cannot read a chain's native supply, and the devnet's supply moves outside
    /// this contract (genesis allocation, anvil_setBalance, burnt base fees). The installer
    /// records the supply it knows of (by default the node's genesis allocation) in slot 1;
    /// the value is informational and no balance depends on it.
    uint256 public totalSupply;

    mapping(address owner => uint256) public nonces;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InvalidSender(address sender);
    error ERC20InvalidReceiver(address receiver);
    error ERC20InvalidSpender(address spender);
    error NativeTransferFailed();

    function name() external pure returns (string memory) {
        return "USDC";
    }

    function symbol() external pure returns (string memory) {
        return "USDC";
    }

    function decimals() external pure returns (uint8) {
        return 6;
    }

    function balanceOf(address account) external view returns (uint256) {
        return account.balance / SCALE;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        if (from == address(0)) revert ERC20InvalidSender(from);
        uint256 allowed = allowance[from][msg.sender];
        if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
        unchecked {
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        if (spender == address(0)) revert ERC20InvalidSpender(spender);
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function _domainName() internal pure override returns (string memory) {
        return "USDC";
    }

    function _useNonce(address owner) internal override returns (uint256) {
        unchecked {
            return nonces[owner]++;
        }
    }

    function _permitApprove(address owner, address spender, uint256 value) internal override {
        if (spender == address(0)) revert ERC20InvalidSpender(spender);
        allowance[owner][spender] = value;
        emit Approval(owner, spender, value);
    }

    function _transfer(address from, address to, uint256 value) private {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        // value * SCALE overflows only for values no balance can cover
        if (value > type(uint256).max / SCALE) revert ERC20InsufficientBalance(from, from.balance / SCALE, value);
        uint256 native = value * SCALE;
        uint256 balance = from.balance;
        if (balance < native) revert ERC20InsufficientBalance(from, balance / SCALE, value);
        if (native != 0 && from != to) {
            (bool ok,) = NATIVE_RELAY.call(abi.encode(from, to, native));
            if (!ok) revert NativeTransferFailed();
        }
        emit Transfer(from, to, value);
    }
}

/// @title NativeTransferRelay
/// @notice The only caller the devnet intends for the transfer precompile: accepts exactly
/// abi.encode(address from, address to, uint256 nativeValue) (96 bytes, no selector) from
/// ArcUsdc at 0x3600… and forwards it unchanged to the precompile at 0xfd.
/// @dev Installed with anvil_setCode at 0x471EcE3750Da237f93B8E339c536989b8978a438 (the address
/// Celo reserves for the precompile's caller). anvil 1.7.1's precompile does not enforce that
/// rule itself: any account calling 0xfd directly can move any balance on the devnet.
contract NativeTransferRelay {
    address internal constant USDC = 0x3600000000000000000000000000000000000000;
    address internal constant TRANSFER_PRECOMPILE = 0x00000000000000000000000000000000000000fd;

    error Unauthorized(address caller);
    error InvalidInput();
    error NativeTransferFailed();

    fallback() external {
        if (msg.sender != USDC) revert Unauthorized(msg.sender);
        if (msg.data.length != 96) revert InvalidInput();
        (bool ok,) = TRANSFER_PRECOMPILE.call(msg.data);
        if (!ok) revert NativeTransferFailed();
    }
}
