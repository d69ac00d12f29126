// The contracts room's door: compiling the project's Solidity and loading its
// and Uniswap's compiled artifacts.
export { ownArtifact, uniswapArtifact, UNISWAP_ARTIFACTS, type ContractArtifact, type UniswapContract } from "./artifacts.ts"
export { compileAll, CompileError, OPTIMIZER_RUNS_BY_CONTRACT, serializeArtifact, SOLC_SETTINGS, type Artifact } from "./compile.ts"
export { CONTRACTS_DIR, OUT_DIR, SOURCE_DIR } from "./paths.ts"
