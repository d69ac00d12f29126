// Our minimal Uniswap interfaces against the compiled artifacts: every event and
// function we use exists there with the same inputs, indexed flags and outputs;
// and Curve's factory interface against the devnet's stand-in factory.
import { describe, expect, test } from "bun:test"
import type { Abi, AbiEvent, AbiFunction } from "viem"
import { ownArtifact, uniswapArtifact, type UniswapContract } from "../../src/contracts/artifacts.ts"
import {
  STABLE_FACTORY_ABI,
  V2_FACTORY_ABI,
  V2_PAIR_ABI,
  V3_FACTORY_ABI,
  V3_POOL_ABI,
  V4_POOL_MANAGER_ABI,
  V4_STATE_VIEW_ABI,
} from "../../src/market/abis.ts"

const shape = (item: AbiEvent | AbiFunction) =>
  item.type === "event"
    ? { type: "event", name: item.name, inputs: item.inputs.map((i) => [i.type, i.indexed ?? false]) }
    : { type: "function", name: item.name, inputs: item.inputs.map((i) => i.type), outputs: item.outputs.map((o) => o.type) }

const cases: [string, Abi, UniswapContract][] = [
  ["V2 factory", V2_FACTORY_ABI, "UniswapV2Factory"],
  ["V2 pair", V2_PAIR_ABI, "UniswapV2Pair"],
  ["V3 factory", V3_FACTORY_ABI, "UniswapV3Factory"],
  ["V3 pool", V3_POOL_ABI, "UniswapV3Pool"],
  ["V4 PoolManager", V4_POOL_MANAGER_ABI, "PoolManager"],
  ["V4 StateView", V4_STATE_VIEW_ABI, "StateView"],
]

describe("minimal ABIs match Uniswap's artifacts", () => {
  for (const [label, ours, artifact] of cases) {
    test(label, () => {
      const theirs = uniswapArtifact(artifact).abi.filter((i): i is AbiEvent | AbiFunction => i.type === "event" || i.type === "function")
      for (const item of ours) {
        if (item.type !== "event" && item.type !== "function") continue
        const match = theirs.filter((t) => t.type === item.type && t.name === item.name).map(shape)
        expect(match).toContainEqual(shape(item))
      }
    })
  }
})

test("the stable factory's interface matches the devnet's StableSwapFactory", () => {
  const theirs = ownArtifact("StableSwapFactory").abi.filter((i): i is AbiEvent | AbiFunction => i.type === "event" || i.type === "function").map(shape)
  for (const item of STABLE_FACTORY_ABI) expect(theirs).toContainEqual(shape(item))
})
