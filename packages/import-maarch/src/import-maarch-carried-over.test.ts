import { verifyJournal } from '@mailroom/storage'
import { startTestServer, type TestServer } from '@mailroom/testing'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { importCollecting } from '../test/import-helpers.js'
import { importMaarch, type MaarchImportReport, type MaarchSource, openMaarchSource } from './index.js'

// What an imported record carries, on the generated installation: it has, as a Maarch in use has, custom
// field values, tags, folders, senders and recipients, history rows, diffusion lists naming users and
// entities, a typist deleted in Maarch and a typist id Maarch no longer has.

let s: TestServer
let fixture: GeneratedSource
let source: MaarchSource
let report: MaarchImportReport
/** Before the import: what the tests themselves write into the history comes after. */
let importStarted: Date

beforeAll(async () => {
  fixture = await createGeneratedSource()
  s = await startTestServer({ mailroom: { demo: false } })
  importStarted = new Date()
  report = await importCollecting(s.mailroom, {
    from: fixture.url,
    docservers: { root: fixture.docservers },
  })
  source = await openMaarchSource(fixture.url)
}, 180_000)
afterAll(async () => {
  await source?.close()
  await s?.close()
  await fixture?.drop()
})

/** Rows as sorted JSON lines, to compare tables whatever their ids and order. */
const lines = (rows: readonly Record<string, unknown>[]) => rows.map((r) => JSON.stringify(r)).sort()

const facts = () => fixture.installation.facts
const auth = (login: string) => `${login}:${facts().password}`
const rowsOf = (name: string) => fixture.installation.tables[name] ?? []
const loginOf = (id: unknown) => String(rowsOf('users').find((u) => u.id === id)?.user_id)
/** A source timestamp (no zone) as node-postgres reads it: local time. */
const local = (timestamp: unknown) => new Date(String(timestamp).replace(' ', 'T')).toISOString()

