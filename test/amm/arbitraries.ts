// fast-check generators of concentrated-liquidity pool snapshots for the AMM tests.
import fc from "fast-check"
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "../../src/amm/tick-math.ts"
import type { ConcentratedPool } from "../../src/amm/v3.ts"
import { buildPool, getMaxTick, getMinTick, type Position } from "./v3-pools.ts"

const FEE_TIERS: ReadonlyArray<readonly [number, number]> = [
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
]

/**
 * A pool with a few positions around the price (some adjoining, so that ticks
 * with liquidityNet 0 occur), sometimes a full-range one, and a price that is
 * usually not on a tick.
 */
export const arbPool = (opts: { fee?: fc.Arbitrary<number> } = {}): fc.Arbitrary<ConcentratedPool> =>
  fc
    .record({
      tier: fc.constantFrom(...FEE_TIERS),
      fee: opts.fee ?? fc.constant(-1),
      priceTick: fc.integer({ min: -200_000, max: 200_000 }),
      priceOffset: fc.bigInt({ min: 0n, max: 1n << 64n }),
      // positions as (lower offset, width) in units of tick spacing, relative to the price
      positions: fc.array(
        fc.record({
          lower: fc.integer({ min: -1200, max: 1200 }),
          width: fc.integer({ min: 1, max: 900 }),
          liquidity: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 24n }), fc.bigInt({ min: 10n ** 15n, max: 10n ** 21n })),
          chained: fc.boolean(),
        }),
        { minLength: 1, maxLength: 6 },
      ),
      fullRange: fc.option(fc.bigInt({ min: 10n ** 12n, max: 10n ** 22n }), { nil: undefined }),
    })
    .map(({ tier, fee, priceTick, priceOffset, positions, fullRange }) => {
      const [tierFee, spacing] = tier
      const base = Math.floor(priceTick / spacing) * spacing
      const list: Position[] = []
      let prevUpper: number | undefined
      let prevL = 0n
      for (const p of positions) {
        // a chained position starts where the previous one ended, with the same liquidity: net 0 there
        const lower = p.chained && prevUpper !== undefined ? prevUpper : base + p.lower * spacing
        const liquidity = p.chained && prevUpper !== undefined ? prevL : p.liquidity
        const upper = Math.min(lower + p.width * spacing, getMaxTick(spacing))
        if (lower < getMinTick(spacing) || lower >= upper) continue
        list.push({ tickLower: lower, tickUpper: upper, liquidity })
        prevUpper = upper
        prevL = liquidity
      }
      if (fullRange !== undefined) list.push({ tickLower: getMinTick(spacing), tickUpper: getMaxTick(spacing), liquidity: fullRange })
      const t = Math.max(MIN_TICK, Math.min(MAX_TICK - 1, priceTick))
      const lo = getSqrtRatioAtTick(t)
      const hi = getSqrtRatioAtTick(t + 1)
      const price = lo + (priceOffset % (hi - lo))
      return buildPool(fee >= 0 ? fee : tierFee, spacing, price, list)
    })

export const arbAmount = fc.oneof(
  fc.bigInt({ min: 1n, max: 10n ** 6n }),
  fc.bigInt({ min: 1n, max: 10n ** 18n }),
  fc.bigInt({ min: 10n ** 15n, max: 10n ** 24n }),
)
