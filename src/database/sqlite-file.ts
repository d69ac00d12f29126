// The embedded database as a file of this user's alone: its folder created 0700
// and the file 0600 when missing (SQLite gives the -wal and -shm files the
// database's mode), in WAL mode so readers never wait on a writer, waiting up to
// five seconds for another process's write lock.
import { SqlError } from "@effect/sql/SqlError"
import { Effect, Schedule, type Scope } from "effect"
import { createPrivateFile, makePrivateFolderFor } from "./private-files.ts"
import { makeSqliteDatabase } from "./sqlite-client.ts"
import type { SqlDatabase } from "./sql-database.ts"

const BUSY_TIMEOUT = "PRAGMA busy_timeout = 5000"

/**
 * Another process holding the lock a new file's switch to WAL needs: SQLite answers SQLITE_BUSY at
 * once there, without waiting out busy_timeout (two servers starting on one new file), so the
 * open is tried again, for as long as busy_timeout would have waited.
 */
const lockedByAnother = (e: SqlError): boolean => {
  const cause = e.cause as { readonly code?: unknown; readonly errno?: unknown } | undefined
  return cause?.code === "SQLITE_BUSY" || cause?.errno === 5
}
const OPEN_RETRIES = Schedule.intersect(Schedule.spaced("25 millis"), Schedule.recurs(200))

/** The SQLite file at `path` (created private when missing); `pragmas` run after WAL is on. */
export const openSqliteFile = (path: string, pragmas: ReadonlyArray<string> = []): Effect.Effect<SqlDatabase, SqlError, Scope.Scope> =>
  Effect.zipRight(
    Effect.try({
      try: () => {
        makePrivateFolderFor(path)
        createPrivateFile(path)
      },
      catch: (cause) => new SqlError({ cause, message: cause instanceof Error ? cause.message : String(cause) }),
    }),
    makeSqliteDatabase({ path, pragmas: [BUSY_TIMEOUT, "PRAGMA journal_mode = WAL", ...pragmas] }).pipe(
      Effect.retry({ schedule: OPEN_RETRIES, while: lockedByAnother }),
    ),
  )

/** A SQLite database in memory, gone when the scope closes. */
export const openSqliteMemory: Effect.Effect<SqlDatabase, SqlError, Scope.Scope> = makeSqliteDatabase({ path: ":memory:", pragmas: [BUSY_TIMEOUT] })