describe('what an imported record carries, as the interface shows it', () => {
  it('serves custom field values in search results and matches them in clauses', async () => {
    const record = rowsOf('res_letterbox').find((r) => r.custom_fields !== null)!
    const values = record.custom_fields as Record<string, string>
    const r = await s.call('POST', '/rest/res/list', {
      auth: auth(facts().clerk),
      body: {
        select: 'res_id, custom_fields',
        clause: `custom_fields ->> '1' = '${values['1']}' and custom_fields ->> '2' = '${values['2']}'`,
      },
    })
    expect(r.status).toBe(200)
    expect(r.json).toEqual({ resources: [{ res_id: record.res_id, custom_fields: values }], count: 1 })
  })

  it("shows Maarch's history rows of a record, oldest under the import's own row", async () => {
    const r = await s.call('GET', '/rest/resources/1/history', { auth: auth(facts().clerk) })
    expect(r.status).toBe(200)
    const history = (
      r.json as {
        history: {
          eventType: string
          eventId: string | null
          login: string | null
          info: string | null
          module: string
          eventDate: string
        }[]
      }
    ).history
    const maarch = rowsOf('history')
      .filter((h) => h.record_id === '1')
      .reverse()
    expect(maarch.map((h) => h.event_type)).toEqual(['UP', 'ADD'])
    expect(
      history.map(({ eventType, eventId, login, info, module }) => ({ eventType, eventId, login, info, module })),
    ).toEqual([
      {
        eventType: 'IMPORT',
        eventId: 'maarchImport',
        login: null,
        info: `Imported from Maarch Courrier ${fixture.installation.version}`,
        module: 'import',
      },
      ...maarch.map((h) => ({
        eventType: h.event_type,
        eventId: h.event_id,
        login: loginOf(h.user_id),
        info: h.info,
        module: h.id_module,
      })),
    ])
    expect(history.slice(1).map((h) => h.eventDate)).toEqual(maarch.map((h) => local(h.event_date)))
  })

  it('lets a user read the files of the records their diffusion list gives them, and of no other', async () => {
    const [listed] = facts().councillorRecords
    const other = facts().deletedTypistRecord
    const read = (resId: number) =>
      s.call('GET', `/rest/resources/${resId}/originalContent?mode=base64`, { auth: auth(facts().councillor) })
    expect((await read(listed!)).status).toBe(200)
    expect((await read(other)).status).toBe(403)
  })

  it("accepts the imported tags, folders and contacts in a capture tool's new record", async () => {
    const today = new Date().toISOString().slice(0, 10)
    const ids = facts().create
    const body = {
      modelId: ids.incomingModel,
      doctype: ids.doctype,
      status: ids.status,
      destination: ids.destination,
      priority: ids.priority,
      subject: 'after import',
      documentDate: today,
      arrivalDate: today,
      processLimitDate: today,
    }
    const created = await s.call('POST', '/rest/resources', {
      auth: auth(facts().clerk),
      body: {
        ...body,
        tags: ids.tags,
        folders: [ids.folder],
        senders: [{ id: ids.contact, type: 'contact' }],
        recipients: [{ id: 2, type: 'user' }],
      },
    })
    expect([created.status, created.text]).toEqual([200, created.text])
    const resId = (created.json as { resId: number }).resId
    expect(
      await s.mailroom.db.selectFrom('resources_folders').select('folder_id').where('res_id', '=', resId).execute(),
    ).toEqual([{ folder_id: ids.folder }])
    // The check those ids passed is a real one: ids Maarch did not have are refused.
    const refused = await s.call('POST', '/rest/resources', {
      auth: auth(facts().clerk),
      body: { ...body, tags: [99] },
    })
    expect([refused.status, refused.json]).toEqual([400, { errors: 'Body tags : One or more tags do not exist' }])
  })

  it('imports a user suspended in Maarch disabled: the password it had no longer opens a session', async () => {
    expect(
      await s.mailroom.db.selectFrom('users').select(['user_id', 'status']).where('user_id', '=', 'suspendu').execute(),
    ).toEqual([{ user_id: 'suspendu', status: expect.not.stringMatching(/^OK$/) }])
    const r = await s.call('POST', '/rest/res/list', {
      auth: auth('suspendu'),
      body: { select: 'res_id', clause: '1=1' },
    })
    expect(r.status).toBe(401)
  })
})

