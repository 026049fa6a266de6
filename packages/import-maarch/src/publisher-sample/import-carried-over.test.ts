import { readFile } from 'node:fs/promises'
import { startTestServer, type TestServer } from '@mailroom/http-koa/testing'
import { verifyJournal } from '@mailroom/storage'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCollecting } from '../../test/import-helpers.js'
import { publisherFixtures } from '../../test/publisher-fixtures.js'
import { createPublisherSource } from '../../test/publisher-source.js'
import type { SourceDatabase } from '../../test/source-database.js'
import { importMaarch, type MaarchImportReport, type MaarchSource, openMaarchSource } from '../index.js'

/** Skipped, saying so once (vitest.config.ts), where this machine does not have the publisher's installation. */
const fixtures = publisherFixtures()
const MAARCH_FIXTURES = fixtures ?? ''

describe.runIf(fixtures !== null)("the publisher's Maarch 20.10 sample installation", () => {
  // The sample records carry no tags, folders, custom field values, recipients or history: record 5 gets some
  // of each, as a Maarch in use would have; ddur (group ELU, clause 1=0, entity ELUS) is put in the diffusion
  // lists of record 7 as a user and of record 8 through ELUS. Record 9's typist is a user deleted in Maarch
  // (not imported), record 10's a user id Maarch no longer has at all.
  // Records 13 and 14 carry this year's chrono numbers: incoming 41 under a counter at 45, outgoing 9 above a
  // counter left at 3. Record 5's converted PDF is another file than its original, to tell them apart.
  const YEAR = new Date().getFullYear()
  // ARCHIVISTE's clause (1=1 in Maarch, ggrand's only group) is one Mailroom cannot parse.
  const LIVED_IN = `
  update security set where_clause = '1=1 or exists (select 1 from pg_user)' where group_id = 'ARCHIVISTE';
  update res_letterbox set alt_identifier = 'MAARCH/${YEAR}A/41' where res_id = 13;
  update res_letterbox set alt_identifier = 'MAARCH/${YEAR}D/9' where res_id = 14;
  insert into parameters (id, param_value_int) values ('chrono_incoming_${YEAR}', 45), ('chrono_outgoing_${YEAR}', 3);
  update adr_letterbox set filename = 'felicitations.pdf' where res_id = 5 and type = 'PDF';
  insert into resources_tags (res_id, tag_id) values (5, 1), (5, 3);
  insert into resources_folders (folder_id, res_id) values (10, 5), (2, 5);
  update res_letterbox set custom_fields = '{"4": "REF-2020-17", "3": "Fax", "1": "2021-06-30"}' where res_id = 5;
  insert into resource_contacts (res_id, item_id, type, mode) values (5, 19, 'user', 'recipient'), (5, 12, 'entity', 'recipient'), (5, 2, 'contact', 'sender');
  insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, remote_ip, event_id) values
    ('res_letterbox', '5', 'ADD', 19, '2020-03-02 10:00:00', 'Courrier enregistré', 'resource', '10.0.0.7', 'resadd'),
    ('res_view_letterbox', '5', 'UP', 18, '2020-03-03 11:30:00', 'Statut mis à jour', 'resource', NULL, 'resup'),
    ('res_letterbox', '6', 'VIEW', 19, '2020-03-04 09:00:00', NULL, 'resource', NULL, 'resview'),
    ('users', '19', 'LOGIN', 19, '2020-03-04 08:59:00', 'not a record event', 'admin', NULL, 'login');
  insert into listinstance (res_id, sequence, item_id, item_type, item_mode, added_by_user, viewed, difflist_type, process_date, process_comment, signatory, requested_signature) values
    (7, 1, 5, 'user_id', 'cc', 19, 0, 'entity_id', NULL, 'pour information', false, false),
    (8, 1, (select id from entities where entity_id = 'ELUS'), 'entity_id', 'cc', 19, 0, 'entity_id', '2020-03-05 14:00:00', NULL, false, false);
  insert into users (id, user_id, password, firstname, lastname, status) values (40, 'gone', 'x', 'Parti', 'DEPUIS', 'DEL');
  update res_letterbox set typist = 40 where res_id = 9;
  update res_letterbox set typist = 999 where res_id = 10;
`

  let s: TestServer
  let fixture: SourceDatabase
  let source: MaarchSource
  let report: MaarchImportReport
  /** Before the import: what the tests themselves write into the history comes after. */
  let importStarted: Date

  beforeAll(async () => {
    fixture = await createPublisherSource(MAARCH_FIXTURES, LIVED_IN)
    s = await startTestServer({ mailroom: { demo: false } })
    importStarted = new Date()
    report = await importCollecting(s.mailroom, {
      from: fixture.url,
      docservers: { root: `${MAARCH_FIXTURES}/docservers` },
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

  describe('what an imported record carries, as the interface shows it', () => {
    it('serves custom field values in search results and matches them in clauses', async () => {
      const r = await s.call('POST', '/rest/res/list', {
        auth: 'ddaull:maarch',
        body: {
          select: 'res_id, custom_fields',
          clause: `custom_fields ->> '4' = 'REF-2020-17' and custom_fields ->> '3' = 'Fax'`,
        },
      })
      expect(r.status).toBe(200)
      expect(r.json).toEqual({
        resources: [{ res_id: 5, custom_fields: { '1': '2021-06-30', '3': 'Fax', '4': 'REF-2020-17' } }],
        count: 1,
      })
    })

    it("shows Maarch's history rows of a record, oldest under the import's own row", async () => {
      const r = await s.call('GET', '/rest/resources/5/history', { auth: 'ddaull:maarch' })
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
      expect(
        history.map(({ eventType, eventId, login, info, module }) => ({ eventType, eventId, login, info, module })),
      ).toEqual([
        {
          eventType: 'IMPORT',
          eventId: 'maarchImport',
          login: null,
          info: 'Imported from Maarch Courrier 20.10.16',
          module: 'import',
        },
        { eventType: 'UP', eventId: 'resup', login: 'ddaull', info: 'Statut mis à jour', module: 'resource' },
        { eventType: 'ADD', eventId: 'resadd', login: 'bbain', info: 'Courrier enregistré', module: 'resource' },
      ])
      // Maarch's timestamps have no zone; node-postgres reads them as local time, so does this expectation.
      expect(history.slice(1).map((h) => h.eventDate)).toEqual([
        new Date('2020-03-03T11:30:00').toISOString(),
        new Date('2020-03-02T10:00:00').toISOString(),
      ])
    })

    it('gives a group whose clause Mailroom cannot parse no records, never more than Maarch, and reports it', async () => {
      expect(report.organisation?.notes).toEqual([
        {
          section: 'groups',
          id: 'ARCHIVISTE',
          message: expect.stringMatching(
            /^security clause "1=1 or exists \(select 1 from pg_user\)" not understood .*: the group gets no records$/,
          ),
        },
      ])
      const r = await s.call('POST', '/rest/res/list', {
        auth: 'ggrand:maarch',
        body: { select: 'res_id', clause: '1=1' },
      })
      expect([r.status, r.json]).toEqual([200, { resources: [], count: 0 }])
    })

    it('gives a user the records whose diffusion list names them or one of their entities, and nothing else', async () => {
      const r = await s.call('POST', '/rest/res/list', {
        auth: 'ddur:maarch',
        body: { select: 'res_id', clause: '1=1' },
      })
      expect(r.status).toBe(200)
      expect(
        (r.json as { resources: { res_id: number }[] }).resources.map((x) => x.res_id).sort((a, b) => a - b),
      ).toEqual([7, 8])
      expect(
        (await s.call('GET', '/rest/resources/7/originalContent?mode=base64', { auth: 'ddur:maarch' })).status,
      ).toBe(200)
      expect(
        (await s.call('GET', '/rest/resources/9/originalContent?mode=base64', { auth: 'ddur:maarch' })).status,
      ).toBe(403)
    })

    it("accepts the imported tags, folders and contacts in a capture tool's new record", async () => {
      const today = new Date().toISOString().slice(0, 10)
      const body = {
        modelId: 1,
        doctype: 102,
        status: 'NEW',
        destination: 10,
        priority: 'poiuytre1357nbvc',
        subject: 'after import',
        documentDate: today,
        arrivalDate: today,
        processLimitDate: today,
      }
      const created = await s.call('POST', '/rest/resources', {
        auth: 'bblier:maarch',
        body: {
          ...body,
          tags: [1, 3],
          folders: [10],
          senders: [{ id: 2, type: 'contact' }],
          recipients: [{ id: 19, type: 'user' }],
        },
      })
      expect([created.status, created.text]).toEqual([200, created.text])
      const resId = (created.json as { resId: number }).resId
      expect(
        await s.mailroom.db.selectFrom('resources_folders').select('folder_id').where('res_id', '=', resId).execute(),
      ).toEqual([{ folder_id: 10 }])
      // The check those ids passed is a real one: ids Maarch did not have are refused.
      const refused = await s.call('POST', '/rest/resources', { auth: 'bblier:maarch', body: { ...body, tags: [99] } })
      expect([refused.status, refused.json]).toEqual([400, { errors: 'Body tags : One or more tags do not exist' }])
    })
  })

  describe('numbers, files and versions of imported records', () => {
    const today = new Date().toISOString().slice(0, 10)
    const create = (modelId: number) =>
      s.call('POST', '/rest/resources', {
        auth: 'ddaull:maarch',
        body: {
          modelId,
          doctype: 102,
          status: 'NEW',
          chrono: true,
          destination: 10,
          priority: 'poiuytre1357nbvc',
          subject: 'numbered after import',
          documentDate: today,
          arrivalDate: today,
          departureDate: today,
          processLimitDate: today,
          senders: [{ id: 1, type: 'contact' }],
          recipients: [{ id: 1, type: 'contact' }],
          confidentiality: true,
          initiator: 10,
        },
      })

    it("gives new records the chrono number after both Maarch's counters and the numbers its records carry", async () => {
      expect(report.chronoCounters).toEqual(
        expect.arrayContaining([
          { counter: `chrono_incoming_${YEAR}`, value: 45 },
          { counter: `chrono_outgoing_${YEAR}`, value: 9 },
        ]),
      )
      const chronoOf = async (resId: number) =>
        (
          await s.mailroom.db
            .selectFrom('res_letterbox')
            .select('alt_identifier')
            .where('res_id', '=', resId)
            .executeTakeFirstOrThrow()
        ).alt_identifier
      const incoming = await create(1)
      expect([incoming.status, incoming.text]).toEqual([200, incoming.text])
      expect(await chronoOf((incoming.json as { resId: number }).resId)).toBe(`MAARCH/${YEAR}A/46`)
      const outgoing = await create(2)
      expect([outgoing.status, outgoing.text]).toEqual([200, outgoing.text])
      expect(await chronoOf((outgoing.json as { resId: number }).resId)).toBe(`MAARCH/${YEAR}D/10`)
    })

    it("serves Maarch's converted PDF as the record's content, and converts again when Maarch's is missing", async () => {
      const content = async (resId: number) => {
        const r = await s.call('GET', `/rest/resources/${resId}/content?mode=base64&watermark=false`, {
          auth: 'ddaull:maarch',
        })
        expect(r.status).toBe(200)
        return Buffer.from((r.json as { encodedDocument: string }).encodedDocument, 'base64')
      }
      expect(
        (await content(5)).equals(
          await readFile(`${MAARCH_FIXTURES}/docservers/convert_resources/tests/felicitations.pdf`),
        ),
      ).toBe(true)
      expect(report.records.imported.find((r) => r.resId === 5)?.versions).toEqual([{ type: 'PDF', version: 1 }])
      // Record 4's converted PDF (emtpy.pdf) is not on disk: reported, and made from the original when read.
      expect(report.records.imported.find((r) => r.resId === 4)?.problems).toEqual([
        expect.stringMatching(/PDF version 1 .*emtpy\.pdf not found: regenerated by conversion when read/),
      ])
      const regenerated = await content(4)
      expect(regenerated.subarray(0, 5).toString()).toBe('%PDF-')
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
      expect(
        await target.selectFrom('resources_tags').select('tag_id').where('res_id', '=', 5).orderBy('tag_id').execute(),
      ).toEqual([{ tag_id: 1 }, { tag_id: 3 }])
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
      ] as const
      // Maarch leaves custom_fields null where Mailroom has an empty object.
      const value = (c: string, v: unknown) =>
        v instanceof Date ? v.toISOString() : c === 'custom_fields' ? (v ?? {}) : v === null ? null : String(v)
      const normalise = (rows: readonly Record<string, unknown>[]) =>
        lines(rows.map((r) => Object.fromEntries(columns.map((c) => [c, value(c, r[c])]))))
      const ids = report.records.imported.map((r) => r.resId)
      expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
      const target = await s.mailroom.db.selectFrom('res_letterbox').selectAll().where('res_id', 'in', ids).execute()
      expect(normalise(target)).toEqual(normalise(await source.rows('select * from res_letterbox where res_id <= 20')))
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
      expect(listed.length).toBeGreaterThan(20)
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
      expect(imported).toHaveLength(3)
    })
  })

  describe('a record whose typist was not imported', () => {
    const superadminId = async () =>
      (
        await s.mailroom.db
          .selectFrom('users')
          .select('id')
          .where('user_id', '=', 'superadmin')
          .executeTakeFirstOrThrow()
      ).id

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
        auth: 'ddaull:maarch',
        body: { select: 'res_id, typist, external_id', clause: 'res_id in (9, 10, 11)', orderBy: ['res_id'] },
      })
      expect(r.status).toBe(200)
      const rows = (r.json as { resources: { res_id: number; typist: number; external_id: Record<string, unknown> }[] })
        .resources
      const root = await superadminId()
      expect(rows.map((x) => [x.res_id, x.typist, x.external_id.maarchImport ?? null])).toEqual([
        [9, root, { typist: 40 }],
        [10, root, { typist: 999 }],
        [11, 21, null],
      ])
      // Deposited like every other record with a file: the journal covers it and verifies.
      await s.mailroom.journalFlush()
      const deposits = await s.mailroom.db
        .selectFrom('journal_events')
        .select(['account_name', 'description'])
        .where('description', 'like', '%imported from Maarch Courrier 20.10.16 record 9,%')
        .execute()
      expect(deposits).toHaveLength(1)
      expect(deposits[0]!.account_name).toMatch(/superadmin|Super/)
      // The life-cycle event says where the file came from, with Maarch's fingerprint ('0' in the sample).
      expect(deposits[0]!.description).toMatch(
        /imported from Maarch Courrier 20\.10\.16 record 9, source fingerprint SHA512 0$/,
      )
      expect((await verifyJournal({ db: s.mailroom.db, docservers: s.documents })).ok).toBe(true)
    })

    it('stops the import at such a record when the fallback depositor does not exist, and the next run continues', async () => {
      // An unknown login named on purpose is refused before any record.
      await expect(
        importMaarch(s.mailroom, {
          from: fixture.url,
          docservers: { root: `${MAARCH_FIXTURES}/docservers` },
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
        docservers: { root: `${MAARCH_FIXTURES}/docservers` },
        only: 'records' as const,
      }
      await expect(importMaarch(s.mailroom, options)).rejects.toMatchObject({
        code: 'MAARCH_DEPOSITOR_UNKNOWN',
        message:
          "Record 30's typist 998 is not a Mailroom user and neither is the fallback depositor superadmin: name one with --depositor LOGIN; the records imported before this one stay, a rerun continues",
      })
      expect(
        await s.mailroom.db.selectFrom('res_letterbox').select('res_id').where('res_id', '=', 30).execute(),
      ).toEqual([])
      // Another login named: the run continues with record 30.
      const again = await importCollecting(s.mailroom, { ...options, fallbackDepositor: 'ddaull' })
      expect(again.records.imported.map((r) => [r.resId, r.depositor])).toEqual([
        [30, { typist: 998, login: 'ddaull' }],
      ])
      await s.mailroom.db
        .updateTable('users')
        .set({ user_id: 'superadmin' })
        .where('user_id', '=', 'superadmin-away')
        .execute()
    })
  })
})
