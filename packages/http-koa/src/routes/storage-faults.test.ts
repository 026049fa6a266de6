import { spawnSync } from 'node:child_process'
import { readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

/**
 * The document storage fails under the server: full, then read-only. Writes must fail with a clear 5xx and
 * leave no row or file behind; reads of what is stored keep working. Needs `mount` (root, as in CI here);
 * skipped where a tmpfs cannot be mounted.
 */
function mount(args: string[]): boolean {
  return spawnSync('mount', args, { encoding: 'utf8' }).status === 0
}

let s: TestServer
let mounted = false
beforeAll(async () => {
  s = await startTestServer({ mailroom: { throttle: false } })
  mounted = mount(['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', s.docserverDir])
})
afterAll(async () => {
  if (mounted) spawnSync('umount', ['-l', s.docserverDir])
  await s?.close()
})

const letter = (text: string) => ({
  modelId: 1,
  status: 'NEW',
  subject: text,
  format: 'txt',
  encodedFile: Buffer.from(text).toString('base64'),
})
const STORAGE_ERROR = { errors: '[ResController create] [storeResource] Document storage is full or not writable' }

async function recordCount(): Promise<number> {
  return (await sql<{ n: number }>`select count(*)::int as n from res_letterbox`.execute(s.mailroom.db)).rows[0]!.n
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
}

describe('document storage faults', () => {
  it('refuses writes with a clear 500 when the storage is full, keeps reads working, leaves nothing behind', async (context) => {
    if (!mounted) return context.skip()
    const first = await s.call('POST', '/rest/resources', { auth: 'cchaplin:maarch', body: letter('avant la panne') })
    expect(first.status).toBe(200)
    const resId = first.json.resId as number
    const filler = join(s.docserverDir, 'filler.bin')
    // Fill the tmpfs to the last byte.
    await writeFile(filler, Buffer.alloc(4 * 1024 * 1024)).catch(() => {})
    const before = await recordCount()
    const filesBefore = await filesUnder(s.docserverDir)
    const refused = await s.call('POST', '/rest/resources', {
      auth: 'cchaplin:maarch',
      body: letter('pendant la panne '.repeat(500)),
    })
    expect([refused.status, refused.json]).toEqual([500, STORAGE_ERROR])
    expect(await recordCount()).toBe(before)
    expect((await filesUnder(s.docserverDir)).sort()).toEqual(filesBefore.sort())
    const read = await s.call('GET', `/rest/resources/${resId}/originalContent`, { auth: 'cchaplin:maarch' })
    expect(read.status).toBe(200)
    expect(read.text).toBe('avant la panne')
    await rm(filler)
  })

  it('refuses writes when the storage turns read-only, reports it in /readyz, keeps reads working', async (context) => {
    if (!mounted) return context.skip()
    const first = await s.call('POST', '/rest/resources', { auth: 'cchaplin:maarch', body: letter('lecture seule') })
    expect(first.status).toBe(200)
    expect(mount(['-o', 'remount,ro', s.docserverDir])).toBe(true)
    try {
      const before = await recordCount()
      const refused = await s.call('POST', '/rest/resources', { auth: 'cchaplin:maarch', body: letter('refusé') })
      expect([refused.status, refused.json]).toEqual([500, STORAGE_ERROR])
      expect(await recordCount()).toBe(before)
      const ready = await s.call('GET', '/readyz', { auth: null })
      expect([ready.status, ready.json.failing]).toEqual([503, ['storage']])
      const read = await s.call('GET', `/rest/resources/${first.json.resId}/originalContent`, {
        auth: 'cchaplin:maarch',
      })
      expect([read.status, read.text]).toEqual([200, 'lecture seule'])
    } finally {
      mount(['-o', 'remount,rw', s.docserverDir])
    }
  })
})
