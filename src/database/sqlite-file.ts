// The embedded database as a file of this user's alone: its folder created 0700
// and the file 0600 when missing (SQLite gives the -wal and -shm files the
// database's mode), in WAL mode so readers never wait on a writer, waiting up to
// five seconds for another process's write lock.
import { SqlError } from "@effect/sql/SqlError"
import { Effect, type Scope } from "effect"
import { createPrivateFile, makePrivateFolderFor } from "./private-files.ts"
import { makeSqliteDatabase } from "./sqlite-client.ts"
import type { SqlDatabase } from "./sql-database.ts"

const BUSY_TIMEOUT = "PRAGMA busy_timeout = 5000"

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
    makeSqliteDatabase({ path, pragmas: [BUSY_TIMEOUT, "PRAGMA journal_mode = WAL", ...pragmas] }),
  )

/** A SQLite database in memory, gone when the scope closes. */
export const openSqliteMemory: Effect.Effect<SqlDatabase, SqlError, Scope.Scope> = makeSqliteDatabase({ path: ":memory:", pragmas: [BUSY_TIMEOUT] })
