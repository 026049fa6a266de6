import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FolderSyncs, syncDirectory } from './folder-syncs.js'

/** A fake fsync the test finishes by hand: records when each one starts and lets the test settle it. */
class ManualSyncs {
  readonly started: { directory: string; at: number; finish: (error?: Error) => void }[] = []
  clock = 0

  readonly sync = (directory: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      this.started.push({ directory, at: this.clock++, finish: (error) => (error ? reject(error) : resolve()) })
    })
}

/** Lets queued promise callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('FolderSyncs', () => {
  it('starts an fsync for a lone request and resolves with it', async () => {
    const fake = new ManualSyncs()
    const syncs = new FolderSyncs(fake.sync)
    let done = false
    const request = syncs.sync('/a').then(() => (done = true))
    expect(fake.started.map((s) => s.directory)).toEqual(['/a'])
    await settle()
    expect(done).toBe(false)
    fake.started[0]?.finish()
    await request
    expect(done).toBe(true)
  })

  it('makes requests arriving during an fsync wait for one shared next fsync, not the running one', async () => {
    const fake = new ManualSyncs()
    const syncs = new FolderSyncs(fake.sync)
    const first = syncs.sync('/a')
    const late = [syncs.sync('/a'), syncs.sync('/a'), syncs.sync('/a')]
    const resolved: number[] = []
    late.forEach((p, i) => void p.then(() => resolved.push(i)))
    expect(fake.started).toHaveLength(1)
    fake.started[0]?.finish()
    await first
    await settle()
    // The running fsync may have started before their renames: they are still waiting, on ONE new fsync.
    expect(resolved).toEqual([])
    expect(fake.started).toHaveLength(2)
    fake.started[1]?.finish()
    await Promise.all(late)
    expect(resolved).toEqual([0, 1, 2])
    expect(fake.started).toHaveLength(2)
  })

  it('keeps folders apart', () => {
    const fake = new ManualSyncs()
    const syncs = new FolderSyncs(fake.sync)
    void syncs.sync('/a')
    void syncs.sync('/b')
    expect(fake.started.map((s) => s.directory)).toEqual(['/a', '/b'])
    for (const s of fake.started) s.finish()
  })

  it('fails every request a failed fsync served, and starts afresh for the next request', async () => {
    const fake = new ManualSyncs()
    const syncs = new FolderSyncs(fake.sync)
    const first = syncs.sync('/a')
    const waiting = syncs.sync('/a')
    fake.started[0]?.finish(new Error('EIO'))
    await expect(first).rejects.toThrow('EIO')
    await settle()
    fake.started[1]?.finish(new Error('EIO again'))
    await expect(waiting).rejects.toThrow('EIO again')
    const later = syncs.sync('/a')
    expect(fake.started).toHaveLength(3)
    fake.started[2]?.finish()
    await expect(later).resolves.toBeUndefined()
  })

  it('resolves every request only after an fsync that started after it, whatever the interleaving', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Each step either requests a sync of one of two folders or finishes the oldest unfinished fsync.
        fc.array(fc.oneof(fc.constantFrom('request /a', 'request /b'), fc.constant('finish')), { maxLength: 60 }),
        async (steps) => {
          const fake = new ManualSyncs()
          const syncs = new FolderSyncs(fake.sync)
          const requests: { directory: string; at: number; resolvedAt: number | null }[] = []
          let finished = 0
          const finishOne = async () => {
            const next = fake.started[finished]
            if (next === undefined) return
            finished++
            next.finish()
            await settle()
          }
          for (const step of steps) {
            if (step === 'finish') {
              await finishOne()
              continue
            }
            const directory = step.slice('request '.length)
            const request = { directory, at: fake.clock++, resolvedAt: null as number | null }
            requests.push(request)
            void syncs.sync(directory).then(() => (request.resolvedAt = finished))
          }
          while (finished < fake.started.length) await finishOne()
          for (const request of requests) {
            // Resolved, and by a finished fsync of its folder that started after the request was made.
            expect(request.resolvedAt).not.toBeNull()
            const servedBy = fake.started
              .slice(0, request.resolvedAt ?? 0)
              .filter((s) => s.directory === request.directory && s.at > request.at)
            expect(servedBy.length).toBeGreaterThan(0)
          }
          // Sharing: never more fsyncs than requests.
          expect(fake.started.length).toBeLessThanOrEqual(requests.length)
        },
      ),
    )
  })

  it('syncs a real folder and reports a missing one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mailroom-folder-sync-'))
    try {
      await expect(new FolderSyncs().sync(dir)).resolves.toBeUndefined()
      await expect(syncDirectory(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
