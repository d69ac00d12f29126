// The external sources a deployment configures (AGGREGATORS), each behind the
// client for its API shape.
import { Either } from "effect"
import { AGGREGATOR_KINDS, type AggregatorConfig, type ExternalContext, type ExternalSource } from "./external.ts"
import { kyberSwapSource } from "./kyberswap.ts"
import { OWN_ROUTER } from "../pricer/index.ts"
import { zeroExSource } from "./zeroex.ts"

/** Checks one AGGREGATORS entry; the message names what is wrong. */
export const checkAggregatorConfig = (config: AggregatorConfig): Either.Either<AggregatorConfig, string> => {
  const problems: string[] = []
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(config.name)) problems.push(`name "${config.name}" must be 1-40 letters, digits, . _ -`)
  if (config.name === OWN_ROUTER) problems.push(`name "${OWN_ROUTER}" is the own router's`)
  if (!(AGGREGATOR_KINDS as readonly string[]).includes(config.kind)) problems.push(`kind "${config.kind}" is not one of ${AGGREGATOR_KINDS.join(", ")}`)
  if (!/^https?:\/\/[^\s]+$/.test(config.url)) problems.push(`url "${config.url}" is not an http(s) URL`)
  const int = (field: "timeoutMs" | "failureThreshold" | "cooldownMs", min: number, max: number) => {
    const value = config[field]
    if (value !== undefined && (!Number.isInteger(value) || value < min || value > max)) problems.push(`${field} must be an integer from ${min} to ${max}`)
  }
  int("timeoutMs", 10, 60_000)
  int("failureThreshold", 1, 1_000)
  int("cooldownMs", 0, 3_600_000)
  return problems.length === 0 ? Either.right(config) : Either.left(`aggregator ${config.name}: ${problems.join("; ")}`)
}

/** One source per entry, in the order given; entries are checked with checkAggregatorConfig first. */
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
