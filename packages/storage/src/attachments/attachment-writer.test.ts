import { createHash } from 'node:crypto'
import {
  type Actor,
  type AttachmentServices,
  createAttachmentUseCases,
  createRecordsUseCases,
  type RecordsServices,
} from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { readStoredFile, storedKeys } from '../../../testing/src/fixtures/insert-test-record.js'
import { DOCUMENT_PORTS } from '../../../testing/src/storage-test-kit.js'
import { ContentReadPorts } from '../content/content-read-ports.js'
import { checkDocumentStorage } from '../docserver/check-document-storage.js'
import { JournalWriter } from '../journal/journal-writer.js'
import { verifyJournal } from '../journal/verify-journal.js'
import { SILENT_LOGGER } from '../logger.js'
import { PerimeterGuard } from '../perimeter/perimeter-guard.js'
import { recordsPorts } from '../records/records-ports.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyUserRepository } from '../users/kysely-user-repository.js'
import { attachmentPorts } from './attachment-ports.js'
import type { AttachmentCreateFaults } from './attachment-writer.js'

const injectedFailure = () => {
  throw new Error('injected failure')
}

const PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
)
const PDF_BASE64 = Buffer.from(PDF).toString('base64')

let t: TestMailroom
let cchaplin: Actor
let context: StorageContext
let records: RecordsServices
let masterId: number

function attachmentsWith(faults: AttachmentCreateFaults = {}): AttachmentServices {
  return createAttachmentUseCases(attachmentPorts(context, new ContentReadPorts(context), faults))
}

async function count(table: 'res_attachments' | 'history' | 'chrono_counters'): Promise<number> {
  return (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.mailroom.db)).rows[0]!
    .n
}

async function counterValue(): Promise<number> {
  const row = await t.mailroom.db
    .selectFrom('chrono_counters')
    .select('last_value')
    .where('counter_id', '=', `chrono_outgoing_${new Date().getUTCFullYear()}`)
    .executeTakeFirst()
  return row?.last_value ?? 0
}

async function journalCount(): Promise<number> {
  return (
    await sql<{
      n: number
    }>`select ((select count(*) from journal_events) + (select count(*) from journal_pending))::int as n`.execute(
      t.mailroom.db,
    )
  ).rows[0]!.n
}

const body = (extra: Record<string, unknown> = {}) => ({
  resIdMaster: masterId,
  type: 'response_project',
  title: 'Projet de réponse',
  encodedFile: PDF_BASE64,
  format: 'pdf',
  ...extra,
})

beforeAll(async () => {
  t = await createTestMailroom()
  const clock = { now: () => new Date() }
  context = {
    db: t.mailroom.db,
    kind: t.mailroom.database.kind,
    docservers: t.documents,
    clock,
    ids: { newId: () => crypto.randomUUID() },
    logger: SILENT_LOGGER,
    converter: null,
    ...DOCUMENT_PORTS,
    perimeter: new PerimeterGuard(SILENT_LOGGER),
    journal: new JournalWriter({ clock }),
  }
  records = createRecordsUseCases(recordsPorts(context))
  cchaplin = (await new KyselyUserRepository(t.mailroom.db).loadActor(2))!
  masterId = (await records.create(cchaplin, { modelId: 1, status: 'NEW', encodedFile: PDF_BASE64, format: 'pdf' }))
    .resId
})
afterAll(async () => t?.cleanup())

