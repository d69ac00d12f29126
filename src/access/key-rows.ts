// The rows every key-store backend reads and writes, and the errors they share.
import { Data, type Effect } from "effect"
import { hashKey } from "./key-format.ts"

/** The database cannot be opened or read, or its secret does not match. */
export class KeyStoreError extends Data.TaggedError("KeyStoreError")<{ readonly message: string }> {}

/** One stored key, as every backend reads and writes it. */
export interface KeyRow {
  readonly id: string
  readonly name: string
  readonly hash: Uint8Array
  readonly rpm: number
  readonly concurrency: number
  /** ms since the epoch */
  readonly createdAt: number
  readonly revokedAt: number | null
}

/** What a backend gives the store: rows by id, all rows, insert, revoke, a liveness check. */
export interface KeyRows {
  readonly kind: "sqlite" | "memory" | "postgres"
  /** the HMAC secret, already checked against the one the stored keys were made with */
  readonly secret: string
  readonly byId: (id: string) => Effect.Effect<KeyRow | undefined, KeyStoreError>
  /** every row, oldest first */
  readonly all: Effect.Effect<ReadonlyArray<KeyRow>, KeyStoreError>
  readonly insert: (row: KeyRow) => Effect.Effect<void, KeyStoreError>
  /** sets revokedAt on an unrevoked row; answers the row as it is afterwards */
  readonly revoke: (id: string, at: number) => Effect.Effect<KeyRow | undefined, KeyStoreError>
  readonly ping: Effect.Effect<void, KeyStoreError>
}

/** The meta row that records which secret the stored keys were made with. */
export const SECRET_CHECK = "secret_check"
/** The value of the SECRET_CHECK row for a secret. */
export const secretCheck = (secret: string): string => hashKey(secret, "key store secret check").toString("hex")

export const storeError = (what: string) => (e: unknown) =>
  new KeyStoreError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })

