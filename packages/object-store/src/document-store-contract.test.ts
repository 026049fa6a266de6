import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { checkDocumentStorage, type DocumentStore, FolderDocumentStore, verifyJournal } from '@mailroom/storage'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../testing/src/databases/test-database.js'
import { patternBytes } from '../../testing/src/fixtures/pattern-bytes.js'
import { cephGateway, testBucketUrl, testS3Store } from '../../testing/src/object-store/ceph-gateway.js'

/**
 * The document store's contract, run the same on both stores: the local folder and an S3 bucket of the
 * Ceph test gateway (scripts/ceph-test-cluster.sh; skipped with a message when no gateway runs). First the
 * store on its own, then a Mailroom over it: creates, reads with fingerprint checks (in memory and
 * streamed), new versions, converted PDFs, fsck and the journal's file checks.
 */
const gateway = cephGateway()
const MiB = 1024 * 1024

async function bytesOf(stream: AsyncIterable<Uint8Array> | Uint8Array): Promise<Buffer> {
  if (stream instanceof Uint8Array) return Buffer.from(stream)
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Plain text of about `size` bytes that differs by `seed` (record creates sniff the format). */
function textOf(size: number, seed: number): Uint8Array {
  const line = `line of text ${seed} for the store contract\n`
  return new TextEncoder().encode(line.repeat(Math.ceil(size / line.length)).slice(0, size))
}

interface StoreUnderTest {
  readonly store: DocumentStore
  /** createMailroom options that open the same store. */
  readonly options: { docserverUrl: string; s3?: object }
  dispose(): Promise<void>
}

const STORES: Record<'folder' | 's3', () => Promise<StoreUnderTest>> = {
  async folder() {
    const dir = await mkdtemp(join(tmpdir(), 'mailroom-store-contract-'))
    return {
      store: new FolderDocumentStore(dir),
      options: { docserverUrl: dir },
      dispose: () => rm(dir, { recursive: true, force: true }),
    }
  },
  async s3() {
    if (!gateway) throw new Error('no gateway')
    const url = testBucketUrl()
    const store = await testS3Store(gateway, url)
    return {
      store,
      options: { docserverUrl: url, s3: gateway },
      async dispose() {
        for await (const file of store.list()) await store.remove(file.key)
        await store.close()
      },
    }
  },
}

describe.each(['folder', 's3'] as const)('the %s document store', (kind) => {
  const skip = kind === 's3' && gateway === null
  let subject: StoreUnderTest
  beforeAll(async () => {
    if (!skip) subject = await STORES[kind]()
  })
  afterAll(async () => subject?.dispose())

  describe.skipIf(skip)('on its own', () => {
    it('writes a file under the area and month, and reads back its bytes, whole and by range', async () => {
      const bytes = patternBytes(70_000, 3)
      const stored = await subject.store.write('area/', 'pdf', bytes, new Date('2026-03-09T10:00:00Z'))
      expect(stored.path).toMatch(/^2026\/03\/(\d{4}\/)?$/)
      expect(stored.filename).toMatch(/^[0-9a-f]{32}\.pdf$/)
      expect(stored.key).toBe(`area/${stored.path}${stored.filename}`)
      expect(subject.store.keyOf('area/', stored.path, stored.filename)).toBe(stored.key)
      expect(stored).toMatchObject({ size: bytes.length, sha256: sha256(bytes) })
      expect(await subject.store.size(stored.key)).toBe(bytes.length)
      expect((await bytesOf(await subject.store.read(stored.key))).equals(Buffer.from(bytes))).toBe(true)
      const range = await bytesOf(await subject.store.read(stored.key, { start: 100, end: 1099 }))
      expect(range.equals(Buffer.from(bytes.subarray(100, 1100)))).toBe(true)
      expect((await bytesOf(await subject.store.read(stored.key, { start: 0, end: -1 }))).length).toBe(0)
    })

    it('refuses keys that leave the store and extensions that are not plain', async () => {
      expect(subject.store.keyOf('area/', '../../', 'passwd')).toBeNull()
      expect(subject.store.keyOf('/etc/', '', 'passwd')).toBeNull()
      expect(subject.store.keyOf('area/', '2025#01#0001#', 'a.pdf')).toBe('area/2025/01/0001/a.pdf')
      await expect(subject.store.write('area/', 'p/df', new Uint8Array([1]), new Date())).rejects.toThrow(
        'refused storage path',
      )
    })

    it('answers a missing file: no size, a 404 read, and a remove that is not an error', async () => {
      expect(await subject.store.size('area/2026/01/nothing.pdf')).toBeNull()
      await expect(subject.store.read('area/2026/01/nothing.pdf')).rejects.toMatchObject({
        code: 'DOCUMENT_NOT_IN_DOCSERVER',
      })
      const stored = await subject.store.write('area/', 'txt', new Uint8Array([1, 2, 3]), new Date())
      await subject.store.remove(stored.key)
      await subject.store.remove(stored.key)
      expect(await subject.store.size(stored.key)).toBeNull()
    })

    it('lists every file with its size', async () => {
      const stored = await subject.store.write('listed/', 'txt', patternBytes(1234, 1), new Date())
      const listed = []
      for await (const file of subject.store.list()) listed.push(file)
      expect(listed.find((file) => file.key === stored.key)).toMatchObject({ size: 1234 })
      expect(listed.every((file) => file.modifiedMs > 0)).toBe(true)
    })

    it('puts a stream under an exact key, and refuses (leaving nothing) when the size differs', async () => {
      const bytes = patternBytes(300_000, 9)
      await subject.store.put(
        'copied/2026/01/x.bin',
        Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]),
        bytes.length,
      )
      expect((await bytesOf(await subject.store.read('copied/2026/01/x.bin'))).equals(Buffer.from(bytes))).toBe(true)
      await expect(subject.store.put('copied/2026/01/y.bin', Readable.from([bytes]), bytes.length + 1)).rejects.toThrow(
        /expected/,
      )
      expect(await subject.store.size('copied/2026/01/y.bin')).toBeNull()
    })

    it('streams a large file both ways (multipart upload in a bucket)', async () => {
      const bytes = patternBytes(12 * MiB, 5)
      const stored = await subject.store.write('big/', 'bin', bytes, new Date())
      const hash = createHash('sha256')
      let largest = 0
      for await (const chunk of await subject.store.read(stored.key)) {
        hash.update(chunk as Buffer)
        largest = Math.max(largest, (chunk as Buffer).length)
      }
      expect(hash.digest('hex')).toBe(stored.sha256)
      // Streamed: pieces, never the whole file at once.
      expect(largest).toBeLessThan(4 * MiB)
      await subject.store.remove(stored.key)
    })
  })

  describe.skipIf(skip)('under a Mailroom', () => {
    let t: TestMailroom
    beforeAll(async () => {
      // Reads above 64 KiB stream (verified while sent) rather than being checked in memory first.
      t = await createTestMailroom({
        ...subject.options,
        content: { verifyBeforeSendMaxBytes: 64 * 1024 },
        journal: { sweepIntervalMs: 0 },
      })
    })
    afterAll(async () => t?.cleanup())

    async function create(bytes: Uint8Array, format = 'pdf'): Promise<number> {
      const as = await t.mailroom.as('cchaplin')
      const { resId } = await as.records.create({
        modelId: 1,
        status: 'NEW',
        subject: 'store contract',
        format,
        encodedFile: Buffer.from(bytes).toString('base64'),
        destination: 6,
      })
      return resId
    }

    async function original(resId: number): Promise<Buffer> {
      const as = await t.mailroom.as('superadmin')
      const result = await as.content.readOriginalContent(String(resId), {})
      if (result.kind !== 'file') throw new Error('expected a file')
      return bytesOf(result.file.body)
    }

    async function fileRow(resId: number) {
      return t.mailroom.db
        .selectFrom('res_letterbox as r')
        .innerJoin('docservers as d', 'd.docserver_id', 'r.docserver_id')
        .select(['r.path', 'r.filename', 'd.path_template'])
        .where('r.res_id', '=', resId)
        .executeTakeFirstOrThrow()
    }

    it("keeps a created record's file in this store and serves it, small (checked first) and large (streamed)", async () => {
      const small = new TextEncoder().encode('small original\n')
      const large = textOf(300_000, 11)
      const [a, b] = [await create(small, 'txt'), await create(large, 'txt')]
      expect((await original(a)).equals(Buffer.from(small))).toBe(true)
      expect((await original(b)).equals(Buffer.from(large))).toBe(true)
      const row = await fileRow(b)
      const key = t.mailroom.documentStore.keyOf(row.path_template, row.path ?? '', row.filename ?? '')
      expect(key).not.toBeNull()
      expect(await subject.store.size(key!)).toBe(large.length)
    })

    it('leaves no file behind a refused create, though the file was stored while the body was checked', async () => {
      const keys = async () => {
        const found: string[] = []
        for await (const file of subject.store.list()) found.push(file.key)
        return found.sort()
      }
      const before = await keys()
      const as = await t.mailroom.as('cchaplin')
      const refused = as.records.create({
        modelId: 1,
        status: 'NO_SUCH_STATUS',
        subject: 'refused',
        format: 'txt',
        encodedFile: Buffer.from('refused\n').toString('base64'),
        destination: 6,
      })
      await expect(refused).rejects.toMatchObject({ kind: 'bad-request' })
      expect(await keys()).toEqual(before)
    })

    it('passes the journal verification, which re-hashes every deposited file from this store', async () => {
      await create(new TextEncoder().encode('journalled\n'), 'txt')
      await t.mailroom.journalFlush()
      const verification = await verifyJournal({ db: t.mailroom.db, docservers: t.mailroom.documentStore })
      expect(verification.ok).toBe(true)
    })

    it('refuses a file whose bytes changed: 400 before sending when checked first, a cut stream when streamed', async () => {
      const small = await create(new TextEncoder().encode('first\n'), 'txt')
      const large = await create(textOf(200_000, 12), 'txt')
      for (const resId of [small, large]) {
        const row = await fileRow(resId)
        const key = subject.store.keyOf(row.path_template, row.path ?? '', row.filename ?? '')!
        const size = (await subject.store.size(key))!
        await subject.store.put(key, Readable.from([Buffer.alloc(size, 0x41)]), size)
      }
      await expect(original(small)).rejects.toThrow('Fingerprints do not match')
      await expect(original(large)).rejects.toThrow('Fingerprints do not match')
      const report = await checkDocumentStorage(t.mailroom.db, t.mailroom.documentStore, { dryRun: true })
      expect(
        report.problems
          .filter((p) => p.problem === 'fingerprint')
          .map((p) => p.resId)
          .sort(),
      ).toEqual([small, large].sort())
      const journal = await verifyJournal({ db: t.mailroom.db, docservers: t.mailroom.documentStore })
      expect(journal.ok).toBe(false)
      // Put the rows out of the way of the following checks (fsck never changes rows itself).
      await t.mailroom.db
        .updateTable('res_letterbox')
        .set({ filename: null, path: null, docserver_id: null })
        .where('res_id', 'in', [small, large])
        .execute()
    })

    it('stores new versions and the converted PDF in this store, and reads them back', async () => {
      const resId = await create(new TextEncoder().encode('version one\n'), 'txt')
      const as = await t.mailroom.as('superadmin')
      await as.content.createVersion(String(resId), {
        format: 'txt',
        encodedFile: Buffer.from('version two\n').toString('base64'),
      })
      expect((await original(resId)).toString()).toBe('version two\n')
      const first = await t.mailroom.db
        .selectFrom('adr_letterbox as a')
        .innerJoin('docservers as d', 'd.docserver_id', 'a.docserver_id')
        .select(['a.path', 'a.filename', 'd.path_template'])
        .where('a.res_id', '=', resId)
        .where('a.type', '=', 'DOC')
        .where('a.version', '=', 1)
        .executeTakeFirstOrThrow()
      const firstKey = subject.store.keyOf(first.path_template, first.path, first.filename)!
      expect((await bytesOf(await subject.store.read(firstKey))).toString()).toBe('version one\n')
      const pdf = await as.content.readContent(String(resId), { watermark: 'false' })
      expect(pdf.kind).toBe('file')
      const converted = await t.mailroom.db
        .selectFrom('adr_letterbox as a')
        .innerJoin('docservers as d', 'd.docserver_id', 'a.docserver_id')
        .select(['a.path', 'a.filename', 'd.path_template', 'a.filesize'])
        .where('a.res_id', '=', resId)
        .where('a.type', '=', 'PDF')
        .executeTakeFirstOrThrow()
      expect(
        await subject.store.size(subject.store.keyOf(converted.path_template, converted.path, converted.filename)!),
      ).toBe(converted.filesize)
    })

    it('fsck finds rows whose file is missing and removes orphans from this store', async () => {
      const resId = await create(new TextEncoder().encode('will vanish\n'), 'txt')
      const row = await fileRow(resId)
      await subject.store.remove(subject.store.keyOf(row.path_template, row.path ?? '', row.filename ?? '')!)
      const orphan = await subject.store.write('orphans/', 'txt', new Uint8Array([7, 7, 7]), new Date())
      const report = await checkDocumentStorage(t.mailroom.db, t.mailroom.documentStore, { orphanGraceMs: 0 })
      expect(report.problems).toContainEqual(expect.objectContaining({ resId, problem: 'missing' }))
      expect(report.removed).toContain(orphan.key)
      expect(await subject.store.size(orphan.key)).toBeNull()
      await t.mailroom.db
        .updateTable('res_letterbox')
        .set({ filename: null, path: null, docserver_id: null })
        .where('res_id', '=', resId)
        .execute()
    })
  })
})
