// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {
    IRouteV2Pair, IRouteV3Pool, IRoutePoolManager, IRouteStablePool, RoutePoolKey, RouteSwapParams
} from "./executor/ExecutorInterfaces.sol";
import "./executor/RouteCodec.sol" as RouteCodec;
import {safeTransfer, safeTransferFrom, safeApprove, balanceOfToken, allowanceOfToken} from "./executor/TokenOps.sol";

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
/// names a venue id or a registered pool, never a factory, a hash or a pool of its own.
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
/// For native output the gross is this contract's native balance change, in wei (18
/// decimals), i.e. the route's ERC-20 output * 1e12; the formulas apply to that wei amount
/// unchanged and every part is paid in native value. Because 1e12 * bps / 10000 is a whole
/// number, the native fee amounts are exact: protocolAmount = routeOutput * protocolBps * 1e8.
/// minAmountOut for native output is in wei.
///
/// Safety: the executor calls only pools it derives itself from a registered venue (V2 pairs
/// and V3 pools from the venue's CREATE2 address, V4 pools through the venue's PoolManager),
/// registered stable pools, routers on the owner's allowlist, and tokens for transfers; the
/// only transferFrom it makes takes from msg.sender. A swap or unlock callback is accepted only
/// from the pool or PoolManager the current hop is using, once. Input is checked to arrive in
/// full: by balance for a V2 pair, a stable pool and an external router, by the V3 pool's own
/// balance check (its "IIA" revert becomes UnsupportedToken), by the PoolManager's settle() for
/// V4. A stable pool or an external router is approved for exactly the hop's input, must take
/// all of it, and keeps no allowance after the call. execute is not reentrant. Amounts above
/// 2**128 - 1 are refused (InvalidValue).
contract RouteExecutor {
    using {safeTransfer, safeTransferFrom, safeApprove, balanceOfToken, allowanceOfToken} for address;

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

    /// @notice Why a route was refused.
    enum RouteFault {
        Malformed, // the bytes do not parse, or there are bytes left over
        Shares, // a zero share, or shares that do not sum to 10000
        TokenChain, // a hop that does not lead on, a split not ending in tokenOut, tokenIn == tokenOut
        UnknownPool, // no such pair / pool, an unknown venue or one of another kind, an unregistered stable pool
        RouterNotAllowed, // an external router that is not on the allowlist
        PartialFill, // a pool or router did not take the whole input it was given
        ZeroAmount // a hop would move nothing
    }

    /// @notice Which setting was refused.
    enum ConfigFault {
        PartnerFee,
        Recipient,
        FeeRecipient,
        ProtocolFee,
        FeeCollector,
        Owner,
        Router,
        Venue, // setVenue: an unknown kind, fields that do not fit the kind, or a contract that cannot be a venue
        StablePool // setStablePool: not 2 to 8 distinct non-zero coins, or a contract that cannot be a pool
    }

    // --- errors named by the API's SIMULATION_FAILED reasons ---
    error Slippage(uint256 amountOut, uint256 minAmountOut);
    error Expired(uint256 deadline);
    error Paused();
    error StaleFeeConfig(uint16 quotedBps, uint16 liveBps);
    error InvalidRoute(RouteFault fault);
    error InvalidConfig(ConfigFault fault);
    error InvalidValue(uint256 amountIn, uint256 value);
    error UnsupportedToken(address token);
    error NativeTransferFailed(address to);
    // --- others ---
    error Unauthorized(address caller);
    error Reentrancy();
    error UnexpectedCallback(address caller);

    /// @notice One per execute; amountOut is what the recipient received (its balance change).
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
    event OwnershipTransferStarted(address indexed owner, address indexed pendingOwner);
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event PauseChanged(bool paused);
    event ProtocolFeeChanged(uint16 previousBps, uint16 newBps);
    event FeeCollectorChanged(address indexed previousCollector, address indexed newCollector);
    event RouterAllowlistChanged(address indexed router, bool allowed);
    event VenueSet(uint8 indexed id, uint8 kind, address indexed factory, bytes32 initCodeHash, uint16 feeBps);
    event StablePoolSet(address indexed pool, bool registered);

    /// @notice Arc's USDC ERC-20 (the same balance as the native currency).
    address public constant USDC = 0x3600000000000000000000000000000000000000;
    address internal constant NATIVE_PLACEHOLDER = 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE;
    uint256 internal constant NATIVE_SCALE = 1e12;
    uint16 public constant MAX_PROTOCOL_FEE_BPS = 100;
    uint16 public constant MAX_PARTNER_FEE_BPS = 100;
    uint256 internal constant BPS = 10_000;
    /// @dev the most extreme price limits a V3 or V4 swap accepts (MIN_SQRT_PRICE + 1, MAX_SQRT_PRICE - 1)
    uint160 internal constant MIN_PRICE_LIMIT = 4295128740;
    uint160 internal constant MAX_PRICE_LIMIT = 1461446703485210103287273052203988822378723970341;
    /// @dev the PoolManager's storage slot of mapping(PoolId => Pool.State)
    uint256 internal constant V4_POOLS_SLOT = 6;
    /// @dev a stable pool has 2 to MAX_STABLE_COINS coins
    uint256 internal constant MAX_STABLE_COINS = 8;

    /// @dev everything execute reads from storage, in one slot
    struct Config {
        address feeCollector;
        uint16 protocolFeeBps;
        bool paused;
    }

    /// @dev A venue: kind (RouteCodec.KIND_V2, _V3, _V4; 0 for none), the V2 swap fee, and the
    /// factory, pool deployer or PoolManager, in one slot; the init code hash is in another.
    struct Venue {
        uint8 kind;
        uint16 feeBps;
        address factory;
    }

    Config private _config;
    address public owner;
    address public pendingOwner;
    mapping(address router => bool) public isRouterAllowed;
    mapping(uint256 id => Venue) private _venues;
    mapping(uint256 id => bytes32) private _venueInitCodeHash;
    /// @dev how many venue ids and stable pool registrations name a contract (never a router)
    mapping(address venueContract => uint256) private _venueUses;
    /// @dev a registered stable pool's coins, and each coin's index + 1
    mapping(address pool => address[]) private _stableCoins;
    mapping(address pool => mapping(address token => uint256 indexPlusOne)) private _stableIndex;

    bool private transient _entered;
    /// @dev the one pool or PoolManager allowed to call back now, set just before the swap
    address private transient _expectedCallback;

    /// @param owner_ may pause, set the protocol fee and the fee collector, allowlist routers,
    /// and register venues and stable pools (there are none until it does)
    constructor(address owner_, address feeCollector_, uint16 protocolFeeBps_) {
        if (owner_ == address(0)) revert InvalidConfig(ConfigFault.Owner);
        if (feeCollector_ == address(0) || feeCollector_ == address(this)) revert InvalidConfig(ConfigFault.FeeCollector);
        if (protocolFeeBps_ > MAX_PROTOCOL_FEE_BPS) revert InvalidConfig(ConfigFault.ProtocolFee);
        owner = owner_;
        _config = Config({feeCollector: feeCollector_, protocolFeeBps: protocolFeeBps_, paused: false});
        emit OwnershipTransferred(address(0), owner_);
        emit FeeCollectorChanged(address(0), feeCollector_);
        emit ProtocolFeeChanged(0, protocolFeeBps_);
    }

    // ------------------------------------------------------------------ execute

    /// @notice Swaps exactly `amountIn` of tokenIn along `route` and pays the recipient the
    /// output net of fees.
    /// @return amountOut what the recipient received (tokenOut's smallest unit; wei for native)
    function execute(ExecuteParams calldata p) external payable returns (uint256 amountOut) {
        if (_entered) revert Reentrancy();
        _entered = true;

        Config memory cfg = _config;
        if (cfg.paused) revert Paused();
        if (block.timestamp > p.deadline) revert Expired(p.deadline);
        if (p.protocolFeeBps != cfg.protocolFeeBps) revert StaleFeeConfig(p.protocolFeeBps, cfg.protocolFeeBps);
        if (p.feeBps > MAX_PARTNER_FEE_BPS) revert InvalidConfig(ConfigFault.PartnerFee);
        if (p.recipient == address(0) || p.recipient == address(this)) revert InvalidConfig(ConfigFault.Recipient);
        if (p.feeBps != 0 && (p.feeRecipient == address(0) || p.feeRecipient == address(this))) {
            revert InvalidConfig(ConfigFault.FeeRecipient);
        }

        (address tokenIn, bool nativeIn) = _poolToken(p.tokenIn);
        (address tokenOut, bool nativeOut) = _poolToken(p.tokenOut);
        if (tokenIn == tokenOut) revert InvalidRoute(RouteFault.TokenChain);

        uint256 amount = p.amountIn;
        if (nativeIn) {
            if (msg.value != amount) revert InvalidValue(amount, msg.value);
            amount /= NATIVE_SCALE;
        } else if (msg.value != 0) {
            revert InvalidValue(amount, msg.value);
        }
        if (amount == 0 || amount > type(uint128).max) revert InvalidValue(p.amountIn, msg.value);

        // native output: this contract's native balance (msg.value is 0 here, tokenIn is not USDC)
        uint256 before = nativeOut ? address(this).balance : tokenOut.balanceOfToken(address(this));
        _runRoute(p.route, tokenIn, tokenOut, amount, nativeIn ? address(this) : msg.sender);
        uint256 gross = (nativeOut ? address(this).balance : tokenOut.balanceOfToken(address(this))) - before;

        amountOut = _payOut(p, cfg, tokenOut, nativeOut, gross);

        if (nativeIn) {
            uint256 dust = p.amountIn % NATIVE_SCALE;
            if (dust != 0) _sendNative(msg.sender, dust);
        }
        _entered = false;
    }

    /// @dev The ERC-20 a pool holds for `token`, and whether `token` names native USDC.
    function _poolToken(address token) private pure returns (address, bool) {
        if (token == address(0) || token == NATIVE_PLACEHOLDER) return (USDC, true);
        return (token, false);
    }

    /// @dev Pays both fees, then the rest to the recipient; returns the recipient's balance
    /// change over that last payment only, which must reach minAmountOut.
    function _payOut(ExecuteParams calldata p, Config memory cfg, address tokenOut, bool nativeOut, uint256 gross)
        private
        returns (uint256 amountOut)
    {
        uint256 protocolAmount = gross * cfg.protocolFeeBps / BPS;
        uint256 partnerAmount = gross * p.feeBps / BPS;
        {
            uint256 net = gross - protocolAmount - partnerAmount;
            address recipient = p.recipient;
            uint256 before;
            uint256 afterwards;
            if (nativeOut) {
                if (protocolAmount != 0) _sendNative(cfg.feeCollector, protocolAmount);
                if (partnerAmount != 0) _sendNative(p.feeRecipient, partnerAmount);
                before = recipient.balance;
                if (net != 0) _sendNative(recipient, net);
                afterwards = recipient.balance;
            } else {
                if (protocolAmount != 0) tokenOut.safeTransfer(cfg.feeCollector, protocolAmount);
                if (partnerAmount != 0) tokenOut.safeTransfer(p.feeRecipient, partnerAmount);
                before = tokenOut.balanceOfToken(recipient);
                if (net != 0) tokenOut.safeTransfer(recipient, net);
                afterwards = tokenOut.balanceOfToken(recipient);
            }
            // a balance that fell counts as nothing received
            unchecked {
                amountOut = afterwards > before ? afterwards - before : 0;
            }
        }
        if (amountOut < p.minAmountOut) revert Slippage(amountOut, p.minAmountOut);
        emit Swap(msg.sender, p.recipient, p.tokenIn, p.tokenOut, p.amountIn, amountOut, protocolAmount, partnerAmount);
    }

    function _sendNative(address to, uint256 amount) private {
        bool ok;
        assembly ("memory-safe") {
            ok := call(gas(), to, amount, 0, 0, 0, 0)
        }
        if (!ok) revert NativeTransferFailed(to);
    }

    // ------------------------------------------------------------------ route

    /// @dev Where a split stands between two hops.
    struct Cursor {
        uint256 ptr; // calldata position of the next hop
        uint256 end; // calldata position just past the route
        address token; // the token in hand
        uint256 amount; // how much of it
        address payer; // who holds it: the sender (ERC-20 input, first hop) or this contract
        address pair; // the V2 pair it already sits in, when the previous hop sent it there
    }

    /// @dev Runs every split of `route`; `payer` holds the input (the sender, or this contract).
    function _runRoute(bytes calldata route, address tokenIn, address tokenOut, uint256 amount, address payer) private {
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

            // the output goes to the next hop's V2 pair when there is one, else here
            address to = address(this);
            if (used < hopsLeft && next + RouteCodec.V2_HOP <= c.end && RouteCodec.u8(next) == RouteCodec.KIND_V2) {
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

    /// @dev The factory (pool deployer, PoolManager) and swap fee of venue `id`, which must be
    /// registered with kind `kind`; one storage read.
    function _venue(uint256 id, uint256 kind) private view returns (address factory, uint256 feeBps) {
        uint256 packed;
        assembly ("memory-safe") {
            // _venues[id]: kind in the lowest byte, then feeBps (2 bytes), then the factory
            mstore(0x00, id)
            mstore(0x20, _venues.slot)
            packed := sload(keccak256(0x00, 0x40))
        }
        if (packed & 0xff != kind) revert InvalidRoute(RouteFault.UnknownPool);
        factory = address(uint160(packed >> 24));
        feeBps = (packed >> 8) & 0xffff;
    }

    /// @dev Moves `amount` of `token` from `payer` to `to`. From the sender, the amount must
    /// arrive in full: a token that delivers less (a transfer tax, a rebasing balance) is
    /// refused as UnsupportedToken.
    function _pay(address token, address payer, address to, uint256 amount) private {
        if (payer == address(this)) {
            token.safeTransfer(to, amount);
        } else {
            uint256 before = token.balanceOfToken(to);
            token.safeTransferFrom(payer, to, amount);
            if (token.balanceOfToken(to) != before + amount) revert UnsupportedToken(token);
        }
    }

    // ------------------------------------------------------------------ Uniswap V2

    /// @dev The pair of `tokenA` and `tokenB` in V2 venue `venueId`.
    function _v2PairOf(uint256 venueId, address tokenA, address tokenB) private view returns (address) {
        (address factory,) = _venue(venueId, RouteCodec.KIND_V2);
        return _v2Pair(factory, _venueInitCodeHash[venueId], tokenA, tokenB);
    }

    function _v2Pair(address factory, bytes32 initCodeHash, address tokenA, address tokenB)
        private
        pure
        returns (address)
    {
        if (tokenA == tokenB) revert InvalidRoute(RouteFault.TokenChain);
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        bytes32 salt;
        assembly ("memory-safe") {
            // keccak256(abi.encodePacked(token0, token1))
            let m := mload(0x40)
            mstore(m, shl(96, token0))
            mstore(add(m, 0x14), shl(96, token1))
            salt := keccak256(m, 0x28)
        }
        return _create2(factory, salt, initCodeHash);
    }

    /// @dev Swaps c.amount of c.token in the pair of V2 venue `venueId`; c.pair is that pair
    /// when the previous hop already sent the input into it.
    function _swapV2(Cursor memory c, uint256 venueId, address tokenOut, address to) private returns (uint256 amountOut) {
        (address factory, uint256 feeBps) = _venue(venueId, RouteCodec.KIND_V2);
        address pair = c.pair;
        bool delivered = pair != address(0);
        if (!delivered) pair = _v2Pair(factory, _venueInitCodeHash[venueId], c.token, tokenOut);
        if (pair.code.length == 0) revert InvalidRoute(RouteFault.UnknownPool);
        if (!delivered) _pay(c.token, c.payer, pair, c.amount);
        bool zeroForOne = c.token < tokenOut;
        amountOut = _v2AmountOut(pair, zeroForOne, c.amount, feeBps);
        if (amountOut == 0) revert InvalidRoute(RouteFault.ZeroAmount);
        IRouteV2Pair(pair).swap(zeroForOne ? 0 : amountOut, zeroForOne ? amountOut : 0, to, "");
    }

    /// @dev The pair's own rule with the venue's fee on the input (30 bps: Uniswap's
    /// 997/1000), the product of reserves kept.
    function _v2AmountOut(address pair, bool zeroForOne, uint256 amount, uint256 feeBps) private view returns (uint256) {
        (uint256 reserve0, uint256 reserve1,) = IRouteV2Pair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = zeroForOne ? (reserve0, reserve1) : (reserve1, reserve0);
        uint256 amountInWithFee = amount * (BPS - feeBps);
        return amountInWithFee * reserveOut / (reserveIn * BPS + amountInWithFee);
    }

    // ------------------------------------------------------------------ Uniswap V3

    /// @dev The V3 hop at `ptr`: its pool is derived from the hop's venue and fee.
    function _swapV3(uint256 ptr, address token, address tokenOut, uint256 amount, address payer, address to)
        private
        returns (uint256)
    {
        uint256 venueId = RouteCodec.u8(ptr + RouteCodec.HOP_PREFIX);
        (address deployer,) = _venue(venueId, RouteCodec.KIND_V3);
        address pool = _v3Pool(deployer, _venueInitCodeHash[venueId], token, tokenOut, RouteCodec.u24(ptr + 22));
        if (pool.code.length == 0) revert InvalidRoute(RouteFault.UnknownPool);
        if (amount > uint256(type(int256).max)) revert InvalidRoute(RouteFault.Malformed);
        _expectedCallback = pool;
        return _callV3(pool, to, token < tokenOut, amount, token, payer);
    }

    /// @dev pool.swap(to, zeroForOne, amount, limit, abi.encode(token, payer, amount)); returns the output.
    function _callV3(address pool, address to, bool zeroForOne, uint256 amount, address token, address payer)
        private
        returns (uint256 amountOut)
    {
        uint160 limit = zeroForOne ? MIN_PRICE_LIMIT : MAX_PRICE_LIMIT;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0x128acb08)) // swap(address,bool,int256,uint160,bytes)
            mstore(add(m, 0x04), shr(96, shl(96, to)))
            mstore(add(m, 0x24), iszero(iszero(zeroForOne)))
            mstore(add(m, 0x44), amount)
            mstore(add(m, 0x64), limit)
            mstore(add(m, 0x84), 0xa0)
            mstore(add(m, 0xa4), 0x60)
            mstore(add(m, 0xc4), shr(96, shl(96, token)))
            mstore(add(m, 0xe4), shr(96, shl(96, payer)))
            mstore(add(m, 0x104), amount)
            if iszero(call(gas(), pool, 0, m, 0x124, m, 0x40)) {
                returndatacopy(m, 0, returndatasize())
                // Error("IIA"): the pool received less input than it asked for
                if and(
                    eq(returndatasize(), 0x64),
                    and(eq(shr(224, mload(m)), 0x08c379a0), eq(mload(add(m, 0x44)), shl(232, 0x494941)))
                ) {
                    mstore(0x00, shl(224, 0xbf16aab6)) // UnsupportedToken(address)
                    mstore(0x04, shr(96, shl(96, token)))
                    revert(0x00, 0x24)
                }
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x40) { revert(0, 0) }
            // (int256 amount0, int256 amount1): the output is the negative one
            amountOut := sub(0, mload(add(m, mul(iszero(iszero(zeroForOne)), 0x20))))
        }
    }

    function _v3Pool(address deployer, bytes32 initCodeHash, address tokenA, address tokenB, uint24 fee)
        private
        pure
        returns (address)
    {
        (address token0, address token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        bytes32 salt;
        assembly ("memory-safe") {
            // keccak256(abi.encode(token0, token1, fee))
            let m := mload(0x40)
            mstore(m, shr(96, shl(96, token0)))
            mstore(add(m, 0x20), shr(96, shl(96, token1)))
            mstore(add(m, 0x40), and(fee, 0xffffff))
            salt := keccak256(m, 0x60)
        }
        return _create2(deployer, salt, initCodeHash);
    }

    /// @notice Pays a V3 pool during a swap this contract started; only that pool may call.
    function uniswapV3SwapCallback(int256 amount0Delta, int256 amount1Delta, bytes calldata data) external {
        if (msg.sender != _expectedCallback) revert UnexpectedCallback(msg.sender);
        _expectedCallback = address(0);
        // data is abi.encode(token, payer, amount), as _callV3 wrote it and the pool passed it on
        address token;
        address payer;
        uint256 amount;
        assembly ("memory-safe") {
            token := calldataload(data.offset)
            payer := calldataload(add(data.offset, 0x20))
            amount := calldataload(add(data.offset, 0x40))
        }
        // exact input: the pool asks for all of it unless its price limit stopped the swap early
        if (uint256(amount0Delta > 0 ? amount0Delta : amount1Delta) != amount) revert InvalidRoute(RouteFault.PartialFill);
        // the pool checks its own balance after this callback: an input that arrives short
        // makes it revert "IIA", which _callV3 reports as UnsupportedToken
        if (payer == address(this)) token.safeTransfer(msg.sender, amount);
        else token.safeTransferFrom(payer, msg.sender, amount);
    }

    // ------------------------------------------------------------------ Uniswap V4

    /// @dev Runs the V4 hops between calldata positions `start` and `stop` (all of one venue)
    /// in one unlock of the venue's PoolManager.
    function _swapV4(uint256 start, uint256 stop, address token, uint256 amount, address payer, address to)
        private
        returns (uint256)
    {
        bytes memory data = abi.encodePacked(token, amount, payer, to, msg.data[start:stop]);
        return _unlock(RouteCodec.u8(start + RouteCodec.HOP_PREFIX), data);
    }

    /// @dev Unlocks the PoolManager of V4 venue `venueId` with `data`; returns the run's output.
    function _unlock(uint256 venueId, bytes memory data) private returns (uint256) {
        (address manager,) = _venue(venueId, RouteCodec.KIND_V4);
        _expectedCallback = manager;
        return abi.decode(IRoutePoolManager(manager).unlock(data), (uint256));
    }

    /// @notice Runs V4 hops for a swap this contract started; only the PoolManager of the run in
    /// progress may call, and only inside that swap. `data` is tokenIn(20) amountIn(32)
    /// payer(20) to(20) and the V4 hops in the route format.
    function unlockCallback(bytes calldata data) external returns (bytes memory) {
        if (msg.sender != _expectedCallback) revert UnexpectedCallback(msg.sender);
        _expectedCallback = address(0);
        IRoutePoolManager manager = IRoutePoolManager(msg.sender);
        uint256 base;
        uint256 end;
        assembly ("memory-safe") {
            base := data.offset
            end := add(data.offset, data.length)
        }
        address tokenIn = RouteCodec.addr(base);
        uint256 amountIn = RouteCodec.word(base + 20);
        address token = tokenIn;
        uint256 amount = amountIn;
        for (uint256 ptr = base + 92; ptr < end; ptr += RouteCodec.V4_HOP) {
            address tokenOut = RouteCodec.addr(ptr + 1);
            if (tokenOut == address(0) || tokenOut == token) revert InvalidRoute(RouteFault.TokenChain);
            amount = _v4Swap(manager, ptr, token, tokenOut, amount);
            token = tokenOut;
        }
        // intermediate currencies net to zero; pay the first input, take the last output
        manager.sync(tokenIn);
        address payer = RouteCodec.addr(base + 52);
        if (payer == address(this)) tokenIn.safeTransfer(address(manager), amountIn);
        else tokenIn.safeTransferFrom(payer, address(manager), amountIn);
        if (manager.settle() != amountIn) revert UnsupportedToken(tokenIn);
        manager.take(token, RouteCodec.addr(base + 72), amount);
        return abi.encode(amount);
    }

    /// @dev The V4 hop at `ptr` (venue, fee, tickSpacing, hooks after its prefix) in `manager`.
    function _v4Swap(IRoutePoolManager manager, uint256 ptr, address token, address tokenOut, uint256 amount)
        private
        returns (uint256)
    {
        bool zeroForOne = token < tokenOut;
        RoutePoolKey memory key = RoutePoolKey(
            zeroForOne ? token : tokenOut,
            zeroForOne ? tokenOut : token,
            RouteCodec.u24(ptr + 22),
            RouteCodec.i24(ptr + 25),
            RouteCodec.addr(ptr + 28)
        );
        // an uninitialized pool has a zero price in slot0 (the low 160 bits of its first slot)
        bytes32 stateSlot = keccak256(abi.encode(keccak256(abi.encode(key)), V4_POOLS_SLOT));
        if (uint160(uint256(manager.extsload(stateSlot))) == 0) revert InvalidRoute(RouteFault.UnknownPool);
        if (amount > uint256(uint128(type(int128).max))) revert InvalidRoute(RouteFault.Malformed);
        int256 delta = manager.swap(
            key, RouteSwapParams(zeroForOne, -int256(amount), zeroForOne ? MIN_PRICE_LIMIT : MAX_PRICE_LIMIT), ""
        );
        int256 amount0 = delta >> 128;
        int256 amount1 = int256(int128(delta));
        (int256 deltaIn, int256 deltaOut) = zeroForOne ? (amount0, amount1) : (amount1, amount0);
        if (deltaIn != -int256(amount)) revert InvalidRoute(RouteFault.PartialFill);
        if (deltaOut <= 0) revert InvalidRoute(RouteFault.ZeroAmount);
        return uint256(deltaOut);
    }

    // ------------------------------------------------------------------ stable pools

    /// @dev The stable hop at `ptr`: brings the input here, approves the registered pool for
    /// exactly `amount`, calls exchange(i, j, amount, 0), and measures the output as this
    /// contract's balance change; the pool must take all of the input and keeps no allowance.
    function _swapStable(uint256 ptr, address token, address tokenOut, uint256 amount, address payer, address to)
        private
        returns (uint256 amountOut)
    {
        address pool = RouteCodec.addr(ptr + RouteCodec.HOP_PREFIX);
        uint256 i = _stableIndex[pool][token];
        uint256 j = _stableIndex[pool][tokenOut];
        if (i == 0 || j == 0) revert InvalidRoute(RouteFault.UnknownPool);
        uint256 inBefore = token.balanceOfToken(address(this));
        if (payer != address(this)) {
            // from the sender, the input must arrive in full (as _pay checks)
            token.safeTransferFrom(payer, address(this), amount);
            uint256 arrived = token.balanceOfToken(address(this));
            if (arrived != inBefore + amount) revert UnsupportedToken(token);
            inBefore = arrived;
        }
        uint256 outBefore = tokenOut.balanceOfToken(address(this));
        token.safeApprove(pool, amount);
        unchecked {
            // 1 <= i, j <= MAX_STABLE_COINS
            IRouteStablePool(pool).exchange(int128(int256(i - 1)), int128(int256(j - 1)), amount, 0);
        }
        if (token.balanceOfToken(address(this)) + amount != inBefore) revert InvalidRoute(RouteFault.PartialFill);
        // a pool that took all of it with transferFrom used the approval up: nothing to reset then
        if (token.allowanceOfToken(address(this), pool) != 0) token.safeApprove(pool, 0);
        uint256 outAfter = tokenOut.balanceOfToken(address(this));
        if (outAfter <= outBefore) revert InvalidRoute(RouteFault.ZeroAmount);
        unchecked {
            amountOut = outAfter - outBefore;
        }
        if (to != address(this)) tokenOut.safeTransfer(to, amountOut);
    }

    // ------------------------------------------------------------------ external routers

    /// @dev Approves the router for exactly `amount`, calls it with the hop's data, resets the
    /// approval to zero, and measures the output as this contract's balance change.
    function _swapExternal(uint256 ptr, address token, address tokenOut, uint256 amount, address payer, address to)
        private
        returns (uint256 amountOut)
    {
        address router = RouteCodec.addr(ptr + 21);
        // never a call to a token, whatever the allowlist says
        if (!isRouterAllowed[router] || router == token || router == tokenOut) {
            revert InvalidRoute(RouteFault.RouterNotAllowed);
        }
        if (payer != address(this)) _pay(token, payer, address(this), amount);
        uint256 inBefore = token.balanceOfToken(address(this));
        uint256 outBefore = tokenOut.balanceOfToken(address(this));
        token.safeApprove(router, amount);
        _callRouter(router, ptr + RouteCodec.EXTERNAL_HOP, RouteCodec.u24(ptr + 41));
        token.safeApprove(router, 0);
        if (token.balanceOfToken(address(this)) + amount != inBefore) revert InvalidRoute(RouteFault.PartialFill);
        uint256 outAfter = tokenOut.balanceOfToken(address(this));
        if (outAfter <= outBefore) revert InvalidRoute(RouteFault.ZeroAmount);
        amountOut = outAfter - outBefore;
        if (to != address(this)) tokenOut.safeTransfer(to, amountOut);
    }

    /// @dev Calls `router` with `length` bytes of calldata from position `start`, without
    /// value; bubbles its revert.
    function _callRouter(address router, uint256 start, uint256 length) private {
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, start, length)
            if iszero(call(gas(), router, 0, m, length, 0, 0)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
        }
    }

    // ------------------------------------------------------------------ helpers

    /// @dev The address `deployer` CREATE2s with `salt` and code of hash `initCodeHash`.
    function _create2(address deployer, bytes32 salt, bytes32 initCodeHash) private pure returns (address a) {
        assembly ("memory-safe") {
            // keccak256(0xff ++ deployer ++ salt ++ initCodeHash), 85 bytes from m + 11
            let m := mload(0x40)
            mstore(m, or(shl(160, 0xff), shr(96, shl(96, deployer))))
            mstore(add(m, 0x20), salt)
            mstore(add(m, 0x40), initCodeHash)
            a := shr(96, shl(96, keccak256(add(m, 0x0b), 0x55)))
        }
    }

    // ------------------------------------------------------------------ owner

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized(msg.sender);
        _;
    }

    function paused() external view returns (bool) {
        return _config.paused;
    }

    function protocolFeeBps() external view returns (uint16) {
        return _config.protocolFeeBps;
    }

    function feeCollector() external view returns (address) {
        return _config.feeCollector;
    }

    function pause() external onlyOwner {
        _config.paused = true;
        emit PauseChanged(true);
    }

    function unpause() external onlyOwner {
        _config.paused = false;
        emit PauseChanged(false);
    }

    /// @notice Sets the protocol fee, at most MAX_PROTOCOL_FEE_BPS. Quotes made at the old rate
    /// revert StaleFeeConfig from now on.
    function setProtocolFeeBps(uint16 bps) external onlyOwner {
        if (bps > MAX_PROTOCOL_FEE_BPS) revert InvalidConfig(ConfigFault.ProtocolFee);
        emit ProtocolFeeChanged(_config.protocolFeeBps, bps);
        _config.protocolFeeBps = bps;
    }

    function setFeeCollector(address collector) external onlyOwner {
        if (collector == address(0) || collector == address(this)) revert InvalidConfig(ConfigFault.FeeCollector);
        emit FeeCollectorChanged(_config.feeCollector, collector);
        _config.feeCollector = collector;
    }

    /// @notice Adds or removes an external router. The executor approves an allowlisted router
    /// for exactly one hop's input and calls it with that hop's data, so only aggregator routers
    /// that pull at most the approved amount and send their output to the caller belong here.
    /// A registered venue contract (factory, pool deployer, PoolManager) or stable pool is never
    /// a router.
    function setRouterAllowed(address router, bool allowed) external onlyOwner {
        if (router == address(0) || router == address(this) || router == USDC || _venueUses[router] != 0) {
            revert InvalidConfig(ConfigFault.Router);
        }
        isRouterAllowed[router] = allowed;
        emit RouterAllowlistChanged(router, allowed);
    }

    /// @notice Registers, replaces or removes venue `id`, which hops name by that id.
    /// kind 1, Uniswap V2: factory = the pair factory, initCodeHash = keccak256 of the pair's
    ///   creation code, feeBps = the pairs' swap fee, 1..9999 (30 for Uniswap V2 itself); it must
    ///   be the pairs' true fee, or their K check refuses every swap.
    /// kind 2, Uniswap V3: factory = the address that CREATE2s the pools (the factory, or a
    ///   fork's pool deployer), initCodeHash = the pool's init code hash, feeBps = 0.
    /// kind 3, Uniswap V4: factory = the PoolManager, initCodeHash = 0, feeBps = 0.
    /// kind 0 removes the venue: factory, initCodeHash and feeBps must be zero.
    /// The contract must not be an allowed router, USDC, this contract or zero.
    function setVenue(uint8 id, uint8 kind, address factory, bytes32 initCodeHash, uint16 feeBps) external onlyOwner {
        bool ok;
        if (kind == 0) ok = factory == address(0) && initCodeHash == 0 && feeBps == 0;
        else if (kind == RouteCodec.KIND_V2) ok = initCodeHash != 0 && feeBps != 0 && feeBps < BPS;
        else if (kind == RouteCodec.KIND_V3) ok = initCodeHash != 0 && feeBps == 0;
        else if (kind == RouteCodec.KIND_V4) ok = initCodeHash == 0 && feeBps == 0;
        if (!ok || (kind != 0 && !_mayBeVenueContract(factory))) revert InvalidConfig(ConfigFault.Venue);
        address previous = _venues[id].factory;
        unchecked {
            if (previous != address(0)) --_venueUses[previous];
            if (factory != address(0)) ++_venueUses[factory];
        }
        _venues[id] = Venue({kind: kind, feeBps: feeBps, factory: factory});
        _venueInitCodeHash[id] = initCodeHash;
        emit VenueSet(id, kind, factory, initCodeHash, feeBps);
    }

    /// @notice Venue `id` as setVenue registered it; kind 0 when there is none.
    function venue(uint8 id) external view returns (uint8 kind, address factory, bytes32 initCodeHash, uint16 feeBps) {
        Venue memory v = _venues[id];
        return (v.kind, v.factory, _venueInitCodeHash[id], v.feeBps);
    }

    /// @notice Registers (again) or removes a Curve-style stable pool. Registering reads the
    /// pool's coins(k) for k = 0, 1, … until it reverts: 2 to 8 distinct non-zero coins, none
    /// of them the pool. Removing clears them. The pool must not be an allowed router, USDC,
    /// this contract or zero.
    function setStablePool(address pool, bool registered) external onlyOwner {
        if (!_mayBeVenueContract(pool)) revert InvalidConfig(ConfigFault.StablePool);
        address[] storage coins = _stableCoins[pool];
        uint256 count = coins.length;
        if (count != 0) {
            for (uint256 k; k < count; ++k) {
                delete _stableIndex[pool][coins[k]];
            }
            delete _stableCoins[pool];
            unchecked {
                --_venueUses[pool];
            }
        }
        if (registered) {
            for (uint256 k;; ++k) {
                (bool exists, address coin) = _stableCoin(pool, k);
                if (!exists) break;
                if (k == MAX_STABLE_COINS || coin == address(0) || coin == pool || _stableIndex[pool][coin] != 0) {
                    revert InvalidConfig(ConfigFault.StablePool);
                }
                _stableIndex[pool][coin] = k + 1;
                coins.push(coin);
            }
            if (coins.length < 2) revert InvalidConfig(ConfigFault.StablePool);
            unchecked {
                ++_venueUses[pool];
            }
        }
        emit StablePoolSet(pool, registered);
    }

    /// @notice The index + 1 of `token` among a registered stable pool's coins; 0 when the pool
    /// is not registered or `token` is not one of its coins.
    function stableCoinIndex(address pool, address token) external view returns (uint256 indexPlusOne) {
        return _stableIndex[pool][token];
    }

    function _mayBeVenueContract(address a) private view returns (bool) {
        return a != address(0) && a != address(this) && a != USDC && !isRouterAllowed[a];
    }

    /// @dev pool.coins(k): whether it answered (not reverting, one word), and the address. An
    /// answer that is not an address (dirty upper bits) is refused.
    function _stableCoin(address pool, uint256 k) private view returns (bool exists, address coin) {
        uint256 word;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, shl(224, 0xc6610657)) // coins(uint256)
            mstore(add(m, 0x04), k)
            exists := and(gt(returndatasize(), 0x1f), staticcall(gas(), pool, m, 0x24, 0x00, 0x20))
            word := mload(0x00)
        }
        if (exists && word >> 160 != 0) revert InvalidConfig(ConfigFault.StablePool);
        coin = address(uint160(word));
    }

    /// @notice Starts a two-step ownership transfer; address(0) cancels a pending one.
    function transferOwnership(address newOwner) external onlyOwner {
        pendingOwner = newOwner;
        emit OwnershipTransferStarted(owner, newOwner);
    }

    function acceptOwnership() external {
        if (msg.sender != pendingOwner) revert Unauthorized(msg.sender);
        emit OwnershipTransferred(owner, msg.sender);
        owner = msg.sender;
        pendingOwner = address(0);
    }
}
