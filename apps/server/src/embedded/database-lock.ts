import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { createConnection } from 'node:net'
import { join } from 'node:path'

/**
 * Who holds an embedded database. PGlite is one process's database: a second process opening the same
 * folder works on its own copy, and whichever closes last overwrites the other's changes. So whatever opens
 * it (a server, a command) first takes `<MAILROOM_DATA_DIR>/mailroom.lock`.
 */
export interface DatabaseHolder {
  readonly pid: number
  /** The command holding it: `serve`, `user add`, `import maarch`, … */
  readonly command: string
  /** The server's address once it listens (null for a command, or a server still starting). */
  readonly url: string | null
  /** The server's operator socket once it listens: commands send their changes there. */
  readonly operatorSocket: string | null
  /** When it was taken (ISO 8601); with the pid, tells one holding from the next. */
  readonly since: string
}

/** A lock this process holds. */
export interface HeldDatabaseLock {
  readonly file: string
  readonly holder: DatabaseHolder
  /** Publishes the server's address and operator socket to the commands that find the lock. */
  update(details: Pick<DatabaseHolder, 'url' | 'operatorSocket'>): void
  /** Removes the lock if it is still this process's; safe to call twice. */
  release(): void
}

/** What asking for the lock gave: it, or who has it. */
export type DatabaseLockClaim =
  | { readonly taken: true; readonly lock: HeldDatabaseLock }
  | { readonly taken: false; readonly holder: DatabaseHolder; readonly file: string }

/** The lock file of a data directory. */
export function databaseLockFile(dataDir: string): string {
  return join(dataDir, 'mailroom.lock')
}

/** True while a process of that id exists (one of another user counts: it exists, we may not signal it). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

function readHolder(file: string): DatabaseHolder | null {
  // Linked or renamed into place, a lock is whole; created by createExclusive it may be read in between.
  for (let attempt = 0; ; attempt++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as DatabaseHolder
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      if (attempt === 20) return { pid: 0, command: 'unknown', url: null, operatorSocket: null, since: '' }
      pause(25)
    }
  }
}

/**
 * Puts `written` (a whole lock) in place as `file` unless one is there (EEXIST). A hard link does it in one
 * step; on a filesystem without hard links, an exclusive create and a write (readers wait for the content).
 */
function createExclusive(written: string, file: string): void {
  try {
    linkSync(written, file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw error
    writeFileSync(file, readFileSync(written), { mode: 0o600, flag: 'wx' })
  }
}

const sameHolding = (a: DatabaseHolder, b: DatabaseHolder) => a.pid === b.pid && a.since === b.since

/** The lock files this process holds: a lock naming this process's pid but not listed is a former life's. */
const heldHere = new Set<string>()

/** True when something listens on the socket (a server in another pid namespace, such as another container). */
function socketAnswers(socket: string | null): Promise<boolean> {
  if (socket === null) return Promise.resolve(false)
  return new Promise((resolve) => {
    const probe = createConnection(socket)
    probe.setTimeout(2000)
    probe.once('connect', () => {
      probe.destroy()
      resolve(true)
    })
    probe.once('error', () => resolve(false))
    probe.once('timeout', () => {
      probe.destroy()
      resolve(false)
    })
  })
}

/**
 * Whether the holder still runs. Its pid alone can mislead: a server restarted in a container is pid 1 again,
 * and one in another container has a pid this one cannot see; a server's operator socket that answers
 * settles it.
 */
async function holderAlive(file: string, holder: DatabaseHolder): Promise<boolean> {
  if (holder.pid === process.pid ? heldHere.has(file) : holder.pid > 0 && processAlive(holder.pid)) return true
  return socketAnswers(holder.operatorSocket)
}

/** Writes `holder` to a file of its own beside `file`, owner-only, and returns its name. */
function writeBeside(file: string, holder: DatabaseHolder): string {
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`
  writeFileSync(temporary, `${JSON.stringify(holder)}\n`, { mode: 0o600, flag: 'wx' })
  return temporary
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // Already gone.
  }
}

/**
 * Moves a dead holder's lock aside, atomically: only one of several processes taking over the same stale
 * lock moves it. If what was moved turns out to be a newer lock (another taker got in between), it is put
 * back. Returns nothing: the caller just tries again.
 */
function setAsideStale(file: string, stale: DatabaseHolder): void {
  const aside = `${file}.stale.${process.pid}.${randomBytes(6).toString('hex')}`
  try {
    renameSync(file, aside)
  } catch {
    return
  }
  const moved = readHolder(aside)
  if (moved && !sameHolding(moved, stale)) {
    try {
      createExclusive(aside, file)
    } catch {
      // A lock is there again: the newer one stays, and ours will be refused by it.
    }
  }
  removeQuietly(aside)
}

/**
 * Takes the embedded database's lock for this process, or says who holds it. Taking is atomic (the whole
 * lock is linked into place, which fails if one exists); a lock whose process is gone (see holderAlive) is
 * taken over. The lock
 * is removed on release and when the process exits; after a kill -9 the next taker finds its pid dead.
 */
export async function claimDatabaseLock(dataDir: string, command: string): Promise<DatabaseLockClaim> {
  mkdirSync(dataDir, { recursive: true })
  const file = databaseLockFile(dataDir)
  let holder: DatabaseHolder = {
    pid: process.pid,
    command,
    url: null,
    operatorSocket: null,
    since: new Date().toISOString(),
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const mine = writeBeside(file, holder)
    try {
      createExclusive(mine, file)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const current = readHolder(file)
      if (current === null) continue
      if (await holderAlive(file, current)) return { taken: false, holder: current, file }
      setAsideStale(file, current)
      continue
    } finally {
      removeQuietly(mine)
    }
    let held = true
    heldHere.add(file)
    const release = () => {
      if (!held) return
      held = false
      heldHere.delete(file)
      process.removeListener('exit', release)
      const current = readHolder(file)
      if (current && sameHolding(current, holder)) removeQuietly(file)
    }
    process.on('exit', release)
    return {
      taken: true,
      lock: {
        file,
        get holder() {
          return holder
        },
        update(details) {
          if (!held) return
          holder = { ...holder, ...details }
          // Replaced whole by a rename: a reader sees the old lock or the new one, never half of one.
          renameSync(writeBeside(file, holder), file)
        },
        release,
      },
    }
  }
  const current = readHolder(file)
  if (current) return { taken: false, holder: current, file }
  throw new Error(`could not take ${file}: it keeps changing`)
}

/** "mailroom serve (pid 1234, http://127.0.0.1:8080)": the holder as messages name it. */
export function describeHolder(holder: DatabaseHolder): string {
  const where = holder.url ? `, ${holder.url}` : ''
  return `\`mailroom ${holder.command}\` (pid ${holder.pid}${where})`
}