describe("what the interface does not show, compared with Maarch's tables", () => {
  // Tags, folders, senders and recipients of a record are written by POST /rest/resources but no endpoint
  // reads them back: their rows are compared with the source's, for every record.
  it('carries every tag, folder, sender and recipient of every record', async () => {
    const ids = report.records.imported.map((r) => r.resId)
    const target = s.mailroom.db
    expect(
      lines(
        await target.selectFrom('resources_tags').select(['res_id', 'tag_id']).where('res_id', 'in', ids).execute(),
      ),
    ).toEqual(lines(await source.rows('select res_id, tag_id from resources_tags')))
    expect(
      lines(
        await target
          .selectFrom('resources_folders')
          .select(['res_id', 'folder_id'])
          .where('res_id', 'in', ids)
          .execute(),
      ),
    ).toEqual(lines(await source.rows('select res_id, folder_id from resources_folders')))
    expect(
      lines(
        await target
          .selectFrom('resource_contacts')
          .select(['res_id', 'item_id', 'type', 'mode'])
          .where('res_id', 'in', ids)
          .execute(),
      ),
    ).toEqual(lines(await source.rows('select res_id, item_id, type, mode from resource_contacts')))
    // The comparisons above are not vacuous: the installation has rows of each.
    for (const name of ['resources_tags', 'resources_folders', 'resource_contacts'])
      expect(rowsOf(name).length, name).toBeGreaterThan(1)
  })

  it('keeps every record column Mailroom keeps, with its id and chrono number', async () => {
    const columns = [
      'res_id',
      'subject',
      'type_id',
      'status',
      'destination',
      'priority',
      'category_id',
      'alt_identifier',
      'model_id',
      'initiator',
      'dest_user',
      'confidentiality',
      'creation_date',
      'doc_date',
      'admission_date',
      'process_limit_date',
      'closing_date',
      'custom_fields',
      'version',
      'linked_resources',
    ] as const
    // Maarch leaves custom_fields null where Mailroom has an empty object.
    const value = (c: string, v: unknown) =>
      v instanceof Date ? v.toISOString() : c === 'custom_fields' ? (v ?? {}) : v === null ? null : String(v)
    const normalise = (rows: readonly Record<string, unknown>[]) =>
      lines(rows.map((r) => Object.fromEntries(columns.map((c) => [c, value(c, r[c])]))))
    const ids = report.records.imported.map((r) => r.resId)
    expect(ids).toEqual(Array.from({ length: facts().records }, (_, i) => i + 1))
    const target = await s.mailroom.db.selectFrom('res_letterbox').selectAll().where('res_id', 'in', ids).execute()
    expect(normalise(target)).toEqual(normalise(await source.rows('select * from res_letterbox')))
  })

  it("keeps the organisation's identifiers: entities, users, groups, doctypes, statuses, priorities, models, custom fields, tags, folders, contacts", async () => {
    // Only the source's deleted users are left out.
    const pairs = async (table: string, id: string, label: string, sourceWhere = 'true') => ({
      target: lines(
        (
          await sql
            .raw<Record<string, unknown>>(`select ${id} as id, ${label} as label from ${table}`)
            .execute(s.mailroom.db)
        ).rows.map((r) => ({ id: String(r.id), label: r.label })),
      ),
      source: lines(
        (await source.rows(`select ${id} as id, ${label} as label from ${table} where ${sourceWhere}`)).map((r) => ({
          id: String(r.id),
          label: r.label,
        })),
      ),
    })
    for (const [table, id, label, where] of [
      ['entities', 'id', 'entity_id'],
      ['users', 'id', 'user_id', "status <> 'DEL'"],
      ['usergroups', 'id', 'group_id'],
      ['doctypes', 'type_id', 'description'],
      ['status', 'id', 'label_status'],
      ['priorities', 'id', 'label'],
      ['indexing_models', 'id', 'label'],
      ['custom_fields', 'id', 'label'],
      ['tags', 'id', 'label'],
      ['folders', 'id', 'label'],
      ['contacts', 'id', "coalesce(nullif(company, ''), lastname)"],
    ] as const) {
      const { target, source: expected } = await pairs(table, id, label, where)
      expect(expected.length, table).toBeGreaterThan(0)
      expect(target, table).toEqual(expect.arrayContaining(expected))
    }
  })

  it('carries every field of every contact, and serves each through GET /rest/contacts/{id}', async () => {
    const text = [
      'civility',
      'firstname',
      'lastname',
      'company',
      'department',
      'function',
      'address_number',
      'address_street',
      'address_additional1',
      'address_additional2',
      'address_postcode',
      'address_town',
      'address_country',
      'email',
      'phone',
      'notes',
    ]
    const target = await sql.raw<Record<string, unknown>>('select * from contacts order by id').execute(s.mailroom.db)
    const byId = new Map(target.rows.map((row) => [row.id, row]))
    const contacts = rowsOf('contacts')
    expect(contacts.length).toBeGreaterThan(0)
    for (const contact of contacts) {
      const stored = byId.get(contact.id)
      if (!stored) throw new Error(`contact ${contact.id} was not imported`)
      for (const column of text)
        expect([contact.id, column, stored[column]]).toEqual([contact.id, column, contact[column] ?? null])
      const jsonOf = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value)
      expect(stored.communication_means ?? null).toEqual(jsonOf(contact.communication_means) ?? null)
      expect(stored.custom_fields).toEqual(jsonOf(contact.custom_fields))
      expect(stored.external_id).toEqual(jsonOf(contact.external_id))
      expect(stored.enabled).toBe(contact.enabled)
      expect((stored.creation_date as Date).toISOString()).toBe(local(contact.creation_date))
      const modified = stored.modification_date as Date | null
      expect(modified === null ? null : modified.toISOString()).toBe(
        contact.modification_date ? local(contact.modification_date) : null,
      )
      const read = await s.call('GET', `/rest/contacts/${contact.id}`, { auth: auth(facts().clerk) })
      expect(read.status).toBe(200)
      expect(read.json).toMatchObject({
        id: contact.id,
        lastname: contact.lastname ?? null,
        phone: contact.phone ?? null,
        creatorLabel: expect.any(String),
      })
      expect(read.json.creator).toBe(
        rowsOf('users').some((u) => u.id === contact.creator && u.status !== 'DEL') ? contact.creator : null,
      )
    }
  })

  it('carries every diffusion list entry and every history row of every record', async () => {
    const columns = [
      'res_id',
      'sequence',
      'item_id',
      'item_type',
      'item_mode',
      'added_by_user',
      'viewed',
      'difflist_type',
      'process_date',
      'process_comment',
      'signatory',
      'requested_signature',
    ] as const
    const normalise = (rows: readonly Record<string, unknown>[]) =>
      lines(
        rows.map((r) =>
          Object.fromEntries(
            columns.map((c) => [
              c,
              r[c] instanceof Date
                ? (r[c] as Date).toISOString()
                : r[c] === null
                  ? null
                  : typeof r[c] === 'boolean'
                    ? r[c]
                    : String(r[c]),
            ]),
          ),
        ),
      )
    const ids = report.records.imported.map((r) => r.resId)
    const listed = await s.mailroom.db.selectFrom('listinstance').selectAll().where('res_id', 'in', ids).execute()
    expect(listed.length).toBeGreaterThan(facts().records)
    expect(normalise(listed)).toEqual(normalise(await source.rows('select * from listinstance')))

    const history = [
      'record_id',
      'event_type',
      'user_id',
      'event_date',
      'info',
      'id_module',
      'remote_ip',
      'event_id',
    ] as const
    const historyLines = (rows: readonly Record<string, unknown>[]) =>
      lines(
        rows.map((r) =>
          Object.fromEntries(history.map((c) => [c, r[c] instanceof Date ? (r[c] as Date).toISOString() : r[c]])),
        ),
      )
    const imported = await s.mailroom.db
      .selectFrom('history')
      .selectAll()
      .where('table_name', '=', 'res_letterbox')
      .where('event_date', '<', importStarted)
      .where('record_id', 'in', ids.map(String))
      .execute()
    expect(historyLines(imported)).toEqual(
      historyLines(
        await source.rows(`select * from history where table_name in ('res_letterbox', 'res_view_letterbox')`),
      ),
    )
    expect(imported).toHaveLength(
      rowsOf('history').filter((h) => h.table_name === 'res_letterbox' || h.table_name === 'res_view_letterbox').length,
    )
  })
})

