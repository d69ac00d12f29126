// Preloaded before every test file: devnet-backed tests start nodes and deploy contracts.
import { setDefaultTimeout } from "bun:test"
import { checkApiAnswers } from "./openapi-check.ts"

setDefaultTimeout(60_000)

// every answer of the API a test receives must be one the OpenAPI document allows
checkApiAnswers()
