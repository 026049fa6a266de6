import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { patternBytes } from '../../../testing/src/fixtures/pattern-bytes.js'
import { digestOf, type LocatedFile, readDigested } from './stored-file.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailroom-stored-file-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const SLICE = 256 * 1024

async function stored(bytes: Uint8Array, algorithm: string, name: string): Promise<LocatedFile> {
  const absolutePath = join(dir, name)
  await writeFile(absolutePath, bytes)
  return {
    key: absolutePath,
    localPath: absolutePath,
    algorithm,
    expected: null,
    expectedSize: null,
    size: bytes.length,
  }
}

describe('readDigested', () => {
  it('returns the file and the digest of exactly those bytes, whatever the size and slice boundaries', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: 0, max: 3 * SLICE + 7 }),
          fc.constantFrom(1, SLICE - 1, SLICE, SLICE + 1, 2 * SLICE),
        ),
        fc.constantFrom('sha256', 'sha512', 'md5'),
        fc.integer({ min: 0, max: 255 }),
        async (length, algorithm, seed) => {
          const bytes = patternBytes(length, seed)
          const file = await stored(bytes, algorithm, `f${run++}`)
          const read = await readDigested(file)
          expect(Buffer.from(read.bytes).equals(Buffer.from(bytes))).toBe(true)
          expect(read.digest).toEqual(digestOf(bytes, algorithm))
        },
      ),
      { numRuns: 40 },
    )
  })

  it('gives the SHA-256 beside a fingerprint of another algorithm', async () => {
    const bytes = patternBytes(SLICE + 10, 3)
    const read = await readDigested(await stored(bytes, 'sha512', 'both'))
    expect(read.digest.sha256).toBe(digestOf(bytes, 'sha256').fingerprint)
    expect(read.digest.fingerprint).toHaveLength(128)
    expect(read.digest.size).toBe(SLICE + 10)
  })

  it('reads only what the file holds when it shrank after being located', async () => {
    const file = await stored(patternBytes(SLICE * 2, 1), 'sha256', 'shrunk')
    const now = patternBytes(100, 9)
    await writeFile(file.key, now)
    const read = await readDigested(file)
    expect(read.bytes.length).toBe(100)
    expect(read.digest).toEqual(digestOf(now, 'sha256'))
  })

  it('maps a file gone since it was located to the missing-file error', async () => {
    const file = await stored(patternBytes(10, 0), 'sha256', 'gone')
    await rm(file.key)
    await expect(readDigested(file)).rejects.toMatchObject({ code: 'DOCUMENT_NOT_IN_DOCSERVER' })
  })
})
