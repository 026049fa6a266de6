import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { base64Chunks, originalFilePath, searchFileAt } from './original-files.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailroom-search-files-'))
})
afterAll(async () => rm(dir, { recursive: true, force: true }))

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = []
  for await (const chunk of chunks) out.push(chunk)
  return out
}

describe('base64Chunks', () => {
  it('concatenates to the base64 of the whole file, each chunk unpadded but the last (property)', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.integer({ min: 1, max: 10 }), async (bytes, thirds) => {
        const file = join(dir, `p${n++}`)
        await writeFile(file, bytes)
        const chunks = await collect(base64Chunks(file, thirds * 3))
        expect(chunks.join('')).toBe(Buffer.from(bytes).toString('base64'))
        for (const chunk of chunks.slice(0, -1)) expect(chunk).not.toContain('=')
        expect(chunks.length).toBe(Math.ceil(bytes.length / (thirds * 3)))
      }),
      { numRuns: 100, seed: 7 },
    )
  })

  it('refuses a chunk size that is not a multiple of 3', async () => {
    await expect(collect(base64Chunks(join(dir, 'none'), 4))).rejects.toThrow(RangeError)
  })
})

describe('originalFilePath', () => {
  it('joins root, template, path and filename, reading # as /', () => {
    expect(
      originalFilePath('/data/ds', 'resources/', {
        docserverId: 'FASTHD_MAN',
        path: '2025#01#0001#',
        filename: 'a.pdf',
      }),
    ).toBe('/data/ds/resources/2025/01/0001/a.pdf')
    expect(
      originalFilePath('/data/ds', 'resources/', {
        docserverId: 'FASTHD_MAN',
        path: '2025/01/0001/',
        filename: 'a.pdf',
      }),
    ).toBe('/data/ds/resources/2025/01/0001/a.pdf')
  })
  it('gives null for a missing part or a path that leaves the root', () => {
    expect(originalFilePath('/data/ds', undefined, { docserverId: 'X', path: 'a/', filename: 'b' })).toBeNull()
    expect(
      originalFilePath('/data/ds', 'resources/', { docserverId: 'FASTHD_MAN', path: 'a/', filename: null }),
    ).toBeNull()
    expect(
      originalFilePath('/data/ds', 'resources/', { docserverId: 'FASTHD_MAN', path: '../../', filename: 'etc/passwd' }),
    ).toBeNull()
    expect(
      originalFilePath('/data/ds', '/etc/', { docserverId: 'FASTHD_MAN', path: '', filename: 'passwd' }),
    ).toBeNull()
  })
})

describe('searchFileAt', () => {
  it('opens to null without a path, for a missing file and for a folder', async () => {
    expect(await searchFileAt(null).open()).toBeNull()
    expect(await searchFileAt(join(dir, 'missing')).open()).toBeNull()
    expect(await searchFileAt(dir).open()).toBeNull()
  })
})
