// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ExecutorBase} from "./ExecutorBase.sol";
import {safeTransfer, safeTransferFrom, balanceOfToken} from "./TokenOps.sol";
import {RouteExecutor} from "../RouteExecutor.sol";

/// @title OrderEntry
/// @notice The route executor's gasless orders: a sender signs a SwapOrder (EIP-712), a relayer
/// sends it with a route of its choosing and takes at most the signed relayer fee out of the
/// output. This code runs only inside RouteExecutor, which delegatecalls it for the selectors it
/// does not know (so it lives at the executor's address, with the executor's storage and
/// balances: EIP-712 verifyingContract is the executor). It inherits ExecutorBase for the
/// executor's storage layout (the reentrancy lock) and errors; its own state, the nonce bitmaps,
/// is in an ERC-7201 namespace that the executor's layout never reaches.
///
/// executeOrder: checks the order (signature, deadline, nonce, relayer fee, tokens), applies the
/// sender's permit if one is given (a failing permit is ignored: the allowance decides), takes
/// the input from the sender into the executor, and swaps it by calling the executor's own
/// execute / executeExactOutput (every check and the callback binding of those entries apply;
/// the executor pays the route from its own balance and keeps the output). Then it pays the
/// relayer its fee, in tokenOut, and the rest to the recipient, whose balance must rise by at
/// least order.amountOut (exact input), or by order.amountOut (exact output: the swap delivers
/// amountOut + relayerFee net of the protocol and partner fees, plus at most one unit, which
/// goes to the recipient; native: plus the wei under one ERC-20 unit). Exact output takes
/// order.amountIn (the most) first and pays back what the route did not use in the same call.
contract OrderEntry is ExecutorBase {
    using {safeTransfer, safeTransferFrom, balanceOfToken} for address;

    /// @notice The terms a sender signs; amounts as in api-1.2 (net of every fee, the relayer's included).
    struct SwapOrder {
        address sender;
        address recipient;
        address tokenIn;
        address tokenOut;
        bool exactOutput;
        /// @dev exact input: what the sender pays; exact output: the most it pays
        uint256 amountIn;
        /// @dev exact input: the least the recipient receives; exact output: what it receives
        uint256 amountOut;
        /// @dev the most the relayer takes, in tokenOut (native: wei)
        uint256 maxRelayerFee;
        uint16 feeBps;
        address feeRecipient;
        /// @dev unordered: any value not used or cancelled yet
        uint256 nonce;
        uint256 deadline;
    }

    event OrderFilled(
        bytes32 indexed orderHash,
        address indexed sender,
        address indexed relayer,
        uint256 amountIn,
        uint256 amountOut,
        uint256 relayerFee
    );
    event NonceCancelled(address indexed sender, uint256 nonce);

    /// @notice The signature is not the sender's: not 65 bytes, a high s or a v other than 27/28,
    /// recovering to another address, or a contract sender's isValidSignature said no.
    error InvalidSignature();
    /// @notice The order's nonce is used or cancelled.
    error NonceUsed(address sender, uint256 nonce);
    /// @notice The relayer asked more than the signed maximum.
    error RelayerFeeTooHigh(uint256 relayerFee, uint256 maxRelayerFee);
    /// @notice An order's input must be an ERC-20 (native USDC: its ERC-20 at 0x3600…).
    error NativeOrderInput();
    /// @notice The permit is for another token than the order's input.
    error PermitTokenMismatch(address token);

    bytes32 internal constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 internal constant NAME_HASH = keccak256("Arc Route Executor");
    bytes32 internal constant VERSION_HASH = keccak256("1");
    bytes32 internal constant ORDER_TYPEHASH = keccak256(
        "SwapOrder(address sender,address recipient,address tokenIn,address tokenOut,bool exactOutput,uint256 amountIn,uint256 amountOut,uint256 maxRelayerFee,uint16 feeBps,address feeRecipient,uint256 nonce,uint256 deadline)"
    );
    /// @dev secp256k1n / 2: a signature's s must not exceed it (no malleable twin)
    uint256 internal constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @custom:storage-location erc7201:arc.route-executor.orders
    struct OrderStorage {
        /// @dev sender => nonce >> 8 => bit (nonce & 0xff) set when used or cancelled
        mapping(address sender => mapping(uint256 word => uint256 bits)) nonceBitmap;
    }

    /// @dev keccak256(abi.encode(uint256(keccak256("arc.route-executor.orders")) - 1)) & ~bytes32(uint256(0xff))
    bytes32 internal constant ORDER_STORAGE = 0xd0a679b3d9fc2b2fad9c0f33867d3b9dbcd2d1c91eb226093d577a46f6e6ef00;

    /// @dev this contract's own address: its functions run only by delegatecall from the executor
    address private immutable _self = address(this);

    modifier delegated() {
        if (address(this) == _self) revert Unauthorized(msg.sender);
        _;
    }

    /// @notice Fills a signed order along `route` (RouteCodec's format, chosen by the relayer)
    /// and pays the relayer `relayerFee` of tokenOut.
    /// @param permit the sender's EIP-2612 permit for the executor, or token 0x0 for none
    /// @param protocolFeeBps the protocol fee rate the relayer's quote used (as execute's)
    /// @return amountIn what the sender paid
    /// @return amountOut what the recipient received (its balance change)
    function executeOrder(
        SwapOrder calldata order,
        bytes calldata signature,
        RouteExecutor.Permit calldata permit,
        uint256 relayerFee,
        uint16 protocolFeeBps,
        bytes calldata route
    ) external delegated returns (uint256 amountIn, uint256 amountOut) {
        if (_entered) revert Reentrancy();
        _entered = true;
        bytes32 orderHash = _checkOrder(order, signature, permit, relayerFee);
        _takeInput(order, permit);
        (amountIn, amountOut) = _fill(order, relayerFee, protocolFeeBps, route);
        emit OrderFilled(orderHash, order.sender, msg.sender, amountIn, amountOut, relayerFee);
        _entered = false;
    }

    /// @notice Cancels the caller's order of `nonce` (used or not): no order of it fills after.
    function cancelNonce(uint256 nonce) external delegated {
        _orders().nonceBitmap[msg.sender][nonce >> 8] |= 1 << (nonce & 0xff);
        emit NonceCancelled(msg.sender, nonce);
    }

    /// @notice Whether `sender`'s order of `nonce` was filled or cancelled.
    function nonceUsed(address sender, uint256 nonce) external view returns (bool) {
        return _orders().nonceBitmap[sender][nonce >> 8] & (1 << (nonce & 0xff)) != 0;
    }

    /// @notice The executor's own payments back to itself (the native wei above an exact
    /// output's gross) arrive here; any other plain transfer is refused.
    receive() external payable {
        if (msg.sender != address(this) || address(this) == _self) revert Unauthorized(msg.sender);
    }

    /// @notice The EIP-712 domain separator of the executor's orders on this chain.
    function orderDomainSeparator() public view returns (bytes32) {
        return keccak256(abi.encode(DOMAIN_TYPEHASH, NAME_HASH, VERSION_HASH, block.chainid, address(this)));
    }

    /// @dev Every check of the order before anything moves; uses its nonce; returns its digest.
    function _checkOrder(
        SwapOrder calldata order,
        bytes calldata signature,
        RouteExecutor.Permit calldata permit,
        uint256 relayerFee
    ) private returns (bytes32 orderHash) {
        if (block.timestamp > order.deadline) revert Expired(order.deadline);
        if (relayerFee > order.maxRelayerFee) revert RelayerFeeTooHigh(relayerFee, order.maxRelayerFee);
        address tokenIn = order.tokenIn;
        if (tokenIn == address(0) || tokenIn == NATIVE_PLACEHOLDER) revert NativeOrderInput();
        if (permit.token != address(0) && permit.token != tokenIn) revert PermitTokenMismatch(permit.token);
        // the swap's own recipient is this contract; the order's must be someone else
        if (order.recipient == address(0) || order.recipient == address(this)) revert InvalidConfig(ConfigFault.Recipient);

        orderHash = keccak256(
            abi.encodePacked("\x19\x01", orderDomainSeparator(), keccak256(abi.encode(ORDER_TYPEHASH, order)))
        );
        address sender = order.sender;
        if (!_validSignature(sender, orderHash, signature)) revert InvalidSignature();

        uint256 nonce = order.nonce;
        uint256 bit = 1 << (nonce & 0xff);
        mapping(uint256 => uint256) storage bitmap = _orders().nonceBitmap[sender];
        uint256 bits = bitmap[nonce >> 8];
        if (bits & bit != 0) revert NonceUsed(sender, nonce);
        bitmap[nonce >> 8] = bits | bit;
    }

    /// @dev permit.token.permit(sender, this, value, deadline, v, r, s); its outcome is left to
    /// the allowance (a permit someone submitted first has set it already)
    function _permit(RouteExecutor.Permit calldata permit, address sender) private {
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0xd505accf))
            mstore(add(m, 0x04), sender)
            mstore(add(m, 0x24), address())
            calldatacopy(add(m, 0x44), add(permit, 0x20), 0xa0)
            pop(call(gas(), calldataload(permit), 0, m, 0xe4, 0, 0))
        }
    }

    /// @dev EOA: a 65-byte (r, s, v) signature with s in the lower half and v 27 or 28 that
    /// recovers to `signer`. A signer with code: ERC-1271 isValidSignature(digest, signature).
    function _validSignature(address signer, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (signer.code.length != 0) {
            (bool ok, bytes memory answer) =
                signer.staticcall(abi.encodeWithSelector(0x1626ba7e, digest, signature));
            return ok && answer.length >= 32 && bytes32(answer) == bytes32(bytes4(0x1626ba7e));
        }
        if (signature.length != 65) return false;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > HALF_ORDER || (v != 27 && v != 28)) return false;
        address recovered = ecrecover(digest, v, r, s);
        return recovered != address(0) && recovered == signer;
    }

    /// @dev Applies the permit, if any, and takes order.amountIn from the sender, which must
    /// arrive in full (no transfer tax).
    function _takeInput(SwapOrder calldata order, RouteExecutor.Permit calldata permit) private {
        address sender = order.sender;
        address tokenIn = order.tokenIn;
        if (permit.token != address(0)) _permit(permit, sender);
        uint256 inBefore = tokenIn.balanceOfToken(address(this));
        tokenIn.safeTransferFrom(sender, address(this), order.amountIn);
        if (tokenIn.balanceOfToken(address(this)) != inBefore + order.amountIn) revert UnsupportedToken(tokenIn);
    }

    /// @dev The swap, then the payments: the unused input back to the sender (exact output), the
    /// relayer's fee, the rest to the recipient, who must receive order.amountOut at least.
    function _fill(SwapOrder calldata order, uint256 relayerFee, uint16 protocolFeeBps, bytes calldata route)
        private
        returns (uint256 amountIn, uint256 amountOut)
    {
        address tokenOut = order.tokenOut;
        bool nativeOut = tokenOut == address(0) || tokenOut == NATIVE_PLACEHOLDER;
        uint256 got = nativeOut ? address(this).balance : tokenOut.balanceOfToken(address(this));
        // the executor's own entry, called by the executor: it pays the route from its own
        // balance and keeps the output; the lock is that entry's until it returns
        _entered = false;
        amountIn = _swap(order, relayerFee, protocolFeeBps, route);
        _entered = true;
        got = (nativeOut ? address(this).balance : tokenOut.balanceOfToken(address(this))) - got;

        if (amountIn != order.amountIn) order.tokenIn.safeTransfer(order.sender, order.amountIn - amountIn);
        if (relayerFee != 0) _send(tokenOut, nativeOut, msg.sender, relayerFee);
        amountOut = _payRecipient(order.recipient, tokenOut, nativeOut, got - relayerFee);
        if (amountOut < order.amountOut) revert Slippage(amountOut, order.amountOut);
    }

    /// @dev The swap through the executor's own entry, recipient the executor; returns the input used.
    function _swap(SwapOrder calldata order, uint256 relayerFee, uint16 protocolFeeBps, bytes calldata route)
        private
        returns (uint256 amountIn)
    {
        RouteExecutor executor = RouteExecutor(payable(address(this)));
        if (order.exactOutput) {
            return executor.executeExactOutput(
                RouteExecutor.ExactOutputParams({
                    tokenIn: order.tokenIn,
                    tokenOut: order.tokenOut,
                    amountOut: order.amountOut + relayerFee,
                    maxAmountIn: order.amountIn,
                    recipient: address(this),
                    deadline: order.deadline,
                    feeBps: order.feeBps,
                    feeRecipient: order.feeRecipient,
                    protocolFeeBps: protocolFeeBps,
                    route: route
                })
            );
        }
        executor.execute(
            RouteExecutor.ExecuteParams({
                tokenIn: order.tokenIn,
                tokenOut: order.tokenOut,
                amountIn: order.amountIn,
                minAmountOut: order.amountOut + relayerFee,
                recipient: address(this),
                deadline: order.deadline,
                feeBps: order.feeBps,
                feeRecipient: order.feeRecipient,
                protocolFeeBps: protocolFeeBps,
                route: route
            })
        );
        return order.amountIn;
    }

    /// @dev Pays `amount` to the recipient; returns its balance change over that payment.
    function _payRecipient(address recipient, address tokenOut, bool nativeOut, uint256 amount)
        private
        returns (uint256 received)
    {
        uint256 before = nativeOut ? recipient.balance : tokenOut.balanceOfToken(recipient);
        if (amount != 0) _send(tokenOut, nativeOut, recipient, amount);
        uint256 afterwards = nativeOut ? recipient.balance : tokenOut.balanceOfToken(recipient);
        // a balance that fell counts as nothing received
        unchecked {
            received = afterwards > before ? afterwards - before : 0;
        }
    }

    function _send(address token, bool native, address to, uint256 amount) private {
        if (!native) return token.safeTransfer(to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert NativeTransferFailed(to);
    }

    function _orders() private pure returns (OrderStorage storage $) {
        assembly ("memory-safe") {
            $.slot := ORDER_STORAGE
        }
    }

    /// @dev ExecutorBase's hook for exact-output hops, which never run here.
    function _deliverExact(uint256, uint256, address, uint256, address) internal pure override {
        revert();
    }
}
