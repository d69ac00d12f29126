// Arc's chains by id: mainnet and testnet. The service serves one of them
// (CHAIN_ID, the node's); the devnet starts as either.
export const ARC_CHAIN_ID = 5042
export const ARC_TESTNET_CHAIN_ID = 5042002

export const ARC_CHAIN_IDS = [ARC_CHAIN_ID, ARC_TESTNET_CHAIN_ID] as const
export type ArcChainId = (typeof ARC_CHAIN_IDS)[number]

export const isArcChainId = (u: unknown): u is ArcChainId => u === ARC_CHAIN_ID || u === ARC_TESTNET_CHAIN_ID

/** The chain's name: "Arc" or "Arc testnet". */
export const arcChainName = (id: ArcChainId): string => (id === ARC_TESTNET_CHAIN_ID ? "Arc testnet" : "Arc")

/** "5042 (Arc)", "5042002 (Arc testnet)": a chain as messages name it. */
export const describeArcChain = (id: ArcChainId): string => `${id} (${arcChainName(id)})`

/** "5042 (Arc) or 5042002 (Arc testnet)" */
export const ARC_CHAINS_TEXT = ARC_CHAIN_IDS.map(describeArcChain).join(" or ")
