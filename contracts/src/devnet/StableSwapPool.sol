// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

interface IStableSwapCoin {
    function decimals() external view returns (uint8);
}

/// @title StableSwapPool
/// @notice The devnet's Curve-style plain pool: 2 to 4 ERC-20 coins under the StableSwap
/// invariant, with the interface and the integer math of Curve's factory plain pools
/// (curve-factory plain-N "Basic" templates), written anew in Solidity:
///   - amplification stored as A * A_PRECISION (A_PRECISION = 100); the math uses A_precise
///   - fee in units of 1e-10 (FEE_DENOMINATOR = 1e10)
///   - rate multiplier per coin 10**(36 - decimals), PRECISION = 1e18,
///     xp[k] = rate[k] * balance[k] / PRECISION
///   - get_D and get_y: Newton iterations (at most 255), done when two successive values
///     differ by at most 1, with Curve's divisions in Curve's order
///   - get_dy: dy = xp[j] - y - 1; fee = fee * dy / 1e10; out = (dy - fee) * PRECISION / rate[j]
/// Differences from Curve: no admin fee (every fee stays in the pool's balances), A is fixed
/// (no ramping), no price oracle, no native-coin support, no receiver argument, and the
/// one-coin / imbalanced withdrawals are left out. add_liquidity charges Curve's imbalance fee.
/// Coins that take a fee on transfer or rebase are not supported (balances are book-kept).
/// Arithmetic overflows and divisions by zero revert (checked 0.8 arithmetic), as Vyper's do.
/// The pool is also its own LP token (a minimal ERC-20 with 18 decimals).
contract StableSwapPool {
    uint256 private constant PRECISION = 1e18;
    uint256 private constant FEE_DENOMINATOR = 1e10;
    uint256 private constant A_PRECISION = 100;
    /// @dev Curve's MAX_A
    uint256 private constant MAX_A = 1e6;
    /// @dev at most 50%
    uint256 private constant MAX_FEE = 5e9;
    uint256 private constant MAX_COINS = 4;

    // ------------------------------------------------------------------ events

    event TokenExchange(address indexed buyer, int128 sold_id, uint256 tokens_sold, int128 bought_id, uint256 tokens_bought);
    event AddLiquidity(address indexed provider, uint256[2] token_amounts, uint256[2] fees, uint256 invariant, uint256 token_supply);
    event AddLiquidity(address indexed provider, uint256[3] token_amounts, uint256[3] fees, uint256 invariant, uint256 token_supply);
    event AddLiquidity(address indexed provider, uint256[4] token_amounts, uint256[4] fees, uint256 invariant, uint256 token_supply);
    event RemoveLiquidity(address indexed provider, uint256[2] token_amounts, uint256[2] fees, uint256 token_supply);
    event RemoveLiquidity(address indexed provider, uint256[3] token_amounts, uint256[3] fees, uint256 token_supply);
    event RemoveLiquidity(address indexed provider, uint256[4] token_amounts, uint256[4] fees, uint256 token_supply);
    event Transfer(address indexed sender, address indexed receiver, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    // ------------------------------------------------------------------ errors

    error InvalidCoins();
    error InvalidDecimals(address coin);
    error InvalidA(uint256 A);
    error InvalidFee(uint256 fee);
    error IndexOutOfRange();
    error SameCoin();
    /// @dev Newton's method did not settle in 255 rounds (Curve: bare `raise`)
    error DidNotConverge();
    /// @dev add_liquidity / remove_liquidity called with an array of another length than N
    error WrongCoinCount(uint256 given, uint256 coins);
    error InitialDepositNeedsAllCoins();
    error InvariantNotIncreased();
    /// @dev an output below its minimum, or an LP mint below min_mint_amount
    error Slippage(uint256 amount, uint256 minimum);
    error EmptyPool();
    error Reentrancy();
    error TokenCallFailed(address token);
    error InsufficientBalance(address account, uint256 balance, uint256 needed);
    error InsufficientAllowance(address spender, uint256 allowance, uint256 needed);
    error InvalidReceiver(address receiver);

    // ------------------------------------------------------------------ state

    /// @dev number of coins, 2..4
    uint256 private immutable N;
    address private immutable COIN0;
    address private immutable COIN1;
    address private immutable COIN2;
    address private immutable COIN3;
    uint256 private immutable RATE0;
    uint256 private immutable RATE1;
    uint256 private immutable RATE2;
    uint256 private immutable RATE3;
    /// @dev A * A_PRECISION
    uint256 private immutable AMP;
    /// @notice swap fee in units of 1e-10
    uint256 public immutable fee;

    uint256[MAX_COINS] private _balances;

    string public constant name = "Devnet StableSwap LP";
    string public constant symbol = "ssLP";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address account => uint256) public balanceOf;
    mapping(address owner => mapping(address spender => uint256)) public allowance;

    bool private transient _entered;

    modifier nonReentrant() {
        if (_entered) revert Reentrancy();
        _entered = true;
        _;
        _entered = false;
    }

    /// @param coins_ the pool's coins in pool order: 2 to 4 distinct ERC-20s of at most 18 decimals
    /// @param A_ the amplification coefficient (stored as A_ * 100), 1 <= A_ <= 1e6
    /// @param fee_ the swap fee in units of 1e-10 (4e6 is 4 bps), at most 5e9
    constructor(address[] memory coins_, uint256 A_, uint256 fee_) {
        uint256 n = coins_.length;
        if (n < 2 || n > MAX_COINS) revert InvalidCoins();
        if (A_ == 0 || A_ > MAX_A) revert InvalidA(A_);
        if (fee_ > MAX_FEE) revert InvalidFee(fee_);
        uint256[MAX_COINS] memory rates;
        for (uint256 k; k < n; ++k) {
            address coin = coins_[k];
            if (coin == address(0) || coin.code.length == 0) revert InvalidCoins();
            for (uint256 m; m < k; ++m) {
                if (coins_[m] == coin) revert InvalidCoins();
            }
            uint8 dec = IStableSwapCoin(coin).decimals();
            if (dec > 18) revert InvalidDecimals(coin);
            rates[k] = 10 ** (36 - uint256(dec));
        }
        N = n;
        COIN0 = coins_[0];
        COIN1 = coins_[1];
        COIN2 = n > 2 ? coins_[2] : address(0);
        COIN3 = n > 3 ? coins_[3] : address(0);
        RATE0 = rates[0];
        RATE1 = rates[1];
        RATE2 = rates[2];
        RATE3 = rates[3];
        AMP = A_ * A_PRECISION;
        fee = fee_;
        // as Curve's pools do, so that explorers see an ERC-20
        emit Transfer(address(0), address(this), 0);
    }

    // ------------------------------------------------------------------ views

    /// @notice the k-th coin; reverts past the last one
    function coins(uint256 k) external view returns (address) {
        if (k >= N) revert IndexOutOfRange();
        return _coin(k);
    }

    /// @notice the pool's book balance of the k-th coin; reverts past the last one
    function balances(uint256 k) external view returns (uint256) {
        if (k >= N) revert IndexOutOfRange();
        return _balances[k];
    }

    function A() external view returns (uint256) {
        return AMP / A_PRECISION;
    }

    function A_precise() external view returns (uint256) {
        return AMP;
    }

    /// @notice always 0: every fee stays with the liquidity providers
    function admin_fee() external pure returns (uint256) {
        return 0;
    }

    /// @notice D per LP token, scaled by 1e18
    function get_virtual_price() external view returns (uint256) {
        uint256 supply = totalSupply;
        if (supply == 0) revert EmptyPool();
        return _getD(_xpMem(_rates(), _loadBalances()), AMP) * PRECISION / supply;
    }

    /// @notice the output of exchange(i, j, dx, 0) now
    function get_dy(int128 i, int128 j, uint256 dx) external view returns (uint256) {
        return _dy(_index(i), _index(j), dx, _loadBalances());
    }

    // ------------------------------------------------------------------ exchange

    /// @notice Sells dx of coin i (taken with transferFrom from the caller) for coin j, paid to
    /// the caller; reverts when that is less than min_dy.
    function exchange(int128 i, int128 j, uint256 dx, uint256 min_dy) external nonReentrant returns (uint256 dy) {
        uint256 a = _index(i);
        uint256 b = _index(j);
        uint256[] memory old = _loadBalances();
        dy = _dy(a, b, dx, old);
        if (dy < min_dy) revert Slippage(dy, min_dy);
        _balances[a] = old[a] + dx;
        _balances[b] = old[b] - dy;
        _safeTransferFrom(_coin(a), msg.sender, dx);
        _safeTransfer(_coin(b), msg.sender, dy);
        emit TokenExchange(msg.sender, i, dx, j, dy);
    }

    // ------------------------------------------------------------------ liquidity

    function add_liquidity(uint256[2] calldata amounts, uint256 min_mint_amount) external nonReentrant returns (uint256) {
        uint256[] memory a = new uint256[](2);
        for (uint256 k; k < 2; ++k) a[k] = amounts[k];
        return _addLiquidity(a, min_mint_amount);
    }

    function add_liquidity(uint256[3] calldata amounts, uint256 min_mint_amount) external nonReentrant returns (uint256) {
        uint256[] memory a = new uint256[](3);
        for (uint256 k; k < 3; ++k) a[k] = amounts[k];
        return _addLiquidity(a, min_mint_amount);
    }

    function add_liquidity(uint256[4] calldata amounts, uint256 min_mint_amount) external nonReentrant returns (uint256) {
        uint256[] memory a = new uint256[](4);
        for (uint256 k; k < 4; ++k) a[k] = amounts[k];
        return _addLiquidity(a, min_mint_amount);
    }

    /// @notice Burns `burn_amount` LP tokens of the caller for its share of every coin.
    function remove_liquidity(uint256 burn_amount, uint256[2] calldata min_amounts) external nonReentrant returns (uint256[2] memory out) {
        uint256[] memory m = new uint256[](2);
        for (uint256 k; k < 2; ++k) m[k] = min_amounts[k];
        uint256[] memory amounts = _removeLiquidity(burn_amount, m);
        for (uint256 k; k < 2; ++k) out[k] = amounts[k];
    }

    function remove_liquidity(uint256 burn_amount, uint256[3] calldata min_amounts) external nonReentrant returns (uint256[3] memory out) {
        uint256[] memory m = new uint256[](3);
        for (uint256 k; k < 3; ++k) m[k] = min_amounts[k];
        uint256[] memory amounts = _removeLiquidity(burn_amount, m);
        for (uint256 k; k < 3; ++k) out[k] = amounts[k];
    }

    function remove_liquidity(uint256 burn_amount, uint256[4] calldata min_amounts) external nonReentrant returns (uint256[4] memory out) {
        uint256[] memory m = new uint256[](4);
        for (uint256 k; k < 4; ++k) m[k] = min_amounts[k];
        uint256[] memory amounts = _removeLiquidity(burn_amount, m);
        for (uint256 k; k < 4; ++k) out[k] = amounts[k];
    }

    /// @dev Curve's add_liquidity: the first deposit needs every coin and mints D; a later one
    /// mints supply * (D2 - D0) / D0, where D2 is the invariant of the new balances less the
    /// imbalance fee fee * N / (4 * (N - 1)) on each coin's distance from its ideal balance.
    function _addLiquidity(uint256[] memory amounts, uint256 minMint) private returns (uint256 mint) {
        uint256 n = N;
        if (amounts.length != n) revert WrongCoinCount(amounts.length, n);
        uint256[] memory rates = _rates();
        uint256[] memory old = _loadBalances();
        uint256 d0 = _getD(_xpMem(rates, old), AMP);
        uint256 supply = totalSupply;
        uint256[] memory newBalances = new uint256[](n);
        for (uint256 k; k < n; ++k) {
            if (supply == 0 && amounts[k] == 0) revert InitialDepositNeedsAllCoins();
            newBalances[k] = old[k] + amounts[k];
        }
        uint256 d1 = _getD(_xpMem(rates, newBalances), AMP);
        if (d1 <= d0) revert InvariantNotIncreased();

        uint256[] memory fees = new uint256[](n);
        if (supply > 0) {
            uint256 baseFee = fee * n / (4 * (n - 1));
            for (uint256 k; k < n; ++k) {
                uint256 ideal = d1 * old[k] / d0;
                uint256 actual = newBalances[k];
                uint256 difference = ideal > actual ? ideal - actual : actual - ideal;
                fees[k] = baseFee * difference / FEE_DENOMINATOR;
                // no admin fee: the pool keeps the whole deposit
                _balances[k] = actual;
                newBalances[k] = actual - fees[k];
            }
            uint256 d2 = _getD(_xpMem(rates, newBalances), AMP);
            mint = supply * (d2 - d0) / d0;
        } else {
            for (uint256 k; k < n; ++k) _balances[k] = newBalances[k];
            mint = d1;
        }
        if (mint < minMint) revert Slippage(mint, minMint);

        for (uint256 k; k < n; ++k) {
            if (amounts[k] > 0) _safeTransferFrom(_coin(k), msg.sender, amounts[k]);
        }
        supply += mint;
        totalSupply = supply;
        balanceOf[msg.sender] += mint;
        emit Transfer(address(0), msg.sender, mint);
        _emitAddLiquidity(amounts, fees, d1, supply);
    }

    function _removeLiquidity(uint256 burn, uint256[] memory minAmounts) private returns (uint256[] memory amounts) {
        uint256 n = N;
        if (minAmounts.length != n) revert WrongCoinCount(minAmounts.length, n);
        uint256 supply = totalSupply;
        if (supply == 0) revert EmptyPool();
        uint256 held = balanceOf[msg.sender];
        if (held < burn) revert InsufficientBalance(msg.sender, held, burn);
        amounts = new uint256[](n);
        for (uint256 k; k < n; ++k) {
            uint256 old = _balances[k];
            uint256 value = old * burn / supply;
            if (value < minAmounts[k]) revert Slippage(value, minAmounts[k]);
            _balances[k] = old - value;
            amounts[k] = value;
        }
        unchecked {
            balanceOf[msg.sender] = held - burn;
            supply -= burn;
        }
        totalSupply = supply;
        emit Transfer(msg.sender, address(0), burn);
        for (uint256 k; k < n; ++k) _safeTransfer(_coin(k), msg.sender, amounts[k]);
        _emitRemoveLiquidity(amounts, supply);
    }

    // ------------------------------------------------------------------ LP token

    function transfer(address to, uint256 value) external returns (bool) {
        _transferLp(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            if (allowed < value) revert InsufficientAllowance(msg.sender, allowed, value);
            unchecked {
                allowance[from][msg.sender] = allowed - value;
            }
        }
        _transferLp(from, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function _transferLp(address from, address to, uint256 value) private {
        if (to == address(0)) revert InvalidReceiver(to);
        uint256 held = balanceOf[from];
        if (held < value) revert InsufficientBalance(from, held, value);
        unchecked {
            balanceOf[from] = held - value;
        }
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }

    // ------------------------------------------------------------------ StableSwap math

    /// @dev get_dy's and exchange's output for the book balances `bal`
    function _dy(uint256 i, uint256 j, uint256 dx, uint256[] memory bal) private view returns (uint256) {
        uint256[] memory rates = _rates();
        uint256[] memory xp = _xpMem(rates, bal);
        uint256 x = xp[i] + dx * rates[i] / PRECISION;
        uint256 y = _getY(i, j, x, xp, AMP);
        uint256 dy = xp[j] - y - 1;
        uint256 dyFee = fee * dy / FEE_DENOMINATOR;
        return (dy - dyFee) * PRECISION / rates[j];
    }

    function _xpMem(uint256[] memory rates, uint256[] memory bal) private pure returns (uint256[] memory xp) {
        uint256 n = bal.length;
        xp = new uint256[](n);
        for (uint256 k; k < n; ++k) xp[k] = rates[k] * bal[k] / PRECISION;
    }

    /// @dev The invariant D of xp: Newton's method from D = sum(xp),
    /// D_P = D^(n+1) / (n^n prod xp) (one division per coin),
    /// D' = (Ann S / A_PRECISION + n D_P) D / ((Ann - A_PRECISION) D / A_PRECISION + (n + 1) D_P)
    function _getD(uint256[] memory xp, uint256 amp) private pure returns (uint256) {
        uint256 n = xp.length;
        uint256 s;
        for (uint256 k; k < n; ++k) s += xp[k];
        if (s == 0) return 0;
        uint256 d = s;
        uint256 ann = amp * n;
        for (uint256 round; round < 255; ++round) {
            uint256 dP = d;
            for (uint256 k; k < n; ++k) dP = dP * d / (xp[k] * n);
            uint256 dPrev = d;
            d = (ann * s / A_PRECISION + dP * n) * d / ((ann - A_PRECISION) * d / A_PRECISION + (n + 1) * dP);
            if (d > dPrev) {
                if (d - dPrev <= 1) return d;
            } else {
                if (dPrev - d <= 1) return d;
            }
        }
        revert DidNotConverge();
    }

    /// @dev xp[j] after xp[i] becomes x, at the invariant of xp: Newton's method on
    /// y^2 + (b - D) y = c from y = D.
    function _getY(uint256 i, uint256 j, uint256 x, uint256[] memory xp, uint256 amp) private pure returns (uint256) {
        if (i == j) revert SameCoin();
        uint256 n = xp.length;
        if (i >= n || j >= n) revert IndexOutOfRange();
        uint256 d = _getD(xp, amp);
        uint256 ann = amp * n;
        uint256 c = d;
        uint256 s;
        for (uint256 k; k < n; ++k) {
            uint256 xk;
            if (k == i) xk = x;
            else if (k != j) xk = xp[k];
            else continue;
            s += xk;
            c = c * d / (xk * n);
        }
        c = c * d * A_PRECISION / (ann * n);
        uint256 b = s + d * A_PRECISION / ann;
        uint256 y = d;
        for (uint256 round; round < 255; ++round) {
            uint256 yPrev = y;
            y = (y * y + c) / (2 * y + b - d);
            if (y > yPrev) {
                if (y - yPrev <= 1) return y;
            } else {
                if (yPrev - y <= 1) return y;
            }
        }
        revert DidNotConverge();
    }

    // ------------------------------------------------------------------ internals

    function _index(int128 i) private view returns (uint256) {
        if (i < 0 || uint256(int256(i)) >= N) revert IndexOutOfRange();
        return uint256(int256(i));
    }

    function _coin(uint256 k) private view returns (address) {
        if (k == 0) return COIN0;
        if (k == 1) return COIN1;
        if (k == 2) return COIN2;
        return COIN3;
    }

    function _rates() private view returns (uint256[] memory rates) {
        uint256 n = N;
        rates = new uint256[](n);
        rates[0] = RATE0;
        rates[1] = RATE1;
        if (n > 2) rates[2] = RATE2;
        if (n > 3) rates[3] = RATE3;
    }

    function _loadBalances() private view returns (uint256[] memory bal) {
        uint256 n = N;
        bal = new uint256[](n);
        for (uint256 k; k < n; ++k) bal[k] = _balances[k];
    }

    function _emitAddLiquidity(uint256[] memory amounts, uint256[] memory fees, uint256 invariant, uint256 supply) private {
        uint256 n = amounts.length;
        if (n == 2) {
            emit AddLiquidity(msg.sender, [amounts[0], amounts[1]], [fees[0], fees[1]], invariant, supply);
        } else if (n == 3) {
            emit AddLiquidity(msg.sender, [amounts[0], amounts[1], amounts[2]], [fees[0], fees[1], fees[2]], invariant, supply);
        } else {
            emit AddLiquidity(
                msg.sender, [amounts[0], amounts[1], amounts[2], amounts[3]], [fees[0], fees[1], fees[2], fees[3]], invariant, supply
            );
        }
    }

    function _emitRemoveLiquidity(uint256[] memory amounts, uint256 supply) private {
        uint256 n = amounts.length;
        if (n == 2) {
            uint256[2] memory zeros;
            emit RemoveLiquidity(msg.sender, [amounts[0], amounts[1]], zeros, supply);
        } else if (n == 3) {
            uint256[3] memory zeros;
            emit RemoveLiquidity(msg.sender, [amounts[0], amounts[1], amounts[2]], zeros, supply);
        } else {
            uint256[4] memory zeros;
            emit RemoveLiquidity(msg.sender, [amounts[0], amounts[1], amounts[2], amounts[3]], zeros, supply);
        }
    }

    /// @dev ERC-20 transfer(to, amount) from this pool; accepts tokens that return nothing,
    /// rejects those that return false, and passes a token's own revert reason on.
    function _safeTransfer(address token, address to, uint256 amount) private {
        _tokenCall(token, abi.encodeWithSelector(0xa9059cbb, to, amount));
    }

    /// @dev ERC-20 transferFrom(from, this pool, amount)
    function _safeTransferFrom(address token, address from, uint256 amount) private {
        _tokenCall(token, abi.encodeWithSelector(0x23b872dd, from, address(this), amount));
    }

    function _tokenCall(address token, bytes memory data) private {
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok) {
            if (ret.length > 0) {
                assembly ("memory-safe") {
                    revert(add(ret, 0x20), mload(ret))
                }
            }
            revert TokenCallFailed(token);
        }
        if (ret.length == 0) {
            if (token.code.length == 0) revert TokenCallFailed(token);
        } else if (ret.length < 32 || abi.decode(ret, (uint256)) != 1) {
            revert TokenCallFailed(token);
        }
    }
}
