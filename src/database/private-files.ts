// The stores' files are for this user alone: a folder it creates is 0700,
// the database it creates 0600 (SQLite gives its -wal and -shm files the
// database's mode), and a secret it reads must be a regular file of this user
// that nobody else can read or write, so that a link or a loose mode planted
// beside the database is refused rather than trusted.
import { chmodSync, closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync } from "node:fs"
import { dirname } from "node:path"

/** Creates the folder that will hold `path` (and its parents) as 0700 when missing; an existing folder is left as it is. */
export const makePrivateFolderFor = (path: string): void => {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
}

/** Creates `path` empty with mode 0600 (whatever the umask) unless it exists; an existing file keeps its mode. */
export const createPrivateFile = (path: string): void => {
  let fd: number
  try {
    fd = openSync(path, "wx", 0o600)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return
    throw e
  }
  closeSync(fd)
  chmodSync(path, 0o600)
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8).padStart(3, "0")}`

/**
 * Reads a secret file without following a link; it must be a regular file owned by
 * this process's user, readable and writable by nobody else. `what` names it in the error.
 */
export const readPrivateFile = (path: string, what: string): string => {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ELOOP") throw new Error(`${what} ${path} is a symbolic link: it must be a regular file (mode 0600)`)
    throw e
  }
  try {
    const stat = fstatSync(fd)
    if (!stat.isFile()) throw new Error(`${what} ${path} is not a regular file: it must be a regular file (mode 0600)`)
    const uid = process.getuid?.()
    if (uid !== undefined && stat.uid !== uid) throw new Error(`${what} ${path} belongs to user ${stat.uid}, not to this process's user ${uid}`)
    if ((stat.mode & 0o077) !== 0) throw new Error(`${what} ${path} has mode ${octal(stat.mode)}: other users may read or change it (chmod 600 it, or replace it)`)
    return readFileSync(fd, "utf8")
  } finally {
    closeSync(fd)
  }
}
