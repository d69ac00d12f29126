// The machine's Redis (127.0.0.1:6379) and PostgreSQL (127.0.0.1:5432, trust
// auth, database `test`) for the tests that share limits and keys. Each is
// started with the machine's own commands when it is installed but not running
// (as .ci/run does); when it cannot be had, the test fails with a message saying
// so, quickly, instead of hanging. Every test run works in its own Postgres
// schema and under its own Redis key prefix, and removes them afterwards.
import { RedisClient, SQL } from "bun"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readdirSync } from "node:fs"

export const REDIS_URL = "redis://127.0.0.1:6379"
export const POSTGRES_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/test"
/** 32+ characters: the secret every instance and CLI of a test shares */
export const TEST_KEY_HASH_SECRET = "test-key-hash-secret-0123456789abcdef"

const run = async (argv: string[]) => {
  const proc = Bun.spawn(argv, { stdout: "pipe", stderr: "pipe" })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, text: `${out}${err}`.trim() }
}

const redisAnswers = async (): Promise<boolean> => {
  const client = new RedisClient(REDIS_URL, { connectionTimeout: 500, autoReconnect: false, enableOfflineQueue: false })
  try {
    await Promise.race([client.connect().then(() => client.send("PING", [])), Bun.sleep(1_000).then(() => Promise.reject(new Error("timeout")))])
    return true
  } catch {
    return false
  } finally {
    client.close()
  }
}

const postgresAnswers = async (url = POSTGRES_ADMIN_URL): Promise<boolean> => {
  const sql = new SQL(url, { max: 1, connectionTimeout: 1, idleTimeout: 1 })
  try {
    await Promise.race([sql`SELECT 1`, Bun.sleep(2_000).then(() => Promise.reject(new Error("timeout")))])
    return true
  } catch {
    return false
  } finally {
    await sql.close({ timeout: 0 }).catch(() => {})
  }
}

const waitFor = async (check: () => Promise<boolean>, ms: number) => {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (await check()) return true
    await Bun.sleep(100)
  }
  return false
}

let redisReady: Promise<void> | undefined
/** Redis on 127.0.0.1:6379, started when installed and not running. */
export const ensureRedis = (): Promise<void> =>
  (redisReady ??= (async () => {
    if (await redisAnswers()) return
    if (!Bun.which("redis-server")) throw new Error(`Redis does not answer at ${REDIS_URL} and redis-server is not installed`)
    for (const dir of ["/var/lib/redis", "/var/log/redis"]) {
      try {
        mkdirSync(dir, { recursive: true })
      } catch {
        // the start below says what is wrong
      }
    }
    const started = await run([
      "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", "6379",
      "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis", "--logfile", "/var/log/redis/ci.log",
    ])
    if (!(await waitFor(redisAnswers, 5_000))) throw new Error(`Redis does not answer at ${REDIS_URL} after starting it: ${started.text}`)
  })())

let postgresReady: Promise<void> | undefined
/** PostgreSQL on 127.0.0.1:5432 with the database `test`, started when installed and not running. */
export const ensurePostgres = (): Promise<void> =>
  (postgresReady ??= (async () => {
    if (!(await postgresAnswers("postgres://postgres@127.0.0.1:5432/postgres"))) {
      const versions = existsSync("/etc/postgresql") ? readdirSync("/etc/postgresql") : []
      if (!Bun.which("pg_ctlcluster") || versions.length === 0) {
        throw new Error("PostgreSQL does not answer at 127.0.0.1:5432 and no cluster is installed (pg_ctlcluster, /etc/postgresql)")
      }
      const started = await run(["pg_ctlcluster", "--skip-systemctl-redirect", versions[0]!, "main", "start"])
      if (!(await waitFor(() => postgresAnswers("postgres://postgres@127.0.0.1:5432/postgres"), 10_000))) {
        throw new Error(`PostgreSQL does not answer at 127.0.0.1:5432 after starting it: ${started.text}`)
      }
    }
    if (!(await postgresAnswers())) {
      const admin = new SQL("postgres://postgres@127.0.0.1:5432/postgres", { max: 1 })
      try {
        await admin.unsafe("CREATE DATABASE test")
      } catch (e) {
        // another run created it meanwhile
        if (!String((e as Error).message).includes("already exists")) throw e
      } finally {
        await admin.close({ timeout: 0 })
      }
    }
  })())

/** A fresh schema in `test`; its DATABASE_URL (search_path set to it) and a drop for afterwards. */
export const freshSchema = async () => {
  await ensurePostgres()
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`
  const admin = new SQL(POSTGRES_ADMIN_URL, { max: 1 })
  await admin.unsafe(`CREATE SCHEMA ${name}`)
  return {
    name,
    databaseUrl: `${POSTGRES_ADMIN_URL}?options=${encodeURIComponent(`-c search_path=${name}`)}`,
    admin,
    drop: async () => {
      try {
        await admin.unsafe(`DROP SCHEMA IF EXISTS ${name} CASCADE`)
      } finally {
        await admin.close({ timeout: 0 })
      }
    },
  }
}

/** A fresh Redis key prefix, a client for inspecting it, and a cleanup that deletes every key under it. */
export const freshPrefix = async () => {
  await ensureRedis()
  const prefix = `test:${Date.now().toString(36)}:${randomBytes(4).toString("hex")}:`
  const client = new RedisClient(REDIS_URL)
  await client.connect()
  return {
    prefix,
    client,
    cleanup: async () => {
      try {
        let cursor = "0"
        do {
          const [next, keys] = (await client.send("SCAN", [cursor, "MATCH", `${prefix}*`, "COUNT", "1000"])) as [string, string[]]
          cursor = next
          if (keys.length > 0) await client.send("DEL", keys)
        } while (cursor !== "0")
      } finally {
        client.close()
      }
    },
  }
}

/** A local TCP port nothing listens on. */
export const closedPort = (): number => {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } })
  const port = server.port
  server.stop(true)
  return port
}

/** A TCP server that accepts connections and never answers (a hung Redis). */
export const blackHole = () => {
  const sockets = new Set<{ end: () => void }>()
  const server = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open: (socket) => void sockets.add(socket),
      data() {},
      close: (socket) => void sockets.delete(socket),
    },
  })
  return {
    port: server.port,
    stop: () => {
      for (const s of sockets) s.end()
      server.stop(true)
    },
  }
}
