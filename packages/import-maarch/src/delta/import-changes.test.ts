import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { verifyJournal } from '@mailroom/storage'
import { startTestServer, type TestServer } from '@mailroom/testing'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../../test/generated-source.js'
import { importCollecting } from '../../test/import-helpers.js'
import type { MaarchImportReport } from '../index.js'

let s: TestServer
let source: GeneratedSource
let first: MaarchImportReport
const delta = (since: string | Date = 'last') =>
  importCollecting(s.mailroom, { from: source.url, docservers: { root: source.docservers }, since })

// The generated installation's records changed in Maarch after the first import (none of them special).
const STATUS_CHANGED = 2
const HISTORY_ONLY = 5
const NOTE_ADDED = 11
const ATTACHMENT_ADDED = 8
const NEW_VERSION = 14
const ATTACHMENT_STATUS = 7
const NEW_RECORD = 15

beforeAll(async () => {
  source = await createGeneratedSource({ records: 14 })
  s = await startTestServer({ mailroom: { demo: false } })
  first = await importCollecting(s.mailroom, { from: source.url, docservers: { root: source.docservers } })
}, 180_000)
afterAll(async () => {
  await s?.close()
  await source?.drop()
})

const TABLES = [
  'res_letterbox',
  'adr_letterbox',
  'listinstance',
  'resource_contacts',
  'resources_tags',
  'resources_folders',
  'notes',
  'note_entities',
  'res_attachments',
  'history',
  'journal_events',
  'users',
  'entities',
  'contacts',
] as const

/** Every table's row count in Mailroom. */
async function counts(): Promise<Record<string, number>> {
  await s.mailroom.journalFlush()
  const out: Record<string, number> = {}
  for (const table of TABLES) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(s.mailroom.db)
    out[table] = Number(rows[0]?.n)
  }
  return out
}

/** Everything Mailroom holds of each record, as text (ids of its notes and history rows left out). */
async function recordsAsText(): Promise<Map<number, string>> {
  const db = s.mailroom.db
  const out = new Map<number, string>()
  for (const record of await db.selectFrom('res_letterbox').selectAll().orderBy('res_id').execute()) {
    const resId = Number(record.res_id)
    const of = async (table: 'adr_letterbox' | 'listinstance' | 'resource_contacts' | 'res_attachments') =>
      sql`select * from ${sql.table(table)} where ${sql.ref(table === 'res_attachments' ? 'res_id_master' : 'res_id')} = ${resId} order by 1`
        .execute(db)
        .then((r) => r.rows)
    const notes = await db
      .selectFrom('notes')
      .select(['user_id', 'creation_date', 'note_text'])
      .where('identifier', '=', resId)
      .orderBy('id')
      .execute()
    const history = await db
      .selectFrom('history')
      .select(['event_type', 'event_date', 'info', 'event_id'])
      .where('record_id', '=', String(resId))
      .orderBy('id')
      .execute()
    out.set(
      resId,
      JSON.stringify([
        record,
        await of('adr_letterbox'),
        await of('listinstance'),
        await of('resource_contacts'),
        await of('res_attachments'),
        notes,
        history,
      ]),
    )
  }
  return out
}

/** Changes made in Maarch (the source), with its own clock, as Maarch would make them. */
async function changeSource(statements: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: source.url })
  await client.connect()
  try {
    await statements(client)
  } finally {
    await client.end()
  }
}

