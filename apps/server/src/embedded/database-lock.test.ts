import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { claimDatabaseLock, type DatabaseHolder, databaseLockFile } from './database-lock.js'

const dirs: string[] = []
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-lock-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const lockOf = (dir: string) => JSON.parse(readFileSync(databaseLockFile(dir), 'utf8')) as DatabaseHolder
/** The id of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!

describe('the embedded database lock', () => {
  it('is held by one process at a time, names its holder, and is gone once released', async () => {
    const dir = dataDir()
    const first = await claimDatabaseLock(dir, 'serve')
    if (!first.taken) throw new Error('the first claim must take the lock')
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, command: 'serve', url: null, operatorSocket: null })
    expect(statSync(databaseLockFile(dir)).mode & 0o777).toBe(0o600)

    first.lock.update({ url: 'http://127.0.0.1:8080', operatorSocket: join(dir, 'operator.sock') })
    const second = await claimDatabaseLock(dir, 'user add')
    expect(second).toMatchObject({
      taken: false,
      holder: {
        pid: process.pid,
        command: 'serve',
        url: 'http://127.0.0.1:8080',
        operatorSocket: join(dir, 'operator.sock'),
      },
    })

    first.lock.release()
    expect(existsSync(databaseLockFile(dir))).toBe(false)
    const third = await claimDatabaseLock(dir, 'user add')
    expect(third.taken).toBe(true)
    if (third.taken) third.lock.release()
  })

  it('takes over the lock of a process that is gone', async () => {
    const dir = dataDir()
    const gone = deadPid()
    const stale: DatabaseHolder = { pid: gone, command: 'serve', url: 'http://x', operatorSocket: null, since: 'then' }
    writeFileSync(databaseLockFile(dir), JSON.stringify(stale))
    const claim = await claimDatabaseLock(dir, 'fsck')
    expect(claim.taken).toBe(true)
    expect(lockOf(dir)).toMatchObject({ pid: process.pid, command: 'fsck' })
    if (claim.taken) claim.lock.release()
  })

  it("takes over a lock naming this process's pid that it does not hold: a former life's, as pid 1 after a container restart", async () => {
    const dir = dataDir()
    const former: DatabaseHolder = {
      pid: process.pid,
      command: 'serve',
      url: null,
      operatorSocket: join(dir, 'operator.sock'),
      since: 'before the restart',
    }
    writeFileSync(databaseLockFile(dir), JSON.stringify(former))
    const claim = await claimDatabaseLock(dir, 'serve')
    expect(claim.taken).toBe(true)
    if (claim.taken) claim.lock.release()
  })

  it('is held by a server whose pid this process cannot see while its operator socket answers (another container)', async () => {
    const dir = dataDir()
    const socket = join(dir, 'operator.sock')
    const listening = createServer((connection) => connection.destroy())
    await new Promise<void>((resolve) => listening.listen(socket, resolve))
    try {
      const elsewhere: DatabaseHolder = {
        pid: deadPid(),
        command: 'serve',
        url: null,
        operatorSocket: socket,
        since: 'now',
      }
      writeFileSync(databaseLockFile(dir), JSON.stringify(elsewhere))
      expect(await claimDatabaseLock(dir, 'user add')).toMatchObject({ taken: false, holder: elsewhere })
    } finally {
      await new Promise((resolve) => listening.close(resolve))
    }
    // Once nothing answers there, the lock is a dead one's.
    const claim = await claimDatabaseLock(dir, 'user add')
    expect(claim.taken).toBe(true)
    if (claim.taken) claim.lock.release()
  })

  it('never removes a lock that is no longer its own', async () => {
    const dir = dataDir()
    const claim = await claimDatabaseLock(dir, 'serve')
    if (!claim.taken) throw new Error('the claim must take the lock')
    const other: DatabaseHolder = { pid: 1, command: 'serve', url: null, operatorSocket: null, since: 'later' }
    writeFileSync(databaseLockFile(dir), JSON.stringify(other))
    claim.lock.release()
    expect(lockOf(dir)).toEqual(other)
  })

  it('lets exactly one of several processes take over the same stale lock', async () => {
    const dir = dataDir()
    writeFileSync(
      databaseLockFile(dir),
      JSON.stringify({ pid: deadPid(), command: 'serve', url: null, operatorSocket: null, since: 'then' }),
    )
    const child = fileURLToPath(new URL('../../test/claim-lock-child.ts', import.meta.url))
    const at = Date.now() + 8000
    const children = Array.from({ length: 5 }, () =>
      spawn(process.execPath, ['--conditions=source', '--no-deprecation', '--import', 'tsx', child, dir, String(at)]),
    )
    // Each keeps what it got until every one has answered: the winner stays alive while the others look.
    const outputs = await Promise.all(
      children.map(
        (claimant) =>
          new Promise<string>((resolve) => {
            let out = ''
            claimant.stdout.on('data', (chunk) => {
              out += chunk
              if (out.endsWith('\n')) resolve(out.trim())
            })
            claimant.once('exit', () => resolve(out.trim()))
          }),
      ),
    )
    for (const claimant of children) claimant.stdin.end()
    expect(outputs.filter((line) => line === 'taken')).toHaveLength(1)
    expect(outputs.filter((line) => line.startsWith('held by '))).toHaveLength(4)
  }, 60_000)
})
