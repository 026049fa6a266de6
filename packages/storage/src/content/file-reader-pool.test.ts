import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { patternBytes } from '../../../testing/src/fixtures/pattern-bytes.js'
import { FileReaderPool, THREAD_MIN_BYTES } from './file-reader-pool.js'
import { digestOf, type LocatedFile } from './stored-file.js'

let dir: string
let pool: FileReaderPool
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailroom-reader-pool-'))
  pool = new FileReaderPool(2)
})
afterAll(async () => {
  await pool.close()
  await rm(dir, { recursive: true, force: true })
})

let files = 0
async function stored(bytes: Uint8Array, algorithm = 'sha256'): Promise<LocatedFile> {
  const absolutePath = join(dir, `f${files++}`)
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

const MiB = 1024 * 1024

describe('FileReaderPool', () => {
  it('gives every concurrent read its own file and digest, while the shared buffers are reused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            // Small files stay on the event loop, the others go to the threads.
            length: fc.oneof(
              fc.integer({ min: 0, max: 70_000 }),
              fc.integer({ min: THREAD_MIN_BYTES, max: THREAD_MIN_BYTES + 300_000 }),
              fc.constantFrom(MiB - 1, MiB, MiB + 1, 5 * MiB),
            ),
            seed: fc.nat(255),
          }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        fc.constantFrom('sha256', 'sha512', 'md5'),
        async (specs, algorithm) => {
          const contents = specs.map(({ length, seed }) => patternBytes(length, seed))
          const located = await Promise.all(contents.map((bytes) => stored(bytes, algorithm)))
          const read = await Promise.all(located.map((file) => pool.read(file)))
          read.forEach((result, i) => {
            const expected = contents[i] as Uint8Array
            expect(Buffer.from(result.bytes).equals(Buffer.from(expected))).toBe(true)
            expect(result.digest).toEqual(digestOf(expected, algorithm))
          })
        },
      ),
      { numRuns: 25 },
    )
  })

  it('keeps the bytes it gave even after later reads reuse its buffers', async () => {
    const first = await pool.read(await stored(patternBytes(THREAD_MIN_BYTES, 1)))
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => pool.read(await stored(patternBytes(THREAD_MIN_BYTES, 50 + i)))),
    )
    expect(Buffer.from(first.bytes).equals(Buffer.from(patternBytes(THREAD_MIN_BYTES, 1)))).toBe(true)
  })

  it('answers the storage errors of a missing file and of a folder', async () => {
    const missing = await stored(patternBytes(THREAD_MIN_BYTES, 0))
    await rm(missing.key)
    await expect(pool.read(missing)).rejects.toMatchObject({ code: 'DOCUMENT_NOT_IN_DOCSERVER' })
    const folder = join(dir, 'a-folder')
    await mkdir(folder)
    await expect(
      pool.read({
        key: folder,
        localPath: folder,
        algorithm: 'sha256',
        expected: null,
        expectedSize: null,
        size: THREAD_MIN_BYTES,
      }),
    ).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
    })
    // The threads are still there for the next read.
    const bytes = patternBytes(THREAD_MIN_BYTES + 1, 4)
    expect((await pool.read(await stored(bytes))).digest).toEqual(digestOf(bytes, 'sha256'))
  })

  it('reads on the event loop with no threads, and after being closed', async () => {
    const bytes = patternBytes(THREAD_MIN_BYTES * 3, 9)
    const file = await stored(bytes)
    const inline = new FileReaderPool(0)
    expect((await inline.read(file)).digest).toEqual(digestOf(bytes, 'sha256'))
    const closing = new FileReaderPool(1)
    expect((await closing.read(file)).digest).toEqual(digestOf(bytes, 'sha256'))
    await closing.close()
    const after = await closing.read(file)
    expect(Buffer.from(after.bytes).equals(Buffer.from(bytes))).toBe(true)
  })

  it('reads on the event loop when its threads die, and starts no more after three deaths', async () => {
    const starts = join(dir, 'thread-starts')
    // A thread that notes its start, then dies on its first read.
    const dying = `require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'x'); require('node:worker_threads').parentPort.on('message', () => process.exit(3))`
    const pool = new FileReaderPool(1, { workerSource: dying })
    const bytes = patternBytes(300_000, 5)
    const file = await stored(bytes)
    for (let i = 0; i < 5; i++) {
      const read = await pool.read(file)
      expect(Buffer.from(read.bytes).equals(Buffer.from(bytes))).toBe(true)
      expect(read.digest).toEqual(digestOf(bytes, 'sha256'))
    }
    expect(await readFile(starts, 'utf8')).toBe('xxx')
    await pool.close()
  })
})
