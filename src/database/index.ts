// The SQL database every store keeps its rows in, as one @effect/sql SqlClient:
// an embedded SQLite file (bun:sqlite) by default, a Postgres pool when
// configured; schema migrations through @effect/sql's Migrator; and the
// private-file rules for what is kept on disk.
export { migrate, MigrationFailed, type Migrations } from "./migrate.ts"
export { Database, type DatabasePlace } from "./database-layer.ts"
export { openPostgres } from "./postgres-client.ts"
export { createPrivateFile, makePrivateFolderFor, readPrivateFile } from "./private-files.ts"
export { makeSqliteDatabase, type SqliteOptions } from "./sqlite-client.ts"
export { overClient, type FirstRow, type Prepared, type SqlDatabase } from "./sql-database.ts"
export { openSqliteFile, openSqliteMemory } from "./sqlite-file.ts"
