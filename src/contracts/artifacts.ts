// Compiled contracts: the project's own (contracts/out) and Uniswap's, read
// from the artifacts their npm packages ship.
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import type { Abi, Hex } from "viem"
import { OUT_DIR } from "./paths.ts"

export interface ContractArtifact {
  readonly abi: Abi
  readonly bytecode: Hex
  readonly deployedBytecode: Hex
}

const NODE_MODULES = resolve(import.meta.dir, "../../node_modules")
const cache = new Map<string, ContractArtifact>()

const hex = (value: unknown): Hex => {
  // v2-core and some foundry outputs store bytecode without 0x, foundry nests it in { object }
  const raw = typeof value === "object" && value !== null && "object" in value ? (value as { object: string }).object : String(value)
  return (raw.startsWith("0x") ? raw : `0x${raw}`) as Hex
}

const load = (file: string): ContractArtifact => {
  const hit = cache.get(file)
  if (hit) return hit
  const json = JSON.parse(readFileSync(file, "utf8"))
  const artifact: ContractArtifact = {
    abi: json.abi,
    bytecode: hex(json.bytecode ?? json.evm?.bytecode),
    deployedBytecode: hex(json.deployedBytecode ?? json.evm?.deployedBytecode),
  }
  cache.set(file, artifact)
  return artifact
}

/** One of our own contracts, compiled by `bun run contracts:build`. */
export const ownArtifact = (name: string): ContractArtifact => load(join(OUT_DIR, `${name}.json`))

/** Where each Uniswap contract's compiled artifact lives in its npm package. */
export const UNISWAP_ARTIFACTS = {
  UniswapV2Factory: "@uniswap/v2-core/build/UniswapV2Factory.json",
  UniswapV2Pair: "@uniswap/v2-core/build/UniswapV2Pair.json",
  UniswapV3Factory: "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json",
  UniswapV3Pool: "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json",
  QuoterV2: "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json",
  SwapRouter: "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json",
  PoolManager: "@uniswap/v4-core/out/PoolManager.sol/PoolManager.json",
  V4Quoter: "@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json",
  StateView: "@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json",
} as const

export type UniswapContract = keyof typeof UNISWAP_ARTIFACTS

export const uniswapArtifact = (name: UniswapContract): ContractArtifact =>
  load(join(NODE_MODULES, UNISWAP_ARTIFACTS[name]))
