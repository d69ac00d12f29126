// Curve's StableSwap plain pool (curve-factory plain-N templates; the devnet's
// contracts/src/devnet/StableSwapPool.sol): get_D, get_y, get_dy, get_dx
// (exact to the pool's own get_dy) and add_liquidity's mint, in the pool's integer operations and their order.
// Every uint256 operation is checked as Vyper (and Solidity 0.8) checks it:
// an overflow, an underflow or a division by zero throws AmmRevert where the
// pool reverts. No admin fee: every fee stays in the pool's balances.
//
// Units: a coin's balance times its rate multiplier 10**(36 - decimals),
// divided by PRECISION (1e18), is its normalised balance xp (18 decimals).
// `amp` is A_precise() = A * A_PRECISION; `fee` is in units of 1e-10.
import { MAX_UINT256 } from "./constants.ts"
import { AmmRevert } from "./errors.ts"

export const STABLE_PRECISION = 10n ** 18n
export const STABLE_FEE_DENOMINATOR = 10n ** 10n
export const STABLE_A_PRECISION = 100n
const MAX_ROUNDS = 255

/** What a plain pool's exchange depends on (src/amm/pool-state.ts StablePoolState has these fields). */
export interface StableSwapParams {
  /** balances(k): the pool's book balance of each coin, in the coin's smallest unit */
  readonly balances: readonly bigint[]
  /** rate multipliers, 10 ** (36 - decimals) per coin */
  readonly rates: readonly bigint[]
  /** A_precise(): A * 100 */
  readonly amp: bigint
  /** fee(): the swap fee in units of 1e-10 */
  readonly fee: bigint
}

// checked uint256 arithmetic ---------------------------------------------------

const add = (a: bigint, b: bigint): bigint => {
  const r = a + b
  if (r > MAX_UINT256) throw new AmmRevert("ArithmeticOverflow", "stable-swap")
  return r
}
const sub = (a: bigint, b: bigint): bigint => {
  if (b > a) throw new AmmRevert("ArithmeticUnderflow", "stable-swap")
  return a - b
}
const mul = (a: bigint, b: bigint): bigint => {
  const r = a * b
  if (r > MAX_UINT256) throw new AmmRevert("ArithmeticOverflow", "stable-swap")
  return r
}
const div = (a: bigint, b: bigint): bigint => {
  if (b === 0n) throw new AmmRevert("DivisionByZero", "stable-swap")
  return a / b
}
const converged = (a: bigint, b: bigint): boolean => (a > b ? a - b <= 1n : b - a <= 1n)

const at = <T>(xs: readonly T[], k: number): T => {
  if (!Number.isInteger(k) || k < 0 || k >= xs.length) throw new AmmRevert("CoinIndexOutOfRange", `coin ${k} of ${xs.length}`)
  return xs[k] as T
}

// ------------------------------------------------------------------------------

/** The rate multiplier of each coin: 10 ** (36 - decimals); decimals must be 0..18. */
export const stableRates = (decimals: readonly number[]): bigint[] =>
  decimals.map((d) => {
    if (!Number.isInteger(d) || d < 0 || d > 18) throw new RangeError(`a stable pool coin has 0 to 18 decimals, not ${d}`)
    return 10n ** BigInt(36 - d)
  })

/** _xp_mem: rate * balance / PRECISION for each coin. */
export const stableXp = (rates: readonly bigint[], balances: readonly bigint[]): bigint[] => {
  if (rates.length !== balances.length) throw new RangeError("one rate per balance")
  return balances.map((b, k) => div(mul(rates[k] as bigint, b), STABLE_PRECISION))
}

/**
 * get_D: the invariant of the normalised balances `xp` for amp = A_precise.
 * Newton from D = S: D_P = D, then D_P = D_P * D / (x * N) for each x;
 * D = (Ann * S / A_PRECISION + D_P * N) * D / ((Ann - A_PRECISION) * D / A_PRECISION + (N + 1) * D_P),
 * Ann = amp * N, until |D - Dprev| <= 1 (255 rounds at most, else DidNotConverge).
 * 0 for an empty pool; DivisionByZero when only some balances are 0.
 */
