// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {safeTransfer, safeTransferFrom, balanceOfToken} from "./TokenOps.sol";

/// @title ExecutorBase
/// @notice RouteExecutor's shared ground: its fault codes and errors, constants, every state
/// variable (declared here only, so the storage layout is this contract's), the route cursor,
/// and the helpers more than one hop uses.
abstract contract ExecutorBase {
    using {safeTransfer, safeTransferFrom, balanceOfToken} for address;

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
        StablePool, // setStablePool: not 2 to 8 distinct non-zero coins, or a contract that cannot be a pool
        OrderEntry // constructor: the OrderEntry address has no code
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
    /// @dev Uniswap's own pair and pool init code hashes (every deployment of the canonical
    /// bytecode), named by Venue.knownHash so a hop does not read the venue's hash slot
    bytes32 internal constant UNISWAP_V2_PAIR_HASH = 0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f;
    bytes32 internal constant UNISWAP_V3_POOL_HASH = 0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54;
    uint256 internal constant KNOWN_HASH_V2_PAIR = 1;
    uint256 internal constant KNOWN_HASH_V3_POOL = 2;
    /// @dev a stable pool has 2 to MAX_STABLE_COINS coins
    uint256 internal constant MAX_STABLE_COINS = 8;

    /// @dev everything execute reads from storage, in one slot; cachedVenues has bit `id` set
    /// while venue `id` (< 64) is still the one the constructor registered and cached in code
    /// (VenueRegistry), so a hop through it reads no venue slot
    struct Config {
        address feeCollector;
        uint16 protocolFeeBps;
        bool paused;
        uint64 cachedVenues;
    }

    /// @dev A venue: kind (RouteCodec.KIND_V2, _V3, _V4; 0 for none), the V2 swap fee, the
    /// factory, pool deployer or PoolManager, and which well-known init code hash it uses
    /// (KNOWN_HASH_*, 0 for none), in one slot; the init code hash is in another, read only
    /// when it is none of the well-known ones.
    struct Venue {
        uint8 kind;
        uint16 feeBps;
        address factory;
        uint8 knownHash;
    }

    Config internal _config;
    address public owner;
    address public pendingOwner;
    mapping(address router => bool) public isRouterAllowed;
    mapping(uint256 id => Venue) internal _venues;
    mapping(uint256 id => bytes32) internal _venueInitCodeHash;
    /// @dev how many venue ids and stable pool registrations name a contract (never a router)
    mapping(address venueContract => uint256) internal _venueUses;
    /// @dev a registered stable pool's coins, and each coin's index + 1
    mapping(address pool => address[]) internal _stableCoins;
    mapping(address pool => mapping(address token => uint256 indexPlusOne)) internal _stableIndex;

    bool internal transient _entered;
    /// @dev The one callback the executor answers now: keccak256(caller ‖ data) of the pool or
    /// PoolManager it is calling and the data it handed over, which names what that callback
    /// pays. Set just before the swap or unlock, cleared by that callback; zero when none.
    bytes32 internal transient _expectedCallback;
    /// @dev During executeExactOutput only (zero otherwise): who pays the route's input (the
    /// sender, or this contract for native input), the sender, the most the payer may give (in
    /// pool units), the maxAmountIn it came from, and what has been taken so far.
    address internal transient _xoPayer;
    address internal transient _xoSender;
    uint256 internal transient _xoBudget;
    uint256 internal transient _xoMaxIn;
    uint256 internal transient _xoSpent;

    /// @dev Where a split stands between two hops.
    struct Cursor {
        uint256 ptr; // calldata position of the next hop
        uint256 end; // calldata position just past the route
        address token; // the token in hand
        uint256 amount; // how much of it
        address payer; // who holds it: the sender (ERC-20 input, first hop) or this contract
        address pair; // the V2 pair it already sits in, when the previous hop sent it there
        address sink; // where a split's last hop delivers: this contract, or the recipient (execute, no fee)
    }

    // ------------------------------------------------------------------ helpers

    /// @dev Moves `amount` of `token` from `payer` to `to`. From the sender, the amount must
    /// arrive in full: a token that delivers less (a transfer tax, a rebasing balance) is
    /// refused as UnsupportedToken.
    function _pay(address token, address payer, address to, uint256 amount) internal {
        if (payer == address(this)) {
            token.safeTransfer(to, amount);
        } else {
            uint256 before = token.balanceOfToken(to);
            token.safeTransferFrom(payer, to, amount);
            if (token.balanceOfToken(to) != before + amount) revert UnsupportedToken(token);
        }
    }

    /// @dev Exact output: delivers exactly `amount` of the token reached by the hops in calldata
    /// [start, end) (`tokenIn` when there are none) to `to`, running those hops backward; the
    /// first one's input comes from the payer (_payIn).
    function _deliverExact(uint256 start, uint256 end, address tokenIn, uint256 amount, address to) internal virtual;

    /// @dev Exact output: `amount` of the route's input from the payer to `to`, counted against
    /// the budget; past it, Slippage(what the route needs so far, maxAmountIn) (native: in wei).
    function _payIn(address token, address to, uint256 amount) internal {
        uint256 spent = _xoSpent + amount;
        _xoSpent = spent;
        address payer = _xoPayer;
        // the payer is this contract for native input, and for a gasless order's swap (ERC-20
        // input the order brought here), which this contract sends itself
        if (spent > _xoBudget) {
            revert Slippage(payer == address(this) && _xoSender != address(this) ? spent * NATIVE_SCALE : spent, _xoMaxIn);
        }
        if (payer != to) _pay(token, payer, to, amount);
    }

    /// @dev Expects one callback from `expected` bringing back `data`, which the caller is about
    /// to receive.
    function _expectCallback(address expected, bytes memory data) internal {
        bytes32 binding;
        assembly ("memory-safe") {
            // keccak256(expected ‖ data): its 20 bytes end where data's contents begin
            let length := mload(data)
            mstore(data, expected)
            binding := keccak256(add(data, 0x0c), add(length, 0x14))
            mstore(data, length)
        }
        _expectedCallback = binding;
    }

    /// @dev Accepts the callback now running only if it is the one expected: from that caller,
    /// with that data byte for byte. Clears the expectation, so a second callback reverts.
    function _acceptCallback(bytes calldata data) internal {
        bytes32 binding;
        assembly ("memory-safe") {
            let m := mload(0x40)
            mstore(m, caller())
            calldatacopy(add(m, 0x20), data.offset, data.length)
            binding := keccak256(add(m, 0x0c), add(data.length, 0x14))
        }
        if (binding != _expectedCallback) revert UnexpectedCallback(msg.sender);
        _expectedCallback = 0;
    }

    /// @dev After the swap or unlock returned: its callback must have come (a pool that never
    /// called back took no input), so no expectation outlives the call.
    function _checkCallbackTaken() internal view {
        if (_expectedCallback != 0) revert InvalidRoute(RouteFault.PartialFill);
    }

    /// @dev The address `deployer` CREATE2s with `salt` and code of hash `initCodeHash`.
    function _create2(address deployer, bytes32 salt, bytes32 initCodeHash) internal pure returns (address a) {
        assembly ("memory-safe") {
            // keccak256(0xff ++ deployer ++ salt ++ initCodeHash), 85 bytes from m + 11
            let m := mload(0x40)
            mstore(m, or(shl(160, 0xff), shr(96, shl(96, deployer))))
            mstore(add(m, 0x20), salt)
            mstore(add(m, 0x40), initCodeHash)
            a := shr(96, shl(96, keccak256(add(m, 0x0b), 0x55)))
        }
    }
}
