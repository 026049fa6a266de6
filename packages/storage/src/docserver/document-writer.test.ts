import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { patternBytes } from '../../../testing/src/fixtures/pattern-bytes.js'
import { DocserverRoot } from './docserver-root.js'
import { DIRECT_WRITE_MAX_BYTES, DocumentWriter } from './document-writer.js'
import { FolderSyncs, syncDirectory } from './folder-syncs.js'

let root: string
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mailroom-document-writer-'))
})
afterAll(async () => {
  await rm(root, { recursive: true, force: true })
})

const NOW = new Date('2026-03-14T10:00:00Z')

describe('DocumentWriter', () => {
  it('stores exactly the bytes, with their size and SHA-256, on both sides of the direct-write limit', async () => {
    const writer = new DocumentWriter(new DocserverRoot(root))
    const written: string[] = []
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: 0, max: 2 * DIRECT_WRITE_MAX_BYTES }),
          fc.constantFrom(0, 1, DIRECT_WRITE_MAX_BYTES - 1, DIRECT_WRITE_MAX_BYTES, DIRECT_WRITE_MAX_BYTES + 1),
        ),
        fc.integer({ min: 0, max: 255 }),
        async (length, seed) => {
          const bytes = patternBytes(length, seed)
          const stored = await writer.write('area/', 'pdf', bytes, NOW)
          written.push(stored.filename)
          expect(stored.path).toBe('2026/03/0001/')
          expect(stored.filename).toMatch(/^[0-9a-f]{32}\.pdf$/)
          expect(stored.key).toBe(`area/2026/03/0001/${stored.filename}`)
          expect(stored.size).toBe(length)
          expect(stored.sha256).toBe(createHash('sha256').update(bytes).digest('hex'))
          // Buffer.compare: toEqual walks half a million elements one by one.
          expect(Buffer.compare(await readFile(join(root, stored.key)), bytes)).toBe(0)
        },
      ),
      { numRuns: 30 },
    )
    // The folder holds the files written and nothing else (no temporary or partial file beside them).
    const names = await readdir(join(root, 'area', '2026', '03', '0001'))
    expect(names.sort()).toEqual(written.sort())
  })

  it('syncs the folder after the file has its final name, for small and large files', async () => {
    const listings: string[][] = []
    const recording = new FolderSyncs(async (directory) => {
      listings.push(await readdir(directory))
      await syncDirectory(directory)
    })
    const writer = new DocumentWriter(new DocserverRoot(root), recording)
    const small = await writer.write('synced/', 'txt', patternBytes(10, 1), NOW)
    const large = await writer.write('synced/', 'txt', patternBytes(DIRECT_WRITE_MAX_BYTES + 10, 1), NOW)
    expect(listings).toEqual([[small.filename], expect.arrayContaining([small.filename, large.filename])])
    expect(listings[1]).toHaveLength(2)
  })

  it('refuses an extension that is not lower-case letters and digits, writing nothing', async () => {
    const writer = new DocumentWriter(new DocserverRoot(root))
    await expect(writer.write('refused/', '../pdf', patternBytes(5, 0), NOW)).rejects.toThrow('refused storage path')
    expect(existsSync(join(root, 'refused'))).toBe(false)
  })

  it('fails the write and leaves no file, final or temporary, when the folder fsync fails', async () => {
    const failing = new FolderSyncs(async () => {
      throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })
    })
    const writer = new DocumentWriter(new DocserverRoot(root), failing)
    await expect(writer.write('failing/', 'pdf', patternBytes(100, 3), NOW)).rejects.toMatchObject({ code: 'EIO' })
    await expect(
      writer.write('failing/', 'pdf', patternBytes(DIRECT_WRITE_MAX_BYTES + 1, 3), NOW),
    ).rejects.toMatchObject({ code: 'EIO' })
    expect(await readdir(join(root, 'failing', '2026', '03', '0001'))).toEqual([])
  })
})