export const getD = (xp: readonly bigint[], amp: bigint): bigint => {
  const n = BigInt(xp.length)
  let s = 0n
  for (const x of xp) s = add(s, x)
  if (s === 0n) return 0n
  let d = s
  const ann = mul(amp, n)
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let dP = d
    for (const x of xp) dP = div(mul(dP, d), mul(x, n))
    const dPrev = d
    const numerator = mul(add(div(mul(ann, s), STABLE_A_PRECISION), mul(dP, n)), d)
    const denominator = add(div(mul(sub(ann, STABLE_A_PRECISION), d), STABLE_A_PRECISION), mul(n + 1n, dP))
    d = div(numerator, denominator)
    if (converged(d, dPrev)) return d
  }
  throw new AmmRevert("DidNotConverge", "get_D")
}

/**
 * get_y: the normalised balance of coin j once coin i's becomes x, at the
 * invariant of `xp`. With D = get_D(xp), Ann = amp * N:
 * c = D, then c = c * D / (x_k * N) over every coin k != j (x for coin i);
 * c = c * D * A_PRECISION / (Ann * N); b = S' + D * A_PRECISION / Ann;
 * Newton from y = D: y = (y * y + c) / (2 * y + b - D), until |y - yprev| <= 1.
 */
export const getY = (i: number, j: number, x: bigint, xp: readonly bigint[], amp: bigint): bigint => {
  if (i === j) throw new AmmRevert("SameCoin", "get_y")
  at(xp, i)
  at(xp, j)
  const n = BigInt(xp.length)
  const d = getD(xp, amp)
  const ann = mul(amp, n)
  let c = d
  let s = 0n
  for (let k = 0; k < xp.length; k++) {
    if (k === j) continue
    const xk = k === i ? x : (xp[k] as bigint)
    s = add(s, xk)
    c = div(mul(c, d), mul(xk, n))
  }
  c = div(mul(mul(c, d), STABLE_A_PRECISION), mul(ann, n))
  const b = add(s, div(mul(d, STABLE_A_PRECISION), ann))
  let y = d
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const yPrev = y
    y = div(add(mul(y, y), c), sub(add(mul(2n, y), b), d))
    if (converged(y, yPrev)) return y
  }
  throw new AmmRevert("DidNotConverge", "get_y")
}

const checkPool = (pool: StableSwapParams): void => {
  if (pool.rates.length !== pool.balances.length) throw new RangeError("one rate per balance")
}

const checkAmount = (amount: bigint): void => {
  if (amount < 0n || amount > MAX_UINT256) throw new RangeError(`not a uint256: ${amount}`)
}

/**
 * get_dy(i, j, dx): what exchange(i, j, dx, 0) pays now, in coin j's smallest unit.
 * x = xp[i] + dx * rate[i] / PRECISION; dy = xp[j] - get_y(i, j, x, xp) - 1;
 * fee = fee * dy / FEE_DENOMINATOR; returns (dy - fee) * PRECISION / rate[j].
 * Throws AmmRevert where the pool reverts (a tiny dx often does: dy underflows).
 */
export const getDy = (pool: StableSwapParams, i: number, j: number, dx: bigint): bigint => {
  checkPool(pool)
  checkAmount(dx)
  at(pool.balances, i)
  at(pool.balances, j)
  const rates = pool.rates
  const xp = stableXp(rates, pool.balances)
  const x = add(xp[i] as bigint, div(mul(dx, rates[i] as bigint), STABLE_PRECISION))
  const y = getY(i, j, x, xp, pool.amp)
  const dy = sub(sub(xp[j] as bigint, y), 1n)
  const fee = div(mul(pool.fee, dy), STABLE_FEE_DENOMINATOR)
  return div(mul(sub(dy, fee), STABLE_PRECISION), rates[j] as bigint)
}

