import { randomUUID } from 'node:crypto'
import type { Actor } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { makePdf, makeText } from '../../../testing/src/fixtures/files/index.js'
import { insertTestRecord, putStoredFile } from '../../../testing/src/fixtures/insert-test-record.js'
import { ConversionService, DOCUMENT_PORTS } from '../../../testing/src/storage-test-kit.js'
import { createContentReads } from '../../../testing/src/test-core-internals.js'
import { SILENT_LOGGER } from '../logger.js'
import { PerimeterGuard } from '../perimeter/perimeter-guard.js'
import { type ContentJournal, type ContentReaderContext, ContentReadPorts } from './content-read-ports.js'
import { readError } from './stored-file.js'

const root: Actor = {
  id: 1,
  login: 'superadmin',
  firstname: null,
  lastname: null,
  email: null,
  mode: 'root_visible',
  entities: [],
  groups: [],
}

let t: TestMailroom
const calls: { kind: string; request: Record<string, unknown> }[] = []
const journal: ContentJournal = {
  committing: (commit) =>
    commit({
      consultationRows: async (_db, requests) => {
        for (const request of requests) calls.push({ kind: 'consultation', request })
        return []
      },
    }),
  integrityCheck: async (_trx, request) => {
    calls.push({ kind: 'integrityCheck', request })
  },
}

function context(converter = new ConversionService()): ContentReaderContext {
  return {
    db: t.mailroom.db,
    kind: t.database.kind,
    docservers: t.documents,
    clock: { now: () => new Date() },
    ids: { newId: () => randomUUID() },
    logger: SILENT_LOGGER,
    converter,
    ...DOCUMENT_PORTS,
    perimeter: new PerimeterGuard(SILENT_LOGGER),
    journal,
  }
}

/** Core's three content reads over storage's read ports, as the composition root builds them. */
function readerOver(readContext: ContentReaderContext) {
  const reads = createContentReads(new ContentReadPorts(readContext).dependencies)
  return {
    content: reads.readContent,
    originalContent: reads.readOriginalContent,
    versionContent: reads.readVersionContent,
  }
}

beforeAll(async () => {
  t = await createTestMailroom()
})
afterAll(async () => t?.cleanup())

describe("core's content reads over the stored files, and the journal", () => {
  it('journals a consultation of every successful read, with the served SHA-256 and size', async () => {
    const reader = readerOver(context())
    const bytes = makeText()
    const { resId } = await insertTestRecord(t.mailroom.db, t.documents, { bytes, format: 'txt' })
    calls.length = 0
    await reader.originalContent(root, String(resId), {})
    await reader.versionContent(root, String(resId), '1', {})
    expect(calls.map((c) => c.kind)).toEqual(['consultation', 'consultation'])
    const { createHash } = await import('node:crypto')
    expect(calls[0]?.request).toMatchObject({
      resId,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: bytes.length,
      actor: root,
    })
  })

  it('journals a failed integrity check with the stored fingerprint when the file changed', async () => {
    const reader = readerOver(context())
    const { resId, key } = await insertTestRecord(t.mailroom.db, t.documents, { bytes: makePdf() })
    const stored = await t.mailroom.db
      .selectFrom('res_letterbox')
      .select(['fingerprint', 'filesize'])
      .where('res_id', '=', resId)
      .executeTakeFirstOrThrow()
    await putStoredFile(t.documents, key, makePdf({ pages: 2 }))
    calls.length = 0
    await expect(reader.originalContent(root, String(resId), {})).rejects.toThrow('Fingerprints do not match')
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      kind: 'integrityCheck',
      request: { resId, ok: false, sha256: stored.fingerprint, size: stored.filesize },
    })
    expect(String(calls[0]?.request.info)).toMatch(/^original: stored fingerprint [0-9a-f]{64}, computed [0-9a-f]{64}/)
  })

  it('back-fills a missing fingerprint, then checks against it', async () => {
    const reader = readerOver(context())
    const { resId, key } = await insertTestRecord(t.mailroom.db, t.documents, {
      bytes: makeText('x\n'),
      format: 'txt',
      fingerprint: null,
    })
    await reader.originalContent(root, String(resId), {})
    const row = await t.mailroom.db
      .selectFrom('res_letterbox')
      .select('fingerprint')
      .where('res_id', '=', resId)
      .executeTakeFirstOrThrow()
    expect(row.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    await putStoredFile(t.documents, key, 'y\n')
    await expect(reader.originalContent(root, String(resId), {})).rejects.toThrow('Fingerprints do not match')
  })

  it('keeps one PDF row when two servers convert the same version at once', async () => {
    const a = readerOver(context())
    const b = readerOver(context())
    const { resId } = await insertTestRecord(t.mailroom.db, t.documents, { bytes: makeText('race\n'), format: 'txt' })
    const results = await Promise.all([
      a.content(root, String(resId), { watermark: 'false' }),
      b.content(root, String(resId), { watermark: 'false' }),
    ])
    expect(results.every((r) => r.kind === 'file')).toBe(true)
    const rows = await t.mailroom.db.selectFrom('adr_letterbox').selectAll().where('res_id', '=', resId).execute()
    expect(rows).toHaveLength(1)
  })

  it('answers Conversion error when conversion is disabled', async () => {
    const reader = readerOver({ ...context(), converter: null })
    const { resId } = await insertTestRecord(t.mailroom.db, t.documents, { bytes: makeText('x\n'), format: 'txt' })
    await expect(reader.content(root, String(resId), {})).rejects.toThrow(
      'Conversion error : conversion to PDF is disabled on this server',
    )
  })
})

describe('readError', () => {
  it('maps file-system failures to the interface errors', () => {
    const err = (code: string) => Object.assign(new Error(code), { code })
    expect(readError(err('ENOENT')).message).toBe('Document not found in docserver')
    expect(readError(err('EACCES')).message).toBe('could not decode encoded data, or open target file')
    expect(readError(err('EIO')).message).toBe('Failed to get document on docserver')
    expect(readError(err('EIO')).kind).toBe('internal')
  })
})
