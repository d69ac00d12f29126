// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title SmartWallet
/// @notice A contract wallet for gasless order tests: its owner (an EOA) signs for it, and
/// isValidSignature (ERC-1271) accepts a 65-byte ECDSA signature of the owner over the digest
/// as it is. The owner makes the wallet's own calls (approve a token, cancel a nonce) through
/// execute.
contract SmartWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        address signer = ecrecover(digest, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    /// @notice Calls `target` with `data` as the wallet; the owner only. Bubbles a revert.
    function execute(address target, bytes calldata data) external returns (bytes memory result) {
        require(msg.sender == owner, "not the owner");
        bool ok;
        (ok, result) = target.call(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }

    receive() external payable {}
}