/** getDy(dx), or undefined where the pool reverts; reverts other than `tolerated` propagate. */
const dyOrRevert = (pool: StableSwapParams, i: number, j: number, dx: bigint, tolerated: (e: AmmRevert) => boolean): bigint | undefined => {
  try {
    return getDy(pool, i, j, dx)
  } catch (e) {
    if (e instanceof AmmRevert && tolerated(e)) return undefined
    throw e
  }
}

/**
 * The least dx with getDy(i, j, dx) >= dy: the input an exchange needs to pay
 * at least dy of coin j. Estimated from the invariant as the pools' get_dx
 * does (stableswap-ng): y = xp[j] - (dy * rate[j] / PRECISION + 1) *
 * FEE_DENOMINATOR / (FEE_DENOMINATOR - fee), x = get_y(j, i, y),
 * dx = (x - xp[i]) * PRECISION / rate[i]; then settled against getDy itself
 * (the port of the pool's get_dy, whose rounding the estimate does not
 * follow): widened by doubling steps up or down until it brackets the answer,
 * then bisected, so that getDy(dx) >= dy and getDy(dx - 1) < dy hold exactly.
 * A dx whose get_dy reverts (too small to pay anything) counts as paying
 * less. Refused (InsufficientLiquidity) when the pool cannot pay dy: dy at or
 * above its balance of coin j, or no dx below the point where the pool's
 * arithmetic overflows; a dy <= 0 is InsufficientOutputAmount.
 */
export const getDx = (pool: StableSwapParams, i: number, j: number, dy: bigint): bigint => {
  checkPool(pool)
  checkAmount(dy)
  if (i === j) throw new AmmRevert("SameCoin", "get_dx")
  const balanceJ = at(pool.balances, j)
  at(pool.balances, i)
  if (dy === 0n) throw new AmmRevert("InsufficientOutputAmount", "get_dx: dy is 0")
  if (dy >= balanceJ) throw new AmmRevert("InsufficientLiquidity", `get_dx: dy ${dy} >= balance ${balanceJ} of coin ${j}`)
  if (pool.fee >= STABLE_FEE_DENOMINATOR) throw new AmmRevert("InvalidFee", `fee ${pool.fee}`)

  const estimate = (): bigint => {
    const rates = pool.rates
    const xp = stableXp(rates, pool.balances)
    const wanted = div(mul(add(div(mul(dy, rates[j] as bigint), STABLE_PRECISION), 1n), STABLE_FEE_DENOMINATOR), STABLE_FEE_DENOMINATOR - pool.fee)
    const y = sub(xp[j] as bigint, wanted)
    const x = getY(j, i, y, xp, pool.amp)
    return div(mul(sub(x, xp[i] as bigint), STABLE_PRECISION), rates[i] as bigint)
  }
  let guess: bigint
  try {
    guess = estimate()
  } catch (e) {
    // the invariant has no room for dy at this fee, or the estimate hit the pool's limits: search from 1
    if (!(e instanceof AmmRevert)) throw e
    guess = 1n
  }
  if (guess < 1n) guess = 1n

  // below the answer a small dx may make get_dy underflow (it pays nothing); above it the
  // only reverts are the pool's limits, where no larger dx can pay either
  const paysBelow = (dx: bigint): boolean => {
    const out = dyOrRevert(pool, i, j, dx, () => true)
    return out !== undefined && out >= dy
  }
  const cannot = (detail: string) => new AmmRevert("InsufficientLiquidity", `get_dx: the pool cannot pay ${dy} of coin ${j} (${detail})`)
  const paysAbove = (dx: bigint): boolean => {
    if (dx > MAX_UINT256) throw cannot("dx beyond uint256")
    try {
      return getDy(pool, i, j, dx) >= dy
    } catch (e) {
      if (!(e instanceof AmmRevert)) throw e
      if (e.code === "ArithmeticUnderflow" || e.code === "DivisionByZero") return false
      throw cannot(e.message)
    }
  }

  // bracket: lo pays less than dy (0 by definition), hi pays at least dy
  let lo: bigint
  let hi: bigint
  if (paysAbove(guess)) {
    hi = guess
    let step = 1n
    lo = hi - step
    while (lo > 0n && paysBelow(lo)) {
      hi = lo
      step *= 2n
      lo = hi - step < 0n ? 0n : hi - step
    }
  } else {
    lo = guess
    let step = 1n
    hi = lo + step
    while (!paysAbove(hi)) {
      lo = hi
      step *= 2n
      hi = lo + step
    }
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (paysBelow(mid)) hi = mid
    else lo = mid
  }
  return hi
}

