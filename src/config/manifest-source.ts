// A devnet manifest as a source of settings: it gives, under the names of the
// variables they stand for, the chain's id and endpoint, the executor,
// Multicall3, the venues (DEXES), the reference price feeds (PRICE_FEEDS, by
// token address) and the external sources (AGGREGATORS). The variables always
// win; the manifest gives what they do not set.
import { ConfigProvider } from "effect"
import { variablesProvider } from "./values.ts"

/** What the settings read from a manifest (INTERFACE.md, "Devnet manifest"). */
export interface ManifestSource {
  /** the node's chain id */
  readonly chainId: number
  readonly rpcUrl: string
  readonly executor: string
  readonly multicall3: string
  readonly tokens: { readonly [symbol: string]: { readonly address: string } }
  /** venues by name: `{ kind?, factory, … }` */
  readonly dexes: { readonly [name: string]: object }
  /** feeds by token symbol */
  readonly priceFeeds: { readonly [symbol: string]: string }
  readonly aggregators: ReadonlyArray<object>
}

/** The manifest's settings as variables. */
export const manifestVariables = (manifest: ManifestSource): Record<string, string> => ({
  CHAIN_ID: String(manifest.chainId),
  RPC_URL: manifest.rpcUrl,
  EXECUTOR_ADDRESS: manifest.executor,
  MULTICALL3_ADDRESS: manifest.multicall3,
  DEXES: JSON.stringify(Object.entries(manifest.dexes).map(([name, venue]) => ({ name, ...venue }))),
  // a feed whose token the manifest does not list has no address to price
  PRICE_FEEDS: JSON.stringify(
    Object.fromEntries(
      Object.entries(manifest.priceFeeds).flatMap(([symbol, feed]) => {
        const token = manifest.tokens[symbol]
        return token === undefined ? [] : [[token.address, feed]]
      }),
    ),
  ),
  AGGREGATORS: JSON.stringify(manifest.aggregators),
})

/** The manifest alone, as a ConfigProvider. */
export const manifestProvider = (manifest: ManifestSource): ConfigProvider.ConfigProvider => variablesProvider(manifestVariables(manifest))

/**
 * The variables first, then the manifest for what they do not set. A variable
 * the manifest also gives counts as unset when it is blank.
 */
export const withManifest = (
  env: Readonly<Record<string, string | undefined>>,
  manifest: ManifestSource | undefined,
): ConfigProvider.ConfigProvider => {
  if (manifest === undefined) return variablesProvider(env)
  const given = manifestVariables(manifest)
  const set = Object.fromEntries(Object.entries(env).filter(([name, value]) => !(name in given && (value === undefined || value.trim() === ""))))
  return variablesProvider(set).pipe(ConfigProvider.orElse(() => manifestProvider(manifest)))
}
