// The external sources a deployment configures (AGGREGATORS), each behind the
// client for its API shape.
import type { AggregatorConfig, ExternalContext, ExternalSource } from "./external.ts"
import { kyberSwapSource } from "./kyberswap.ts"
import { zeroExSource } from "./zeroex.ts"

/** One source per entry, in the order given (entries are checked when the configuration is read). */
export const externalSources = (configs: readonly AggregatorConfig[], context: ExternalContext): ExternalSource[] =>
  configs.map((config) => {
    switch (config.kind) {
      case "0x-v2":
        return zeroExSource(config, context)
      case "kyberswap":
        return kyberSwapSource(config, context)
      default:
        throw new Error(`aggregator ${config.name}: unknown kind ${config.kind}`)
    }
  })
