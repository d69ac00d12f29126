// Preloaded before every test file: devnet-backed tests start nodes and deploy contracts.
import { setDefaultTimeout } from "bun:test"

setDefaultTimeout(60_000)