const pdf = (text: string) =>
  Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`)
const sha512 = (bytes: Buffer) => createHash('sha512').update(bytes).digest('hex')
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

/** A file put in Maarch's docservers: its row's path and filename. */
async function sourceFile(folder: string, name: string, bytes: Buffer): Promise<{ path: string; filename: string }> {
  await mkdir(join(source.docservers, folder, 'delta'), { recursive: true })
  await writeFile(join(source.docservers, folder, 'delta', name), bytes)
  return { path: 'delta#', filename: name }
}

describe('a delta import (--since)', () => {
  it('carries nothing when nothing changed in the source since the first import', async () => {
    expect(first.records.imported).toHaveLength(14)
    const before = await counts()
    const records = await recordsAsText()
    const report = await delta()
    expect(report.delta).toMatchObject({ examined: 0, updated: 0, unchanged: 0 })
    expect(report.records.imported).toEqual([])
    expect(report.records.updated).toEqual([])
    expect(report.counts).toMatchObject({ imported: 0, skipped: 0 })
    expect(report.organisation?.lines).toEqual(['no changes'])
    expect(await counts()).toEqual(before)
    expect(await recordsAsText()).toEqual(records)
  })

  it('carries a new record, a status change, a new history row, note, attachment, file version and user, and nothing else', async () => {
    const before = await counts()
    const records = await recordsAsText()
    const newOriginal = pdf('courrier 14, version 2')
    const newRecordFile = pdf('courrier 15')
    const attachmentFile = pdf('reponse au courrier 8')
    const rows = source.installation.tables
    const oldStatus = String(rows.res_letterbox?.find((r) => r.res_id === STATUS_CHANGED)?.status)
    const newStatus = oldStatus === 'END' ? 'VAL' : 'END'
    const version2 = await sourceFile('resources', 'v2.pdf', newOriginal)
    const recordFile = await sourceFile('resources', 'new.pdf', newRecordFile)
    const attachment = await sourceFile('attachments', 'answer.pdf', attachmentFile)
    await changeSource(async (c) => {
      await c.query(`update res_letterbox set status = $1, modification_date = now() where res_id = $2`, [
        newStatus,
        STATUS_CHANGED,
      ])
      await c.query(
        `insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, event_id)
         values ('res_letterbox', $1, 'ACTION#1', 2, now(), 'Statut changé', 'resource', 'resup'),
                ('res_letterbox', $2, 'VIEW', 2, now(), 'Courrier consulté', 'resource', 'resview')`,
        [String(STATUS_CHANGED), String(HISTORY_ONLY)],
      )
      await c.query(`insert into notes (identifier, user_id, creation_date, note_text) values ($1, 2, now(), $2)`, [
        NOTE_ADDED,
        'Rappeler le demandeur',
      ])
      await c.query(
        `insert into res_attachments (title, format, typist, creation_date, relation, docserver_id, path, filename,
           fingerprint, filesize, status, res_id_master, attachment_type)
         values ('Réponse', 'pdf', 2, now(), 1, 'FASTHD_ATTACH', $1, $2, $3, $4, 'A_TRA', $5, 'response_project')`,
        [attachment.path, attachment.filename, sha512(attachmentFile), attachmentFile.length, ATTACHMENT_ADDED],
      )
      await c.query(`update res_attachments set status = 'SIGN', modification_date = now() where res_id_master = $1`, [
        ATTACHMENT_STATUS,
      ])
      // A new original: Maarch keeps the old one as a DOC version and points the record at the new file.
      await c.query(
        `insert into adr_letterbox (res_id, type, version, docserver_id, path, filename, fingerprint)
         select res_id, 'DOC', 1, docserver_id, path, filename, fingerprint from res_letterbox where res_id = $1`,
        [NEW_VERSION],
      )
      await c.query(
        `update res_letterbox set version = 2, path = $1, filename = $2, fingerprint = $3, filesize = $4,
           modification_date = now() where res_id = $5`,
        [version2.path, version2.filename, sha512(newOriginal), newOriginal.length, NEW_VERSION],
      )
      // A new record, like record 1, with its file, history and a note.
      await c.query(
        `insert into res_letterbox (res_id, subject, type_id, format, typist, creation_date, modification_date,
           docserver_id, path, filename, fingerprint, filesize, status, destination, priority, category_id,
           alt_identifier, model_id, version, integrations, linked_resources, external_id)
         select $1, 'Courrier arrivé pendant la bascule', type_id, 'pdf', typist, now(), now(), 'FASTHD_MAN', $2, $3,
           $4, $5, 'NEW', destination, priority, category_id, null, model_id, 1, '{}', '[]', '{}'
         from res_letterbox where res_id = 1`,
        [NEW_RECORD, recordFile.path, recordFile.filename, sha512(newRecordFile), newRecordFile.length],
      )
      await c.query(
        `insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, event_id)
         values ('res_letterbox', $1, 'ADD', 2, now(), 'Courrier enregistré', 'resource', 'resadd')`,
        [String(NEW_RECORD)],
      )
      await c.query(
        `insert into notes (identifier, user_id, creation_date, note_text) values ($1, 2, now(), 'Urgent')`,
        [NEW_RECORD],
      )
      // A user who arrived in the meantime.
      await c.query(
        `insert into users (user_id, password, firstname, lastname, mail, status, mode)
         select 'nouveau', password, 'Nina', 'Nouveau', 'nina.nouveau@example.org', 'OK', 'standard' from users where user_id = $1`,
        [source.installation.facts.clerk],
      )
    })

    const report = await delta()
    expect(report.organisation?.lines.find((line) => line.startsWith('users:'))).toMatch(/^users: \+1 ~0 -0/)
    expect(report.records.imported.map((r) => r.resId)).toEqual([NEW_RECORD])
    expect(report.records.imported[0]?.file?.fingerprint).toBe('matched')
    expect(report.records.skipped).toEqual([])
    const changes = Object.fromEntries(report.records.updated.map((u) => [u.resId, u.changes]))
    expect(changes).toEqual({
      [STATUS_CHANGED]: ['modification_date', 'status', 'history +1'],
      [HISTORY_ONLY]: ['history +1'],
      [ATTACHMENT_STATUS]: ['attachments ~1'],
      [ATTACHMENT_ADDED]: ['attachments +1'],
      [NOTE_ADDED]: ['notes +1'],
      [NEW_VERSION]: ['modification_date', 'file (version 2)'],
    })
    expect(report.delta).toMatchObject({
      examined: 7,
      updated: 6,
      unchanged: 0,
      carried: {
        fields: 2,
        files: 1,
        versions: 0,
        lists: 0,
        attachmentsAdded: 1,
        attachmentsChanged: 1,
        notes: 1,
        history: 2,
      },
    })

    // Read back: every record not named above is exactly as it was; the others changed as Maarch did.
    const after = await recordsAsText()
    const touched = [STATUS_CHANGED, HISTORY_ONLY, NOTE_ADDED, ATTACHMENT_ADDED, NEW_VERSION, ATTACHMENT_STATUS]
    for (const [resId, text] of records) if (!touched.includes(resId)) expect(after.get(resId)).toBe(text)
    // Row counts: the new record's rows, one history row per source row plus the import's trace per changed record.
    const newRecordRows = async (
      table: 'listinstance' | 'resource_contacts' | 'resources_tags' | 'resources_folders',
    ) =>
      Number(
        (
          await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} where res_id = ${NEW_RECORD}`.execute(
            s.mailroom.db,
          )
        ).rows[0]?.n,
      )
    expect(await counts()).toEqual({
      ...before,
      res_letterbox: before.res_letterbox! + 1,
      adr_letterbox: before.adr_letterbox! + 1,
      listinstance: before.listinstance! + (await newRecordRows('listinstance')),
      resource_contacts: before.resource_contacts! + (await newRecordRows('resource_contacts')),
      notes: before.notes! + 2,
      res_attachments: before.res_attachments! + 1,
      // The organisation's change (the user added), 2 history rows from Maarch, 5 traces of the changes carried,
      // and the new record's: its row from Maarch and the import's.
      history: before.history! + 1 + 2 + 5 + 2,
      // The new record's original, the new attachment, the new version.
      journal_events: before.journal_events! + 3,
      users: before.users! + 1,
    })

    const db = s.mailroom.db
    const status = await db
      .selectFrom('res_letterbox')
      .select('status')
      .where('res_id', '=', STATUS_CHANGED)
      .executeTakeFirst()
    expect(status?.status).toBe(newStatus)
    const signed = await db
      .selectFrom('res_attachments')
      .select('status')
      .where('res_id_master', '=', ATTACHMENT_STATUS)
      .execute()
    expect(signed.map((a) => a.status)).toEqual(['SIGN'])
    // The new version: the record serves the new bytes, the old file stays as version 1, both in the safe.
    const auth = `${source.installation.facts.clerk}:${source.installation.facts.password}`
    const original = await s.call('GET', `/rest/resources/${NEW_VERSION}/originalContent?mode=base64`, { auth })
    expect(original.status).toBe(200)
    expect(Buffer.from((original.json as { encodedDocument: string }).encodedDocument, 'base64')).toEqual(newOriginal)
    const record = await db
      .selectFrom('res_letterbox')
      .select(['version', 'fingerprint'])
      .where('res_id', '=', NEW_VERSION)
      .executeTakeFirstOrThrow()
    expect(record).toEqual({ version: 2, fingerprint: sha256(newOriginal) })
    const previous = await db
      .selectFrom('adr_letterbox')
      .select(['type', 'version', 'fingerprint'])
      .where('res_id', '=', NEW_VERSION)
      .where('type', '=', 'DOC')
      .execute()
    const oldRow = rows.res_letterbox?.find((r) => r.res_id === NEW_VERSION)
    const oldBytes = await readFile(
      join(source.docservers, 'resources', String(oldRow?.path).replaceAll('#', '/'), String(oldRow?.filename)),
    )
    expect(previous).toEqual([{ type: 'DOC', version: 1, fingerprint: sha256(oldBytes) }])
    const newAttachment = await db
      .selectFrom('res_attachments')
      .select(['res_id', 'fingerprint', 'title'])
      .where('res_id_master', '=', ATTACHMENT_ADDED)
      .execute()
    expect(newAttachment).toEqual([expect.objectContaining({ title: 'Réponse', fingerprint: sha256(attachmentFile) })])
    const served = await s.call('GET', `/rest/attachments/${newAttachment[0]?.res_id}/originalContent`, {
      auth: `${source.installation.facts.superadmin}:${source.installation.facts.password}`,
    })
    expect(served.status).toBe(200)
    expect(Buffer.from(served.bytes)).toEqual(attachmentFile)
    const notes = await db.selectFrom('notes').select('note_text').where('identifier', '=', NOTE_ADDED).execute()
    expect(notes.map((n) => n.note_text)).toContain('Rappeler le demandeur')
    const trace = await db
      .selectFrom('history')
      .select('info')
      .where('record_id', '=', String(STATUS_CHANGED))
      .where('event_id', '=', 'maarchDelta')
      .execute()
    expect(trace.map((t) => t.info)).toEqual([
      `Changes carried over from Maarch Courrier ${source.installation.version}: modification_date, status, history +1`,
    ])
    expect((await verifyJournal({ db, docservers: s.documents })).ok).toBe(true)

    // Nothing more to carry: a second delta finds the same records as they are and changes nothing.
    const settled = await counts()
    const again = await delta()
    expect(again.records.imported).toEqual([])
    expect(again.records.updated).toEqual([])
    expect(again.delta?.updated).toBe(0)
    expect(await counts()).toEqual(settled)
  })

  it('refuses --since last for a source no import finished from, and a --since that is no date', async () => {
    const other = await startTestServer({ mailroom: { demo: false } })
    try {
      await expect(
        importCollecting(other.mailroom, { from: source.url, docservers: { root: source.docservers }, since: 'last' }),
      ).rejects.toMatchObject({ code: 'MAARCH_NO_EARLIER_IMPORT' })
      await expect(
        importCollecting(other.mailroom, {
          from: source.url,
          docservers: { root: source.docservers },
          since: 'yesterday',
        }),
      ).rejects.toMatchObject({ code: 'MAARCH_SINCE_INVALID' })
      // Nothing was written: not even the organisation.
      const users = await other.mailroom.db.selectFrom('users').select('user_id').execute()
      expect(users.map((u) => u.user_id)).not.toContain('nouveau')
    } finally {
      await other.close()
    }
  })
})
