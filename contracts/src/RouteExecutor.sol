// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import "./executor/RouteCodec.sol" as RouteCodec;
import {safeTransfer, balanceOfToken} from "./executor/TokenOps.sol";
import {StableHop} from "./executor/StableHop.sol";
import {ExternalRouterHop} from "./executor/ExternalRouterHop.sol";
import {UniswapV2Hop} from "./executor/UniswapV2Hop.sol";
import {UniswapV3Hop} from "./executor/UniswapV3Hop.sol";
import {UniswapV4Hops} from "./executor/UniswapV4Hops.sol";
import {ExactOutputRoute} from "./executor/ExactOutputRoute.sol";
import {VenueRegistry} from "./executor/VenueRegistry.sol";

/// @title RouteExecutor
/// @notice Executes an exact-input swap along an encoded route (splits of hops over Uniswap V2
/// pairs, V3 pools, V4 pools, Curve-style stable pools and allowlisted external routers), takes
/// the protocol and partner fees from the output, and pays the rest to the recipient, whose
/// balance must rise by at least `minAmountOut`, or reverts.
///
/// Venues: the executor knows AMM deployments only through its owner. A venue id (0..255)
/// names a Uniswap V2 deployment (its factory, pair init code hash and swap fee), a V3
/// deployment (the address that CREATE2s its pools and their init code hash) or a V4
/// PoolManager (setVenue); a stable pool is registered with its coins (setStablePool). A hop
/// names a venue id or a registered pool, never a factory, a hash or a pool of its own. The
/// venues the constructor registers are also kept in code (the first three of ids below 64)
/// until setVenue changes them, and Uniswap's own init code hashes are known, so a hop through
/// them reads no venue slot or none but one.
///
/// Users approve this contract (ERC-20 input) or send native USDC with the call. It keeps
/// nothing: after every call it holds the same balances as before and no allowance.
///
/// USDC on Arc is one balance at two scales: the native currency (18 decimals) and the ERC-20
/// at 0x3600… (6 decimals), whose transfers move native balance. Pools only ever hold the
/// ERC-20. Native input (tokenIn 0x0 or 0xEeee…EeeE) arrives as msg.value and is this
/// contract's ERC-20 balance at once: amountIn / 1e12 units go down the route, and the
/// remainder (amountIn % 1e12 wei, not a whole ERC-20 unit) is refunded to the sender.
/// Native output: the route ends in the ERC-20, and the output is paid as native value.
///
/// Fees, on the gross output in tokenOut's smallest unit, rounding down:
///   protocolAmount = gross * protocolBps / 10000   to the fee collector
///   partnerAmount  = gross * feeBps / 10000        to feeRecipient
///   net            = gross - protocolAmount - partnerAmount   to the recipient
/// amountOut is what reaches the recipient: its balance change over its own payment (less than
/// net for a token that takes a fee on transfer; a fee it also receives as feeRecipient or fee
/// collector does not count), and must be >= minAmountOut.
/// With nothing to take (protocol fee and partner fee both 0) from an ERC-20 output for another
/// account than this contract, each split's last hop pays the recipient itself (a V2 pair or a
/// V3 pool swaps to it, a V4 PoolManager takes to it; a stable pool or an external router pays
/// here, where its output is measured, and the hop sends it on), and amountOut is the
/// recipient's balance change over the whole route, which must be >= minAmountOut.
/// For native output the gross is this contract's native balance change, in wei (18
/// decimals), i.e. the route's ERC-20 output * 1e12; the formulas apply to that wei amount
/// unchanged and every part is paid in native value. Because 1e12 * bps / 10000 is a whole
/// number, the native fee amounts are exact: protocolAmount = routeOutput * protocolBps * 1e8.
/// minAmountOut for native output is in wei.
///
/// Safety: the executor calls only pools it derives itself from a registered venue (V2 pairs
/// and V3 pools from the venue's CREATE2 address, V4 pools through the venue's PoolManager),
/// registered stable pools, routers on the owner's allowlist, and tokens for transfers; the
/// only transferFrom it makes takes from msg.sender. A swap or unlock callback pays only what the
/// hop asked for in that very call: just before a pool's swap or a PoolManager's unlock, the
/// hop binds keccak256(that contract ‖ the data it hands over) in transient storage, and the
/// callback is accepted only from that contract, once, with that data byte for byte (so its
/// token, payer and amount are the hop's own); the binding is cleared by the callback, and a
/// swap or unlock that returns without having called back reverts. Input is checked to arrive in
/// full: by balance for a V2 pair, a stable pool and an external router, by the V3 pool's own
/// balance check (its "IIA" revert becomes UnsupportedToken), by the PoolManager's settle() for
/// V4. A stable pool or an external router is approved for exactly the hop's input, must take
/// all of it, and keeps no allowance after the call. execute is not reentrant. Amounts above
/// 2**128 - 1 are refused (InvalidValue). In an exact-output swap the binding covers the output
/// the pool must pay and the bytes of the hops before it (which deliver what it asks, and whose
/// own swaps bind their callbacks in turn, each cleared before the next is set); the payer is
/// only ever the sender or this contract, and everything taken from it counts against
/// maxAmountIn. executeExactOutput is not reentrant either, and the two never run inside
/// each other.
///
/// Exact output (executeExactOutput): the recipient gets exactly `amountOut` net of both fees
/// (the net grows by at most one unit per unit of gross, so the least gross reaching amountOut
/// nets to it exactly), the sender pays what the route needs and at most `maxAmountIn`. The gross target G is the least gross whose net by the fee
/// formulas above reaches amountOut; the route delivers G (native output: ceil(G / 1e12)
/// ERC-20 units, the wei above G going back to the sender), split by the shares as above, and
/// each split runs backward (ExactOutputRoute). Native input: msg.value is maxAmountIn, and
/// what the route did not use is paid back in the same call.
contract RouteExecutor is StableHop, ExternalRouterHop, UniswapV2Hop, UniswapV3Hop, UniswapV4Hops, ExactOutputRoute {
    using {safeTransfer, balanceOfToken} for address;

    /// @notice The arguments of execute. Amounts are in the token's smallest unit (native USDC:
    /// 18 decimals). `route` is RouteCodec's packed format.
    struct ExecuteParams {
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
        /// @dev least the recipient's balance must rise by, net of both fees
        uint256 minAmountOut;
        address recipient;
        uint256 deadline;
        /// @dev partner fee, 0..100 bps
        uint16 feeBps;
        /// @dev receives the partner fee; ignored when feeBps is 0
        address feeRecipient;
        /// @dev the protocol fee rate the quote used: must equal protocolFeeBps()
        uint16 protocolFeeBps;
        bytes route;
    }

    /// @notice The arguments of executeExactOutput; as ExecuteParams where the names agree.
    /// `route` is RouteCodec's packed format, kinds 1, 2, 3, 6 and 7 only; its shares divide the
    /// gross output.
    struct ExactOutputParams {
        address tokenIn;
        address tokenOut;
        /// @dev what the recipient must receive, net of both fees (native output: wei)
        uint256 amountOut;
        /// @dev the most taken from the sender; native input: msg.value must equal it
        uint256 maxAmountIn;
        address recipient;
        uint256 deadline;
        uint16 feeBps;
        address feeRecipient;
        uint16 protocolFeeBps;
        bytes route;
    }

    /// @notice An EIP-2612 permit of the sender for this contract: token.permit(msg.sender,
    /// address(this), value, deadline, v, r, s).
    struct Permit {
        address token;
        uint256 value;
        uint256 deadline;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    /// @dev What _payOut pays (the gross output, in `token`, and where its parts go) and the
    /// Swap event's other fields.
    struct Payout {
        address token;
        bool nativeOut;
        uint256 gross;
        address recipient;
        uint16 feeBps;
        address feeRecipient;
        uint256 minAmountOut;
        address tokenIn;
        address tokenOut;
        uint256 amountIn;
    }

    /// @notice One per execute or executeExactOutput; amountIn is what the sender paid (native:
    /// wei) and amountOut what the recipient received (its balance change).
    event Swap(
        address indexed sender,
        address indexed recipient,
        address tokenIn,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut,
        uint256 protocolAmount,
        uint256 partnerAmount
    );

    /// @dev OrderEntry (gasless orders), run by delegatecall for every selector not here
    address private immutable _orderEntry;

    /// @param owner_ may pause, set the protocol fee and the fee collector, allowlist routers,
    /// and register venues and stable pools (there are none until it does)
    /// @param orderEntry_ the OrderEntry deployment whose functions this contract also answers
    /// @param venues_ venues registered at once (as setVenue, with distinct ids), the first three
    /// of ids below 64 also kept in code, so hops through them read no venue slot until setVenue
    /// changes them
    constructor(address owner_, address feeCollector_, uint16 protocolFeeBps_, address orderEntry_, InitialVenue[] memory venues_)
        VenueRegistry(venues_)
    {
        if (owner_ == address(0)) revert InvalidConfig(ConfigFault.Owner);
        if (feeCollector_ == address(0) || feeCollector_ == address(this)) revert InvalidConfig(ConfigFault.FeeCollector);
        if (protocolFeeBps_ > MAX_PROTOCOL_FEE_BPS) revert InvalidConfig(ConfigFault.ProtocolFee);
        if (orderEntry_.code.length == 0) revert InvalidConfig(ConfigFault.OrderEntry);
        _orderEntry = orderEntry_;
        owner = owner_;
        // cachedVenues: set by VenueRegistry's constructor
        _config.feeCollector = feeCollector_;
        _config.protocolFeeBps = protocolFeeBps_;
        emit OwnershipTransferred(address(0), owner_);
        emit FeeCollectorChanged(address(0), feeCollector_);
        emit ProtocolFeeChanged(0, protocolFeeBps_);
    }

    /// @notice Gasless orders (executeOrder, cancelNonce, nonceUsed; see OrderEntry) run here, in
    /// this contract's context, by delegatecall; so do the plain native payments this contract
    /// makes to itself, and OrderEntry refuses anyone else's.
    fallback() external payable {
        address entry = _orderEntry;
        assembly ("memory-safe") {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), entry, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if ok { return(0, returndatasize()) }
            revert(0, returndatasize())
        }
    }

    // ------------------------------------------------------------------ execute

    /// @notice Swaps exactly `amountIn` of tokenIn along `route` and pays the recipient the
    /// output net of fees.
    /// @return amountOut what the recipient received (tokenOut's smallest unit; wei for native)
    function execute(ExecuteParams calldata p) external payable returns (uint256 amountOut) {
        (Config memory cfg, address tokenIn, bool nativeIn, address tokenOut, bool nativeOut) =
            _open(p.tokenIn, p.tokenOut, p.recipient, p.deadline, p.feeBps, p.feeRecipient, p.protocolFeeBps);

        uint256 amount = p.amountIn;
        if (nativeIn) {
            if (msg.value != amount) revert InvalidValue(amount, msg.value);
            amount /= NATIVE_SCALE;
        } else if (msg.value != 0) {
            revert InvalidValue(amount, msg.value);
        }
        if (amount == 0 || amount > type(uint128).max) revert InvalidValue(p.amountIn, msg.value);

        // Nothing to take from an ERC-20 output: each split's last hop pays the recipient, and
        // what it received is its balance change over the whole route (for a gasless order's
        // swap the recipient is this contract, which keeps it for OrderEntry either way).
        // Otherwise the output comes here (native output: this contract's native balance; msg.value
        // is 0 here, tokenIn is not USDC) and _payOut pays it on.
        address sink = cfg.protocolFeeBps == 0 && p.feeBps == 0 && !nativeOut ? p.recipient : address(this);
        uint256 before = nativeOut ? address(this).balance : tokenOut.balanceOfToken(sink);
        _runRoute(p.route, tokenIn, tokenOut, amount, nativeIn ? address(this) : msg.sender, sink);
        if (sink != address(this)) {
            // paid already, no fee: what the recipient received is the output
            uint256 afterwards = tokenOut.balanceOfToken(sink);
            // a balance that fell counts as nothing received
            unchecked {
                amountOut = afterwards > before ? afterwards - before : 0;
            }
            if (amountOut < p.minAmountOut) revert Slippage(amountOut, p.minAmountOut);
            emit Swap(msg.sender, sink, p.tokenIn, p.tokenOut, p.amountIn, amountOut, 0, 0);
        } else {
            uint256 gross = (nativeOut ? address(this).balance : tokenOut.balanceOfToken(address(this))) - before;
            amountOut = _payOut(
                cfg,
                Payout(
                    tokenOut,
                    nativeOut,
                    gross,
                    p.recipient,
                    p.feeBps,
                    p.feeRecipient,
                    p.minAmountOut,
                    p.tokenIn,
                    p.tokenOut,
                    p.amountIn
                )
            );
        }

        if (nativeIn) {
            uint256 dust = p.amountIn % NATIVE_SCALE;
            if (dust != 0) _sendNative(msg.sender, dust);
        }
        _entered = false;
    }

    /// @notice Swaps along `route` for exactly `amountOut` to the recipient, net of both fees,
    /// taking what the route needs from the sender and at most `maxAmountIn`, or reverts
    /// (Slippage(needed, maxAmountIn) when it needs more; needed counts what the route took
    /// until then, native input in wei).
    /// @return amountIn what the sender paid (tokenIn's smallest unit; wei for native input)
    function executeExactOutput(ExactOutputParams calldata p) external payable returns (uint256 amountIn) {
        (Config memory cfg, address tokenIn, bool nativeIn, address tokenOut, bool nativeOut) =
            _open(p.tokenIn, p.tokenOut, p.recipient, p.deadline, p.feeBps, p.feeRecipient, p.protocolFeeBps);

        uint256 maxIn = p.maxAmountIn;
        if (p.amountOut == 0 || p.amountOut > type(uint128).max || maxIn > type(uint128).max) {
            revert InvalidValue(maxIn, msg.value);
        }
        if (nativeIn ? msg.value != maxIn : msg.value != 0) revert InvalidValue(maxIn, msg.value);

        uint256 gross = _grossForNet(p.amountOut, cfg.protocolFeeBps, p.feeBps);
        // what the route delivers, in pool units
        uint256 units = nativeOut ? (gross + NATIVE_SCALE - 1) / NATIVE_SCALE : gross;
        _xoPayer = nativeIn ? address(this) : msg.sender;
        _xoSender = msg.sender;
        _xoBudget = nativeIn ? maxIn / NATIVE_SCALE : maxIn;
        _xoMaxIn = maxIn;
        _xoSpent = 0;

        // native output: this contract's native balance (msg.value is 0 here, tokenIn is not USDC)
        uint256 before = nativeOut ? address(this).balance : tokenOut.balanceOfToken(address(this));
        _runRouteExactOutput(p.route, tokenIn, tokenOut, units);
        {
            uint256 delivered = (nativeOut ? address(this).balance : tokenOut.balanceOfToken(address(this))) - before;
            if (delivered != (nativeOut ? units * NATIVE_SCALE : units)) revert UnsupportedToken(tokenOut);
        }
        amountIn = nativeIn ? _xoSpent * NATIVE_SCALE : _xoSpent;
        _xoPayer = address(0);
        _xoSender = address(0);
        _xoSpent = 0;

        _payOut(
            cfg,
            Payout(
                tokenOut, nativeOut, gross, p.recipient, p.feeBps, p.feeRecipient, p.amountOut, p.tokenIn, p.tokenOut, amountIn
            )
        );
        // native output: the wei the route's last ERC-20 unit brought above the gross
        if (nativeOut && units * NATIVE_SCALE != gross) _sendNative(msg.sender, units * NATIVE_SCALE - gross);
        // native input: what the route did not use
        if (nativeIn && maxIn != amountIn) _sendNative(msg.sender, maxIn - amountIn);
        _entered = false;
    }

    /// @notice Applies the sender's EIP-2612 permit for this contract, then runs `call` (an execute
    /// or executeExactOutput call, else InvalidRoute(Malformed)) as the sender with msg.value, by
    /// delegatecall to this contract: every check of that entry applies, and its revert is this
    /// call's. A permit that fails (used already, say by someone who submitted it first) is
    /// ignored: the swap runs on the allowance there is, and fails only if that is short.
    /// @return result what that entry returned, ABI-encoded (one uint256)
    function permitAndCall(Permit calldata permit, bytes calldata call) external payable returns (bytes memory result) {
        if (_entered) revert Reentrancy();
        bytes4 selector = bytes4(call);
        if (selector != this.execute.selector && selector != this.executeExactOutput.selector) {
            revert InvalidRoute(RouteFault.Malformed);
        }
        // token.permit(msg.sender, this, value, deadline, v, r, s); its outcome is left to the
        // allowance (a permit used already has set it)
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0xd505accf))
            mstore(add(m, 0x04), caller())
            mstore(add(m, 0x24), address())
            calldatacopy(add(m, 0x44), add(permit, 0x20), 0xa0)
            pop(call(gas(), calldataload(permit), 0, m, 0xe4, 0, 0))
        }
        bool ok;
        (ok, result) = address(this).delegatecall(call);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 0x20), mload(result))
            }
        }
    }

    /// @dev The checks execute and executeExactOutput share; enters the swap (not reentrant).
    /// Returns the live config and the pool tokens of tokenIn and tokenOut, and whether each
    /// names native USDC.
    function _open(
        address tokenIn,
        address tokenOut,
        address recipient,
        uint256 deadline,
        uint16 feeBps,
        address feeRecipient,
        uint16 quotedProtocolFeeBps
    ) private returns (Config memory cfg, address poolIn, bool nativeIn, address poolOut, bool nativeOut) {
        if (_entered) revert Reentrancy();
        _entered = true;

        cfg = _config;
        if (cfg.paused) revert Paused();
        if (block.timestamp > deadline) revert Expired(deadline);
        if (quotedProtocolFeeBps != cfg.protocolFeeBps) revert StaleFeeConfig(quotedProtocolFeeBps, cfg.protocolFeeBps);
        if (feeBps > MAX_PARTNER_FEE_BPS) revert InvalidConfig(ConfigFault.PartnerFee);
        // the executor itself only for its own call (a gasless order's swap, paid out by OrderEntry)
        if (recipient == address(0) || (recipient == address(this) && msg.sender != address(this))) {
            revert InvalidConfig(ConfigFault.Recipient);
        }
        if (feeBps != 0 && (feeRecipient == address(0) || feeRecipient == address(this))) {
            revert InvalidConfig(ConfigFault.FeeRecipient);
        }
        (poolIn, nativeIn) = _poolToken(tokenIn);
        (poolOut, nativeOut) = _poolToken(tokenOut);
        if (poolIn == poolOut) revert InvalidRoute(RouteFault.TokenChain);
    }

    /// @dev The least gross g whose net, g - floor(g * protocolBps / 10000) - floor(g * feeBps /
    /// 10000), reaches `net` (> 0). Net is not monotone in g: every g from ceil(net * 10000 /
    /// kept) down to floor((net - 2) * 10000 / kept) is tried, the least that reaches it kept.
    function _grossForNet(uint256 net, uint256 protocolBps, uint256 feeBps) private pure returns (uint256 gross) {
        unchecked {
            // net < 2**128, protocolBps, feeBps <= 100: no overflow, kept >= 9800
            uint256 kept = BPS - protocolBps - feeBps;
            gross = (net * BPS + kept - 1) / kept;
            uint256 least = net > 2 ? (net - 2) * BPS / kept : 0;
            for (uint256 g = gross; g > least;) {
                --g;
                if (g - g * protocolBps / BPS - g * feeBps / BPS >= net) gross = g;
            }
        }
    }

    /// @dev The ERC-20 a pool holds for `token`, and whether `token` names native USDC.
    function _poolToken(address token) private pure returns (address, bool) {
        if (token == address(0) || token == NATIVE_PLACEHOLDER) return (USDC, true);
        return (token, false);
    }

    /// @dev Pays both fees on the gross, then the rest to the recipient, and emits Swap;
    /// returns the recipient's balance change over that last payment only, which must reach
    /// minAmountOut.
    function _payOut(Config memory cfg, Payout memory o) private returns (uint256 amountOut) {
        uint256 protocolAmount = o.gross * cfg.protocolFeeBps / BPS;
        uint256 partnerAmount = o.gross * o.feeBps / BPS;
        uint256 net = o.gross - protocolAmount - partnerAmount;
        address recipient = o.recipient;
        address tokenOut = o.token;
        if (o.nativeOut) {
            if (protocolAmount != 0) _sendNative(cfg.feeCollector, protocolAmount);
            if (partnerAmount != 0) _sendNative(o.feeRecipient, partnerAmount);
        } else {
            if (protocolAmount != 0) tokenOut.safeTransfer(cfg.feeCollector, protocolAmount);
            if (partnerAmount != 0) tokenOut.safeTransfer(o.feeRecipient, partnerAmount);
        }
        uint256 before;
        // an order's swap (recipient: this contract): the net stays here for OrderEntry to pay out
        uint256 afterwards = net;
        if (recipient != address(this)) {
            if (o.nativeOut) {
                before = recipient.balance;
                if (net != 0) _sendNative(recipient, net);
                afterwards = recipient.balance;
            } else {
                before = tokenOut.balanceOfToken(recipient);
                if (net != 0) tokenOut.safeTransfer(recipient, net);
                afterwards = tokenOut.balanceOfToken(recipient);
            }
        }
        // a balance that fell counts as nothing received
        unchecked {
            amountOut = afterwards > before ? afterwards - before : 0;
        }
        if (amountOut < o.minAmountOut) revert Slippage(amountOut, o.minAmountOut);
        emit Swap(msg.sender, recipient, o.tokenIn, o.tokenOut, o.amountIn, amountOut, protocolAmount, partnerAmount);
    }

    function _sendNative(address to, uint256 amount) private {
        bool ok;
        assembly ("memory-safe") {
            ok := call(gas(), to, amount, 0, 0, 0, 0)
        }
        if (!ok) revert NativeTransferFailed(to);
    }

    // ------------------------------------------------------------------ route

    /// @dev Runs every split of `route`; `payer` holds the input (the sender, or this contract);
    /// each split's last hop delivers to `sink` (this contract, or the recipient).
    function _runRoute(bytes calldata route, address tokenIn, address tokenOut, uint256 amount, address payer, address sink)
        private
    {
        unchecked {
            Cursor memory c;
            assembly ("memory-safe") {
                mstore(c, route.offset)
                mstore(add(c, 0x20), add(route.offset, route.length))
            }
            if (route.length == 0) revert InvalidRoute(RouteFault.Malformed);
            uint256 splits = RouteCodec.u8(c.ptr);
            if (splits == 0) revert InvalidRoute(RouteFault.Malformed);
            ++c.ptr;
            c.sink = sink;
            uint256 remaining = amount;
            uint256 sharesLeft = BPS;
            do {
                uint256 ptr = c.ptr;
                if (ptr + RouteCodec.SPLIT_HEADER > c.end) revert InvalidRoute(RouteFault.Malformed);
                uint256 share = RouteCodec.u16(ptr);
                if (share == 0 || share > sharesLeft) revert InvalidRoute(RouteFault.Shares);
                sharesLeft -= share;
                // every split but the last gets its share rounded down, the last gets the rest
                // (amount < 2**128, checked in execute: the product cannot overflow)
                uint256 splitAmount = --splits == 0 ? remaining : amount * share / BPS;
                remaining -= splitAmount;
                c.ptr = ptr + RouteCodec.SPLIT_HEADER;
                c.token = tokenIn;
                c.amount = splitAmount;
                c.payer = payer;
                c.pair = address(0);
                uint256 hops = RouteCodec.u8(ptr + 2);
                if (hops == 0) revert InvalidRoute(RouteFault.Malformed);
                do {
                    hops -= _runHop(c, hops);
                } while (hops != 0);
                if (c.token != tokenOut) revert InvalidRoute(RouteFault.TokenChain);
            } while (splits != 0);
            if (sharesLeft != 0) revert InvalidRoute(RouteFault.Shares);
            if (c.ptr != c.end) revert InvalidRoute(RouteFault.Malformed);
        }
    }

    /// @dev Runs the hop at c.ptr (a run of consecutive V4 hops of one venue at once, inside one
    /// unlock) and moves the cursor past it; returns how many hops it ran. A hop followed by a
    /// V2 hop sends its output straight into that pair (derived with the next hop's venue).
    function _runHop(Cursor memory c, uint256 hopsLeft) private returns (uint256 used) {
        unchecked {
            uint256 ptr = c.ptr;
            if (ptr + RouteCodec.HOP_PREFIX > c.end) revert InvalidRoute(RouteFault.Malformed);
            uint256 kind = RouteCodec.u8(ptr);
            address tokenOut = RouteCodec.addr(ptr + 1);
            if (tokenOut == address(0) || tokenOut == c.token) revert InvalidRoute(RouteFault.TokenChain);
            uint256 next;
            used = 1;
            if (kind == RouteCodec.KIND_V2) {
                next = ptr + RouteCodec.V2_HOP;
            } else if (kind == RouteCodec.KIND_V3) {
                next = ptr + RouteCodec.V3_HOP;
            } else if (kind == RouteCodec.KIND_V4) {
                // the run goes on while the next hop is a V4 hop of the same venue
                uint256 venueId = RouteCodec.u8(ptr + RouteCodec.HOP_PREFIX);
                next = ptr + RouteCodec.V4_HOP;
                while (
                    used < hopsLeft && next < c.end && RouteCodec.u8(next) == RouteCodec.KIND_V4
                        && RouteCodec.u8(next + RouteCodec.HOP_PREFIX) == venueId
                ) {
                    next += RouteCodec.V4_HOP;
                    ++used;
                }
                if (next > c.end) revert InvalidRoute(RouteFault.Malformed);
                tokenOut = RouteCodec.addr(next - RouteCodec.V4_HOP + 1);
            } else if (kind == RouteCodec.KIND_EXTERNAL) {
                if (ptr + RouteCodec.EXTERNAL_HOP > c.end) revert InvalidRoute(RouteFault.Malformed);
                next = ptr + RouteCodec.EXTERNAL_HOP + RouteCodec.u24(ptr + 41);
            } else if (kind == RouteCodec.KIND_STABLE) {
                next = ptr + RouteCodec.STABLE_HOP;
            } else {
                revert InvalidRoute(RouteFault.Malformed);
            }
            if (next > c.end) revert InvalidRoute(RouteFault.Malformed);

            // the output goes to the next hop's V2 pair when there is one, else here; the split's
            // last hop delivers to the sink (a stable pool or an external router delivers here,
            // where its output is measured, and the hop sends that on)
            address to = address(this);
            if (used == hopsLeft) {
                to = c.sink;
            } else if (next + RouteCodec.V2_HOP <= c.end && RouteCodec.u8(next) == RouteCodec.KIND_V2) {
                to = _v2PairOf(RouteCodec.u8(next + RouteCodec.HOP_PREFIX), tokenOut, RouteCodec.addr(next + 1));
            }

            if (kind == RouteCodec.KIND_V2) {
                c.amount = _swapV2(c, RouteCodec.u8(ptr + RouteCodec.HOP_PREFIX), tokenOut, to);
            } else if (kind == RouteCodec.KIND_V3) {
                c.amount = _swapV3(ptr, c.token, tokenOut, c.amount, c.payer, to);
            } else if (kind == RouteCodec.KIND_V4) {
                c.amount = _swapV4(ptr, next, c.token, c.amount, c.payer, to);
            } else if (kind == RouteCodec.KIND_EXTERNAL) {
                c.amount = _swapExternal(ptr, c.token, tokenOut, c.amount, c.payer, to);
            } else {
                c.amount = _swapStable(ptr, c.token, tokenOut, c.amount, c.payer, to);
            }
            if (c.amount == 0) revert InvalidRoute(RouteFault.ZeroAmount);
            c.pair = to == address(this) ? address(0) : to;
            c.token = tokenOut;
            c.payer = address(this);
            c.ptr = next;
        }
    }
}
