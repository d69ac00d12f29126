// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title MaliciousReentrantToken
/// @notice Test-only ERC-20 that, on every transfer and transferFrom, makes one configured call
/// (to the route executor, say: execute again, or one of its swap callbacks) and records how
/// that call ended, without letting its failure stop the transfer. Anyone may mint.
contract MaliciousReentrantToken {
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    uint256 public totalSupply;
    uint8 public constant decimals = 18;
    string public constant name = "Malicious";
    string public constant symbol = "EVIL";

    address public attackTarget;
    bytes public attackData;
    bool private attacking;
    uint256 public attackCount;
    bool public lastAttackSucceeded;
    bytes public lastAttackResult;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function setAttack(address target, bytes calldata data) external {
        attackTarget = target;
        attackData = data;
    }

    function mint(address to, uint256 value) external {
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "allowance");
        if (allowed != type(uint256).max) allowance[from][msg.sender] = allowed - value;
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        if (attackTarget != address(0) && !attacking) {
            attacking = true;
            (bool ok, bytes memory result) = attackTarget.call(attackData);
            attacking = false;
            attackCount += 1;
            lastAttackSucceeded = ok;
            lastAttackResult = result;
        }
    }
}
