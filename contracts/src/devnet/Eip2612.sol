// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// @title Eip2612
/// @notice EIP-2612 permits (approvals signed off-chain) as Arc's USDC has them: EIP-712 domain
/// { name, version "2", chainId, verifyingContract }, read with DOMAIN_SEPARATOR() and EIP-5267's
/// eip712Domain(). A signature is ECDSA with a low s and v of 27 or 28; its signer must be the
/// owner (never the zero address); the deadline is checked and each nonce is used once.
/// @dev Declares no storage, so an inheriting token keeps its own layout: it keeps the nonces
/// (after its existing slots) and says how an approval is made.
abstract contract Eip2612 {
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant PERMIT_TYPEHASH =
        keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)");
    /// @dev half the order of secp256k1: a larger s is the malleable twin of a valid signature
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    error ERC2612ExpiredSignature(uint256 deadline);
    error ERC2612InvalidSigner(address signer, address owner);
    error ECDSAInvalidSignatureS(bytes32 s);
    error ECDSAInvalidSignatureV(uint8 v);

    /// @notice The EIP-712 domain's version.
    function version() public pure returns (string memory) {
        return "2";
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(_domainName())), keccak256(bytes(version())), block.chainid, address(this))
        );
    }

    /// @notice EIP-5267: fields 0x0f (name, version, chainId, verifyingContract).
    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory domainName,
            string memory domainVersion,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", _domainName(), version(), block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    /// @notice Sets allowance(owner, spender) to `value` on owner's signature; emits Approval.
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        if (block.timestamp > deadline) revert ERC2612ExpiredSignature(deadline);
        if (uint256(s) > HALF_ORDER) revert ECDSAInvalidSignatureS(s);
        if (v != 27 && v != 28) revert ECDSAInvalidSignatureV(v);
        bytes32 structHash = keccak256(abi.encode(PERMIT_TYPEHASH, owner, spender, value, _useNonce(owner), deadline));
        bytes32 digest = keccak256(abi.encodePacked(hex"1901", DOMAIN_SEPARATOR(), structHash));
        address signer = ecrecover(digest, v, r, s);
        if (signer == address(0) || signer != owner) revert ERC2612InvalidSigner(signer, owner);
        _permitApprove(owner, spender, value);
    }

    /// @dev the EIP-712 domain's name
    function _domainName() internal view virtual returns (string memory);

    /// @dev returns owner's current nonce and moves it on by one
    function _useNonce(address owner) internal virtual returns (uint256);

    /// @dev sets the allowance and emits Approval, as approve does
    function _permitApprove(address owner, address spender, uint256 value) internal virtual;
}
