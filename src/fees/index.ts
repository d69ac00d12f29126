// Fee math: the spec's formulas on bigints.
export { BPS, bpsOf, grossForNet, maxAmountIn, minAmountOut, splitFees, type FeeRates, type FeeSplit } from "./fees.ts"
