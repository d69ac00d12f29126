// What makes one executor call's least gas limit like another's over the gas
// it uses (and its gas used like another's over the gas model's figure): its
// entry, how the input is paid, whether the output is native, whether a permit
// or an order's signature is checked, and the route's hop kinds. The simulator
// keeps what each shape needed last (src/chain/simulator.ts).
import type { ExecutorRoute } from "../domain/index.ts"
import type { InputKind } from "./sender-issues.ts"

export const gasShape = (call: {
  readonly entry: "exactInput" | "exactOutput" | "order" | "orderExactOutput"
  readonly input: InputKind
  readonly nativeOut: boolean
  readonly permit: boolean
  readonly route: ExecutorRoute
}): string =>
  [
    call.entry,
    call.input,
    call.nativeOut ? "native" : "erc20",
    call.permit ? "permit" : "",
    // splits in any order: they run one after the other, so the order barely moves the ratio
    call.route.map((split) => split.hops.map((hop) => hop.kind).join(">")).sort().join("|"),
  ].join(":")
