// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title DevnetERC20
/// @notice Minimal ERC-20 shared by the devnet's test tokens: the deployer is the only minter.
/// @dev Storage layout (for state overrides), the same as OpenZeppelin's ERC20:
///   slot 0: mapping(address => uint256) balance units (RebasingToken stores shares here)
///           key(account) = keccak256(abi.encode(account, 0))
///   slot 1: mapping(address owner => mapping(address spender => uint256)) allowance
///           key(owner, spender) = keccak256(abi.encode(spender, keccak256(abi.encode(owner, 1))))
///   slot 2: uint256 total units (RebasingToken: total shares)
///   slot 3, 4: name, symbol (Solidity string encoding)
/// An allowance of type(uint256).max is never decreased.
abstract contract DevnetERC20 {
    mapping(address account => uint256) internal _units;
    mapping(address owner => mapping(address spender => uint256)) public allowance;
    uint256 internal _totalUnits;
    string public name;
    string public symbol;
    uint8 public immutable decimals;
    address public immutable owner;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed);
    error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error ERC20InvalidSender(address sender);
    error ERC20InvalidReceiver(address receiver);
    error ERC20InvalidSpender(address spender);
    error Unauthorized(address caller);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) {
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        owner = msg.sender;
    }

    function balanceOf(address account) public view virtual returns (uint256) {
        return _units[account];
    }

    function totalSupply() public view virtual returns (uint256) {
        return _totalUnits;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        if (from == address(0)) revert ERC20InvalidSender(from);
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert ERC20InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
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

    /// @notice Creates `value` tokens for `to` (deployer only).
    function mint(address to, uint256 value) external {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        _mint(to, value);
    }

    /// @dev Takes `units` of storage balance from `from`; `value` is what the caller asked to move.
    function _spend(address from, uint256 units, uint256 value) internal {
        uint256 fromUnits = _units[from];
        if (fromUnits < units) revert ERC20InsufficientBalance(from, balanceOf(from), value);
        unchecked {
            _units[from] = fromUnits - units;
        }
    }

    /// @dev Adds `units` to `to`; cannot overflow, the sum of all units is _totalUnits.
    function _credit(address to, uint256 units) internal {
        unchecked {
            _units[to] += units;
        }
    }

    function _transfer(address from, address to, uint256 value) internal virtual {
        if (to == address(0)) revert ERC20InvalidReceiver(to);
        _spend(from, value, value);
        _credit(to, value);
        emit Transfer(from, to, value);
    }

    function _mint(address to, uint256 value) internal virtual {
        _totalUnits += value;
        _credit(to, value);
        emit Transfer(address(0), to, value);
    }
}