export interface StableExchange {
  /** what the pool pays: getDy */
  readonly dy: bigint
  /** balances() after the exchange: balance[i] + dx, balance[j] - dy */
  readonly balances: readonly bigint[]
}

/** exchange(i, j, dx, 0): the output and the pool's balances afterwards. */
export const stableExchange = (pool: StableSwapParams, i: number, j: number, dx: bigint): StableExchange => {
  const dy = getDy(pool, i, j, dx)
  const balances = pool.balances.slice()
  balances[i] = add(balances[i] as bigint, dx)
  balances[j] = sub(balances[j] as bigint, dy)
  return { dy, balances }
}

export interface StableDeposit {
  /** LP tokens minted */
  readonly mint: bigint
  /** the imbalance fee charged on each coin (0s for the first deposit) */
  readonly fees: readonly bigint[]
  /** D1: the invariant of the balances with the deposit, before fees (AddLiquidity's `invariant`) */
  readonly invariant: bigint
  /** balances() afterwards: the whole deposit stays in the pool (no admin fee) */
  readonly balances: readonly bigint[]
}

/**
 * add_liquidity(amounts, 0) by a pool whose LP supply is `supply`. The first
 * deposit (supply 0) needs every coin and mints D1. A later one charges each
 * coin fee * N / (4 * (N - 1)) times its distance from D1 * old_balance / D0
 * (over FEE_DENOMINATOR) and mints supply * (D2 - D0) / D0, D2 the invariant
 * of the new balances less those fees.
 */
export const calcAddLiquidity = (pool: StableSwapParams, amounts: readonly bigint[], supply: bigint): StableDeposit => {
  checkPool(pool)
  const n = pool.balances.length
  if (amounts.length !== n) throw new RangeError(`${n} amounts expected`)
  amounts.forEach(checkAmount)
  const old = pool.balances
  const d0 = getD(stableXp(pool.rates, old), pool.amp)
  const balances = old.map((b, k) => {
    if (supply === 0n && amounts[k] === 0n) throw new AmmRevert("InitialDepositNeedsAllCoins", "add_liquidity")
    return add(b, amounts[k] as bigint)
  })
  const d1 = getD(stableXp(pool.rates, balances), pool.amp)
  if (d1 <= d0) throw new AmmRevert("InvariantNotIncreased", "add_liquidity")
  if (supply === 0n) return { mint: d1, fees: balances.map(() => 0n), invariant: d1, balances }
  const nn = BigInt(n)
  const baseFee = div(mul(pool.fee, nn), mul(4n, nn - 1n))
  const fees = balances.map((actual, k) => {
    const ideal = div(mul(d1, old[k] as bigint), d0)
    const difference = ideal > actual ? ideal - actual : actual - ideal
    return div(mul(baseFee, difference), STABLE_FEE_DENOMINATOR)
  })
  const d2 = getD(
    stableXp(
      pool.rates,
      balances.map((b, k) => sub(b, fees[k] as bigint)),
    ),
    pool.amp,
  )
  const mint = div(mul(supply, sub(d2, d0)), d0)
  return { mint, fees, invariant: d1, balances }
}