describe('a record whose typist was not imported', () => {
  const superadminId = async () =>
    (await s.mailroom.db.selectFrom('users').select('id').where('user_id', '=', 'superadmin').executeTakeFirstOrThrow())
      .id

  it('is recorded and deposited in the name of the fallback depositor (superadmin), reported, and shows whose it was', async () => {
    const byId = (id: number) => report.records.imported.find((r) => r.resId === id)
    const [nine, ten] = [byId(9), byId(10)]
    expect(nine?.depositor).toEqual({ typist: 40, login: 'superadmin' })
    expect(ten?.depositor).toEqual({ typist: 999, login: 'superadmin' })
    expect(nine?.problems).toContain(
      'typist 40 is not imported (deleted in Maarch?): recorded and deposited as superadmin',
    )
    expect(report.records.repaired.map((r) => r.resId)).toEqual(expect.arrayContaining([9, 10]))
    expect(report.records.imported.filter((r) => r.depositor).map((r) => r.resId)).toEqual([9, 10])

    const r = await s.call('POST', '/rest/res/list', {
      auth: auth(facts().clerk),
      body: { select: 'res_id, typist, external_id', clause: 'res_id in (9, 10, 11)', orderBy: ['res_id'] },
    })
    expect(r.status).toBe(200)
    const rows = (r.json as { resources: { res_id: number; typist: number; external_id: Record<string, unknown> }[] })
      .resources
    const root = await superadminId()
    expect(rows.map((x) => [x.res_id, x.typist, x.external_id.maarchImport ?? null])).toEqual([
      [9, root, { typist: 40 }],
      [10, root, { typist: 999 }],
      [11, rowsOf('res_letterbox')[10]!.typist, null],
    ])
    // Deposited like every other record with a file: the journal covers it and verifies.
    await s.mailroom.journalFlush()
    const deposits = await s.mailroom.db
      .selectFrom('journal_events')
      .select(['account_name', 'description'])
      .where('description', 'like', `%imported from Maarch Courrier ${fixture.installation.version} record 9,%`)
      .execute()
    expect(deposits).toHaveLength(1)
    expect(deposits[0]!.account_name).toMatch(/superadmin|Super/)
    // The life-cycle event says where the file came from, with Maarch's fingerprint ('0' in the sample).
    expect(deposits[0]!.description).toMatch(
      new RegExp(
        `imported from Maarch Courrier ${fixture.installation.version.replaceAll('.', '\\.')} record 9, source fingerprint SHA512 0$`,
      ),
    )
    expect((await verifyJournal({ db: s.mailroom.db, docservers: s.documents })).ok).toBe(true)
  })

  it('stops the import at such a record when the fallback depositor does not exist, and the next run continues', async () => {
    // An unknown login named on purpose is refused before any record.
    await expect(
      importMaarch(s.mailroom, {
        from: fixture.url,
        docservers: { root: fixture.docservers },
        only: 'records',
        fallbackDepositor: 'nobody',
      }),
    ).rejects.toMatchObject({
      code: 'MAARCH_DEPOSITOR_UNKNOWN',
      message:
        'The fallback depositor nobody is not a Mailroom user: name one with --depositor LOGIN (records whose typist was not imported are recorded and deposited in its name), nothing was imported',
    })
    // Maarch gets a record 30 typed by a user it no longer has; Mailroom has no superadmin any more.
    const client = new pg.Client({ connectionString: fixture.url })
    await client.connect()
    await client.query(
      `create temp table copied as select * from res_letterbox where res_id = 1; update copied set res_id = 30, typist = 998, alt_identifier = null; insert into res_letterbox select * from copied`,
    )
    await client.end()
    await s.mailroom.db
      .updateTable('users')
      .set({ user_id: 'superadmin-away' })
      .where('user_id', '=', 'superadmin')
      .execute()
    const options = {
      from: fixture.url,
      docservers: { root: fixture.docservers },
      only: 'records' as const,
    }
    await expect(importMaarch(s.mailroom, options)).rejects.toMatchObject({
      code: 'MAARCH_DEPOSITOR_UNKNOWN',
      message:
        "Record 30's typist 998 is not a Mailroom user and neither is the fallback depositor superadmin: name one with --depositor LOGIN; the records imported before this one stay, a rerun continues",
    })
    expect(await s.mailroom.db.selectFrom('res_letterbox').select('res_id').where('res_id', '=', 30).execute()).toEqual(
      [],
    )
    // Another login named: the run continues with record 30.
    const again = await importCollecting(s.mailroom, { ...options, fallbackDepositor: facts().clerk })
    expect(again.records.imported.map((r) => [r.resId, r.depositor])).toEqual([
      [30, { typist: 998, login: facts().clerk }],
    ])
    await s.mailroom.db
      .updateTable('users')
      .set({ user_id: 'superadmin' })
      .where('user_id', '=', 'superadmin-away')
      .execute()
  })
})