describe('attachment storage', () => {
  it('stores the file through the document store with its SHA-256, journalled in the master record archive', async () => {
    const { id } = await attachmentsWith().create(cchaplin, body())
    const row = await t.mailroom.db
      .selectFrom('res_attachments')
      .selectAll()
      .where('res_id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ docserver_id: 'FASTHD_ATTACH', format: 'pdf', filesize: PDF.length, relation: 1 })
    // A folder store adds a sub-folder number; a bucket keeps the month only.
    expect(row.path).toMatch(/^\d{4}\/\d{2}\/(\d{4}\/)?$/)
    const sha256 = createHash('sha256').update(PDF).digest('hex')
    expect(row.fingerprint).toBe(sha256)
    expect(await readStoredFile(t.documents, `attachments/${row.path}${row.filename}`)).toEqual(Buffer.from(PDF))
    const events = await sql<{ event_type: string; hash: string }>`
      select event_type, info->>'hash' as hash from journal_events where info->>'resId' = ${String(masterId)}
      union all
      select event_type, info->>'hash' from journal_pending where info->>'resId' = ${String(masterId)}`.execute(
      t.mailroom.db,
    )
    expect(events.rows).toContainEqual({ event_type: 'recordsManagement/depositNewResource', hash: sha256 })
    const verification = await verifyJournal(context)
    expect(verification.ok).toBe(true)
    const check = await checkDocumentStorage(t.mailroom.db, t.documents, { dryRun: true, orphanGraceMs: 0 })
    expect([check.problems, check.orphans]).toEqual([[], []])
  })

  describe('whole or absent: a failure leaves neither row nor file, nor chrono, nor journal event', () => {
    for (const [point, faults] of [
      ['after the file write', { afterFileWrite: injectedFailure }],
      ['just before commit', { beforeCommit: injectedFailure }],
    ] as const) {
      it(point, async () => {
        const before = [
          await storedKeys(t.documents),
          await count('res_attachments'),
          await count('history'),
          await counterValue(),
          await journalCount(),
        ]
        await expect(attachmentsWith(faults).create(cchaplin, body())).rejects.toThrow('injected failure')
        expect([
          await storedKeys(t.documents),
          await count('res_attachments'),
          await count('history'),
          await counterValue(),
          await journalCount(),
        ]).toEqual(before)
        const check = await checkDocumentStorage(t.mailroom.db, t.documents, { dryRun: true, orphanGraceMs: 0 })
        expect([check.problems, check.orphans]).toEqual([[], []])
      })
    }
  })

  it('numbers concurrent new versions one after the other and leaves only the last current', async () => {
    const { id: original } = await attachmentsWith().create(cchaplin, body())
    const versions = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        attachmentsWith().create(cchaplin, body({ originId: original, title: `v${i}` })),
      ),
    )
    const rows = await t.mailroom.db
      .selectFrom('res_attachments')
      .select(['res_id', 'relation', 'status'])
      .where((eb) => eb.or([eb('res_id', '=', original), eb('origin_id', '=', original)]))
      .orderBy('relation')
      .execute()
    expect(rows.map((r) => r.relation)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(rows.filter((r) => r.status !== 'OBS')).toHaveLength(1)
    expect(versions.map((v) => v.id)).toContain(Number(rows[6]!.res_id))
  })

  it('gives attachment types with chrono the next outgoing chrono, without gap when a create fails', async () => {
    const before = await counterValue()
    await expect(attachmentsWith({ beforeCommit: injectedFailure }).create(cchaplin, body())).rejects.toThrow()
    const { id } = await attachmentsWith().create(cchaplin, body())
    const row = await t.mailroom.db
      .selectFrom('res_attachments')
      .select('identifier')
      .where('res_id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.identifier).toBe(`MAARCH/${new Date().getUTCFullYear()}D/${before + 1}`)
    const plain = await attachmentsWith().create(cchaplin, body({ type: 'simple_attachment' }))
    const plainRow = await t.mailroom.db
      .selectFrom('res_attachments')
      .select('identifier')
      .where('res_id', '=', plain.id)
      .executeTakeFirstOrThrow()
    expect(plainRow.identifier).toBeNull()
    // The one-statement create (no chrono, no origin) journals its file in the master record's archive too.
    const events = await sql<{ n: number }>`
      select count(*)::int as n from (
        select info->>'hash' as hash from journal_events where event_type = 'recordsManagement/depositNewResource'
        union all
        select info->>'hash' from journal_pending where event_type = 'recordsManagement/depositNewResource') e
      where hash = ${createHash('sha256').update(PDF).digest('hex')}`.execute(t.mailroom.db)
    expect(events.rows[0]!.n).toBeGreaterThanOrEqual(2)
    expect((await verifyJournal(context)).ok).toBe(true)
  })

  it('refuses a file that no longer matches its fingerprint, and fsck reports it', async () => {
    const { id } = await attachmentsWith().create(cchaplin, body({ type: 'simple_attachment' }))
    const row = await t.mailroom.db
      .selectFrom('res_attachments')
      .select(['path', 'filename'])
      .where('res_id', '=', id)
      .executeTakeFirstOrThrow()
    const key = `attachments/${row.path}${row.filename}`
    const { putStoredFile } = await import('../../../testing/src/fixtures/insert-test-record.js')
    await putStoredFile(t.documents, key, '%PDF-1.4 altered')
    await expect(attachmentsWith().originalContent(cchaplin, String(id), {})).rejects.toMatchObject({
      message: 'Fingerprints do not match',
    })
    const check = await checkDocumentStorage(t.mailroom.db, t.documents, { dryRun: true, orphanGraceMs: 0 })
    expect(check.problems).toEqual([
      expect.objectContaining({ table: 'res_attachments', resId: id, problem: 'fingerprint' }),
    ])
    await t.mailroom.db.deleteFrom('res_attachments').where('res_id', '=', id).execute()
    await t.documents.remove(key)
  })
})
