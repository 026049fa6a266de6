import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { type Actor, createRecordsUseCases, type RecordsServices } from '@mailroom/core'
import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import {
  putStoredFile,
  readStoredFile,
  storedKey,
  storedKeys,
} from '../../../testing/src/fixtures/insert-test-record.js'
import {
  docx,
  docxWithPictures,
  entryOf,
  odt,
  partOf,
  picture,
  run,
  wordParagraphs,
  xlsx,
} from '../../../testing/src/fixtures/office/test-office-files.js'
import { readCode } from '../../../testing/src/fixtures/office/test-read-code.js'
import { DOCUMENT_PORTS, CHRONO_PLACEHOLDER as P } from '../../../testing/src/storage-test-kit.js'
import { checkDocumentStorage } from '../docserver/check-document-storage.js'
import type { DocumentStore } from '../docserver/document-store.js'
import { FolderDocumentStore } from '../docserver/folder-document-store.js'
import { JournalWriter } from '../journal/journal-writer.js'
import { SILENT_LOGGER } from '../logger.js'
import { PerimeterGuard } from '../perimeter/perimeter-guard.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyUserRepository } from '../users/kysely-user-repository.js'
import type { RecordCreateFaults } from './kysely-records-repository.js'
import { recordsPorts } from './records-ports.js'

/** The failure points of a create (RecordCreateFaults), each throwing a message a response must not leak. */
const injectedFailure = () => {
  throw new Error('injected failure: /secret/path select * from x')
}
const FAULT_POINTS = [
  ['after the file write', { afterFileWrite: injectedFailure }],
  ['after the insert', { afterInsert: injectedFailure }],
  ['just before commit', { beforeCommit: injectedFailure }],
] as const

/** Journal events and pending events together: a background seal may move one into the other meanwhile. */
async function journalCount(): Promise<number> {
  return (
    await sql<{
      n: number
    }>`select ((select count(*) from journal_events) + (select count(*) from journal_pending))::int as n`.execute(
      t.mailroom.db,
    )
  ).rows[0]!.n
}

const PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
)
const PDF_BASE64 = Buffer.from(PDF).toString('base64')
const base = { modelId: 1, status: 'NEW', encodedFile: PDF_BASE64, format: 'pdf' }

let t: TestMailroom
let root: DocumentStore
let cchaplin: Actor

function contextOf(clock: { now(): Date } = { now: () => new Date() }): StorageContext {
  return {
    db: t.mailroom.db,
    kind: t.mailroom.database.kind,
    docservers: root,
    clock,
    ids: { newId: () => crypto.randomUUID() },
    logger: SILENT_LOGGER,
    converter: null,
    ...DOCUMENT_PORTS,
    perimeter: new PerimeterGuard(SILENT_LOGGER),
    journal: new JournalWriter({ clock }),
  }
}

function services(faults: RecordCreateFaults = {}): RecordsServices {
  return createRecordsUseCases(recordsPorts(contextOf(), { faults }))
}

const storedFiles = () => storedKeys(root)

/** The key of a record's file. */
async function keyOfRecord(resId: number): Promise<string> {
  const r = await t.mailroom.db
    .selectFrom('res_letterbox')
    .select(['path', 'filename'])
    .where('res_id', '=', resId)
    .executeTakeFirstOrThrow()
  return storedKey(root, 'resources', r.path!, r.filename!)
}

async function count(
  table: 'res_letterbox' | 'history' | 'chrono_counters' | 'journal_events' | 'users_followed_resources',
): Promise<number> {
  const row = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.mailroom.db)
  return row.rows[0]!.n
}

beforeAll(async () => {
  t = await createTestMailroom()
  root = t.documents
  cchaplin = (await new KyselyUserRepository(t.mailroom.db).loadActor(2))!
})
afterAll(async () => t?.cleanup())

describe('record storage', () => {
  it('stores the file under resources/YYYY/MM/NNNN/ with a generated name, its size and SHA-256', async () => {
    const { resId } = await services().create(cchaplin, base)
    const row = await t.mailroom.db
      .selectFrom('res_letterbox')
      .selectAll()
      .where('res_id', '=', resId)
      .executeTakeFirstOrThrow()
    const now = new Date()
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`
    expect(row.docserver_id).toBe('FASTHD_MAN')
    // A folder adds an NNNN/ level to keep its folders listable; a bucket has no folders (docs/object-storage.md, Keys).
    expect(row.path).toMatch(new RegExp(`^${month}/(0001/)?$`))
    expect(row.filename).toMatch(/^[0-9a-f]{32}\.pdf$/)
    expect(row.filesize).toBe(PDF.length)
    expect(row.fingerprint).toBe(createHash('sha256').update(PDF).digest('hex'))
    expect(row.format).toBe('pdf')
    expect(new Uint8Array(await readStoredFile(root, await keyOfRecord(resId)))).toEqual(PDF)
    expect(await t.mailroom.db.selectFrom('adr_letterbox').selectAll().where('res_id', '=', resId).execute()).toEqual(
      [],
    )
    // No temporary file stays behind.
    expect((await storedFiles()).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('writes one history row and one journal deposit per creation', async () => {
    const before = await count('journal_events')
    const { resId } = await services().create(cchaplin, base)
    const history = await t.mailroom.db
      .selectFrom('history')
      .selectAll()
      .where('record_id', '=', String(resId))
      .execute()
    expect(history).toHaveLength(1)
    expect(history[0]).toMatchObject({
      table_name: 'res_letterbox',
      event_type: 'ADD',
      user_id: 2,
      info: 'Document added',
      id_module: 'resource',
      event_id: 'resourceCreation',
    })
    // The deposit is committed with the record (pending) and linked into the chain by a seal.
    await t.mailroom.journalFlush()
    expect(await count('journal_events')).toBeGreaterThan(before)
  })

  it('journals the deposit under the id the record gets, reserved before its row was written', async () => {
    const { resId } = await services().create(cchaplin, { ...base, senders: [{ id: 1, type: 'contact' }] })
    const archive = await t.mailroom.db
      .selectFrom('journal_archives')
      .selectAll()
      .where('res_id', '=', resId)
      .executeTakeFirstOrThrow()
    // Pending or already sealed by the background sweep: one statement, so a seal cannot fall between two reads.
    const { rows: deposits } = await sql<{
      info: unknown
    }>`select info from journal_pending where object_id = ${archive.archive_id}
      union all select info from journal_events where object_id = ${archive.archive_id}`.execute(t.mailroom.db)
    expect(deposits).toHaveLength(1)
    expect(JSON.stringify(deposits[0]!.info)).toContain(String(resId))
    expect(
      await t.mailroom.db
        .selectFrom('resource_contacts')
        .select(['item_id', 'type', 'mode'])
        .where('res_id', '=', resId)
        .execute(),
    ).toEqual([{ item_id: 1, type: 'contact', mode: 'sender' }])
    // A record without a file reserves nothing: the identity numbers it, after the reserved one.
    const { resId: next } = await services().create(cchaplin, { modelId: 1, status: 'NEW' })
    expect(next).toBeGreaterThan(resId)
  })

  describe('atomicity: a failure leaves neither row nor file', () => {
    for (const [point, faults] of FAULT_POINTS) {
      it(point, async () => {
        const [files, rows, history, counters, events] = [
          await storedFiles(),
          await count('res_letterbox'),
          await count('history'),
          await count('chrono_counters'),
          await journalCount(),
        ]
        const attempt = services(faults).create(cchaplin, { ...base, chrono: true })
        await expect(attempt).rejects.toMatchObject({
          kind: 'internal',
          message: '[ResController create] [storeResource] Resource could not be created',
        })
        expect(await storedFiles()).toEqual(files)
        expect([
          await count('res_letterbox'),
          await count('history'),
          await count('chrono_counters'),
          await journalCount(),
        ]).toEqual([rows, history, counters, events])
      })
    }

    // The file is written during the reference lookup (StagedFile): a refusal by the checks removes it.
    it('when the checks refuse the body, though its file was written during the lookup', async () => {
      const [files, rows, events] = [await storedFiles(), await count('res_letterbox'), await journalCount()]
      for (const [body, message] of [
        [{ ...base, status: 'NOPE' }, 'Body status does not exist'],
        [{ ...base, doctype: 999999 }, 'Body doctype does not exist'],
        [{ ...base, senders: [{ id: 999999, type: 'contact' }] }, 'Body senders[0] id does not exist'],
      ] as const) {
        await expect(services().create(cchaplin, body)).rejects.toMatchObject({ kind: 'bad-request', message })
      }
      expect(await storedFiles()).toEqual(files)
      expect([await count('res_letterbox'), await journalCount()]).toEqual([rows, events])
    })

    it('writes the file of a successful create once', async () => {
      const files = await storedFiles()
      const { resId } = await services().create(cchaplin, base)
      const added = (await storedFiles()).filter((f) => !files.includes(f))
      expect(added).toEqual([await keyOfRecord(resId)])
    })

    // Without a chrono and without test hooks inside a transaction, a create's rows go in as ONE statement
    // (PostgreSQL runs it atomically, without BEGIN/COMMIT): make each of its parts fail in turn.
    for (const table of ['resource_contacts', 'journal_pending', 'history'] as const) {
      it(`in the one-statement create, when its ${table} insert fails`, async () => {
        const [files, rows, history, events] = [
          await storedFiles(),
          await count('res_letterbox'),
          await count('history'),
          await journalCount(),
        ]
        await sql`alter table ${sql.table(table)} add constraint refuse_all check (false) not valid`.execute(
          t.mailroom.db,
        )
        try {
          const attempt = services().create(cchaplin, { ...base, senders: [{ id: 1, type: 'contact' }] })
          await expect(attempt).rejects.toMatchObject({
            kind: 'internal',
            message: '[ResController create] [storeResource] Resource could not be created',
          })
        } finally {
          await sql`alter table ${sql.table(table)} drop constraint refuse_all`.execute(t.mailroom.db)
        }
        expect(await storedFiles()).toEqual(files)
        expect([await count('res_letterbox'), await count('history'), await journalCount()]).toEqual([
          rows,
          history,
          events,
        ])
      })
    }

    it('gives the chrono number of a failed create back (no gap)', async () => {
      const first = await services().create(cchaplin, { ...base, modelId: 3, chrono: true })
      await expect(
        services({ afterInsert: injectedFailure }).create(cchaplin, { ...base, modelId: 3, chrono: true }),
      ).rejects.toThrow()
      const second = await services().create(cchaplin, { ...base, modelId: 3, chrono: true })
      const chronos = await t.mailroom.db
        .selectFrom('res_letterbox')
        .select('alt_identifier')
        .where('res_id', 'in', [first.resId, second.resId])
        .orderBy('res_id')
        .execute()
      const numbers = chronos.map((c) => Number(c.alt_identifier!.split('/')[2]))
      expect(numbers[1]).toBe(numbers[0]! + 1)
    })
  })

  it('gives 50 parallel creates 50 consecutive chrono numbers', async () => {
    const created = await Promise.all(
      Array.from({ length: 50 }, () => services().create(cchaplin, { modelId: 2, status: 'NEW', chrono: true })),
    )
    const rows = await t.mailroom.db
      .selectFrom('res_letterbox')
      .select('alt_identifier')
      .where(
        'res_id',
        'in',
        created.map((c) => c.resId),
      )
      .execute()
    const year = new Date().getUTCFullYear()
    const numbers = rows.map((r) => {
      expect(r.alt_identifier).toMatch(new RegExp(`^MAARCH/${year}D/\\d+$`))
      return Number(r.alt_identifier!.split('/')[2])
    })
    numbers.sort((a, b) => a - b)
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
  })

  it('reports a 500 without SQL or paths when the storage root is unusable', async () => {
    // A folder store whose root is a file: folder-only by nature (object storage: test/object-storage.test.ts).
    const scratch = await mkdtemp(join(tmpdir(), 'mailroom-broken-root-'))
    const brokenRoot = join(scratch, 'not-a-folder')
    await writeFile(brokenRoot, 'x')
    onTestFinished(() => rm(scratch, { recursive: true, force: true }))
    const broken = createRecordsUseCases(
      recordsPorts({ ...contextOf(), docservers: new FolderDocumentStore(brokenRoot) }),
    )
    const error = await broken.create(cchaplin, base).catch((e: unknown) => e as Error)
    expect(error).toMatchObject({
      kind: 'internal',
      message: '[ResController create] [storeResource] Resource could not be created',
    })
  })
})

describe('mailroom fsck (checkDocumentStorage)', () => {
  it('removes orphans, lists them on a dry run, and reports missing and altered files', async () => {
    const ok = await services().create(cchaplin, base)
    const gone = await services().create(cchaplin, base)
    const altered = await services().create(cchaplin, base)
    await root.remove(await keyOfRecord(gone.resId))
    await putStoredFile(root, await keyOfRecord(altered.resId), 'tampered')
    const orphan = 'resources/2020/01/0001/deadbeef.pdf'
    await putStoredFile(root, orphan, PDF)
    // Object stores date objects to the second: the fresh file is written in a later second than the orphan.
    await sleep(1_100)
    const fresh = 'resources/2020/01/0001/fresh.pdf'
    await putStoredFile(root, fresh, PDF)
    // The store's own dates, so no clock but the store's matters: the orphan is older than the grace, the fresh file is not.
    const dates = new Map<string, number>()
    for await (const listed of root.list()) dates.set(listed.key, listed.modifiedMs)
    const now = new Date(dates.get(fresh)!)
    const orphanGraceMs = (dates.get(fresh)! - dates.get(orphan)!) / 2
    expect(orphanGraceMs).toBeGreaterThan(0)

    const dry = await checkDocumentStorage(t.mailroom.db, root, { dryRun: true, now, orphanGraceMs })
    expect(dry.orphans).toEqual(['resources/2020/01/0001/deadbeef.pdf'])
    expect(dry.removed).toEqual([])
    expect(dry.problems.filter((p) => p.resId === gone.resId).map((p) => p.problem)).toEqual(['missing'])
    expect(dry.problems.filter((p) => p.resId === altered.resId).map((p) => p.problem)).toEqual(['fingerprint'])
    expect(dry.problems.some((p) => p.resId === ok.resId)).toBe(false)
    expect((await storedFiles()).includes(orphan)).toBe(true)

    const real = await checkDocumentStorage(t.mailroom.db, root, { now, orphanGraceMs })
    expect(real.removed).toEqual(['resources/2020/01/0001/deadbeef.pdf'])
    expect((await storedFiles()).includes(orphan)).toBe(false)
    // A file younger than the grace period may belong to a create in flight: kept.
    expect((await storedFiles()).includes(fresh)).toBe(true)
  })
})

describe("the indexing model's disabled fields (reference §2.1 step 2)", () => {
  // Late evening UTC on a leap day: `_TODAY` must be the create's own clock, as a UTC day.
  const pinned = { now: () => new Date('2024-02-29T23:30:00Z') }
  const pinnedServices = () => createRecordsUseCases(recordsPorts(contextOf(pinned)))
  let locked: number

  async function model(
    category: string,
    fields: { identifier: string; enabled: boolean; defaultValue: unknown }[],
  ): Promise<number> {
    const { id } = await t.mailroom.db
      .insertInto('indexing_models')
      .values({ label: `Modèle ${category}`, category, owner: null, master: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    for (const f of fields) {
      await t.mailroom.db
        .insertInto('indexing_models_fields')
        .values({
          model_id: id,
          identifier: f.identifier,
          enabled: f.enabled,
          default_value: f.defaultValue === null ? null : JSON.stringify(f.defaultValue),
          unit: null,
        })
        .execute()
    }
    return id
  }
  const row = (resId: number) =>
    t.mailroom.db.selectFrom('res_letterbox').selectAll().where('res_id', '=', resId).executeTakeFirstOrThrow()

  beforeAll(async () => {
    locked = await model('incoming', [
      { identifier: 'subject', enabled: false, defaultValue: 'Objet imposé' },
      { identifier: 'documentDate', enabled: false, defaultValue: '_TODAY' },
      { identifier: 'destination', enabled: false, defaultValue: '#myPrimaryEntity' },
      { identifier: 'indexingCustomField_1', enabled: false, defaultValue: 'REF-MODÈLE' },
      { identifier: 'indexingCustomField_2', enabled: false, defaultValue: '_TODAY' },
      { identifier: 'initiator', enabled: false, defaultValue: 7 },
      { identifier: 'priority', enabled: false, defaultValue: null },
      // Enabled: its default is only a suggestion to the client, never forced.
      { identifier: 'doctype', enabled: true, defaultValue: 105 },
    ])
  })

  it('overwrites the values the client sent with the defaults, _TODAY and #myPrimaryEntity resolved', async () => {
    const { resId } = await pinnedServices().create(cchaplin, {
      modelId: locked,
      status: 'NEW',
      doctype: 101,
      subject: 'Objet du client',
      documentDate: '2020-01-01',
      destination: 8,
      priority: 'poiuytre1379nbvc',
      customFields: { '1': 'REF-CLIENT', '3': 'Mail' },
    })
    const r = await row(resId)
    expect(r).toMatchObject({
      model_id: locked,
      type_id: 101,
      subject: 'Objet imposé',
      destination: 'VILLE',
      priority: null,
      custom_fields: { '1': 'REF-MODÈLE', '2': '2024-02-29', '3': 'Mail' },
    })
    expect(r.doc_date?.toISOString()).toBe('2024-02-29T00:00:00.000Z')
  })

  it('never forces initiator: the client value stays, and none is added', async () => {
    const sent = await pinnedServices().create(cchaplin, { modelId: locked, status: 'NEW', initiator: 8 })
    expect((await row(sent.resId)).initiator).toBe('COU')
    const absent = await pinnedServices().create(cchaplin, { modelId: locked, status: 'NEW' })
    expect((await row(absent.resId)).initiator).toBeNull()
  })

  it("takes #myPrimaryEntity from the acting user's primary entity, and null when there is none", async () => {
    const bbain = (await new KyselyUserRepository(t.mailroom.db).loadActor(3))!
    expect(
      (await row((await pinnedServices().create(bbain, { modelId: locked, status: 'NEW' })).resId)).destination,
    ).toBe('PJS')
    // ppetit belongs to COU and CAB; with neither flagged primary, nothing stands for #myPrimaryEntity.
    await t.mailroom.db.updateTable('users_entities').set({ primary_entity: 'N' }).where('user_id', '=', 5).execute()
    try {
      const ppetit = (await new KyselyUserRepository(t.mailroom.db).loadActor(5))!
      expect(
        (await row((await pinnedServices().create(ppetit, { modelId: locked, status: 'NEW', destination: 8 })).resId))
          .destination,
      ).toBeNull()
    } finally {
      await t.mailroom.db
        .updateTable('users_entities')
        .set({ primary_entity: 'Y' })
        .where('user_id', '=', 5)
        .where('entity_id', '=', 'COU')
        .execute()
    }
  })

  it('reports a forced value that fails a check with the usual message', async () => {
    const bad = await model('incoming', [{ identifier: 'doctype', enabled: false, defaultValue: 999 }])
    await expect(services().create(cchaplin, { modelId: bad, status: 'NEW', doctype: 101 })).rejects.toMatchObject({
      message: 'Body doctype does not exist',
    })
  })

  it('forces nothing on the earlier form, even through the model of its category', async () => {
    const registered = await model('registeredMail', [
      { identifier: 'subject', enabled: false, defaultValue: 'Objet imposé' },
    ])
    const { resId } = await services().create(cchaplin, {
      status: 'NEW',
      format: 'pdf',
      encodedFile: PDF_BASE64,
      type_id: 101,
      category_id: 'registeredMail',
      subject: 'Ancien',
    })
    expect(await row(resId)).toMatchObject({ model_id: registered, category_id: 'registeredMail', subject: 'Ancien' })
  })
})

describe('followed and integrations (reference §2.1 column mapping, §2.3)', () => {
  const followers = (resId: number) =>
    t.mailroom.db
      .selectFrom('users_followed_resources')
      .select(['user_id', 'res_id'])
      .where('res_id', '=', resId)
      .execute()
  const integrations = async (resId: number) =>
    (
      await t.mailroom.db
        .selectFrom('res_letterbox')
        .select('integrations')
        .where('res_id', '=', resId)
        .executeTakeFirstOrThrow()
    ).integrations

  it('makes the acting user (not the typist) follow the record when followed is truthy', async () => {
    for (const followed of [true, 'true', 1]) {
      const { resId } = await services().create(cchaplin, { modelId: 1, status: 'NEW', typist: 4, followed })
      expect(await followers(resId), String(followed)).toEqual([{ user_id: 2, res_id: resId }])
    }
    for (const followed of [false, 'false', 0, undefined]) {
      const { resId } = await services().create(cchaplin, { modelId: 1, status: 'NEW', followed })
      expect(await followers(resId), String(followed)).toEqual([])
    }
  })

  it('writes the followed row in the record transaction: a failed create leaves none', async () => {
    const before = await count('users_followed_resources')
    const failing = services({
      beforeCommit: () => {
        throw new Error('injected failure')
      },
    })
    await expect(failing.create(cchaplin, { modelId: 1, status: 'NEW', followed: true })).rejects.toMatchObject({
      kind: 'internal',
    })
    expect(await count('users_followed_resources')).toBe(before)
  })

  it('stores integrations as two booleans when a file is sent, whatever form the client used', async () => {
    const cases: [unknown, { inSignatureBook: boolean; inShipping: boolean }][] = [
      [
        { inSignatureBook: true, inShipping: false },
        { inSignatureBook: true, inShipping: false },
      ],
      [
        { inSignatureBook: 'false', inShipping: 'true' },
        { inSignatureBook: false, inShipping: true },
      ],
      [
        { inSignatureBook: 1, inShipping: 0, inMailing: true, other: 'x' },
        { inSignatureBook: true, inShipping: false },
      ],
      [{ inShipping: '1' }, { inSignatureBook: false, inShipping: true }],
    ]
    for (const [sent, stored] of cases) {
      const { resId } = await services().create(cchaplin, { ...base, integrations: sent })
      expect(await integrations(resId), JSON.stringify(sent)).toEqual(stored)
    }
  })

  it('writes both flags false without a file, or without integrations, as 20.10 does', async () => {
    const noFile = await services().create(cchaplin, {
      modelId: 1,
      status: 'NEW',
      integrations: { inSignatureBook: true, inShipping: true },
    })
    expect(await integrations(noFile.resId)).toEqual({ inSignatureBook: false, inShipping: false })
    const notSent = await services().create(cchaplin, base)
    expect(await integrations(notSent.resId)).toEqual({ inSignatureBook: false, inShipping: false })
  })

  it('refuses integrations that are not an object or flags that are not booleans', async () => {
    await expect(services().create(cchaplin, { ...base, integrations: 'yes' })).rejects.toMatchObject({
      message: 'Body integrations is not an object',
    })
    await expect(
      services().create(cchaplin, { ...base, integrations: { inSignatureBook: 'maybe' } }),
    ).rejects.toMatchObject({
      message: 'Body integrations[inSignatureBook] is not a boolean',
    })
  })
})

describe('chrono merge into office files (reference §2.2)', () => {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
  const stored = async (resId: number) => {
    const r = await t.mailroom.db
      .selectFrom('res_letterbox')
      .selectAll()
      .where('res_id', '=', resId)
      .executeTakeFirstOrThrow()
    const bytes = new Uint8Array(await readStoredFile(root, storedKey(root, 'resources', r.path!, r.filename!)))
    return { row: r, bytes }
  }
  const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
  const journalMentions = async (hash: string) =>
    (
      await sql<{
        n: number
      }>`select ((select count(*) from journal_events e where e::text like ${`%${hash}%`}) + (select count(*) from journal_pending p where p::text like ${`%${hash}%`}))::int as n`.execute(
        t.mailroom.db,
      )
    ).rows[0]!.n
  const withPlaceholder = docx([run(`Chrono : ${P}`), run('[res_letterbox.') + run('alt_identifier] &amp; suite')])

  it('writes the chrono into the docx, with the size, fingerprint and journal deposit of the merged bytes', async () => {
    const { resId } = await services().create(cchaplin, {
      modelId: 1,
      status: 'NEW',
      chrono: true,
      format: 'docx',
      encodedFile: b64(withPlaceholder),
    })
    const { row, bytes } = await stored(resId)
    expect(row.alt_identifier).toMatch(/^MAARCH\/\d{4}A\/\d+$/)
    expect(wordParagraphs(partOf(bytes, 'word/document.xml'))).toEqual([
      `Chrono : ${row.alt_identifier}`,
      `${row.alt_identifier} &amp; suite`,
    ])
    expect(row.filesize).toBe(bytes.length)
    expect(row.fingerprint).toBe(sha(bytes))
    expect(row.filename).toMatch(/^[0-9a-f]{32}\.docx$/)
    expect(await journalMentions(sha(bytes))).toBe(1)
    expect(await journalMentions(sha(withPlaceholder))).toBe(0)
    expect((await storedFiles()).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('fills xlsx and odt files too, on the earlier form as well', async () => {
    const sheet = await services().create(cchaplin, {
      modelId: 2,
      status: 'NEW',
      chrono: true,
      format: 'xlsx',
      encodedFile: b64(xlsx(`<t>${P}</t>`, P)),
    })
    const s1 = await stored(sheet.resId)
    expect(partOf(s1.bytes, 'xl/sharedStrings.xml')).toContain(`<si><t>${s1.row.alt_identifier}</t></si>`)
    const text = await services().create(cchaplin, {
      status: 'NEW',
      format: 'odt',
      encodedFile: b64(odt(P)),
      type_id: 101,
      category_id: 'incoming',
      chrono: true,
    })
    const s2 = await stored(text.resId)
    expect(s2.row.alt_identifier).toMatch(/^MAARCH\/\d{4}A\/\d+$/)
    expect(partOf(s2.bytes, 'content.xml')).toContain(`<text:p>${s2.row.alt_identifier}</text:p>`)
  })

  it('stores a file without the placeholder byte for byte, with or without a chrono', async () => {
    const plain = docx([run('Aucun champ')])
    for (const chrono of [true, false]) {
      const { resId } = await services().create(cchaplin, {
        modelId: 1,
        status: 'NEW',
        chrono,
        format: 'docx',
        encodedFile: b64(plain),
      })
      const { row, bytes } = await stored(resId)
      expect(bytes).toEqual(plain)
      expect(row.fingerprint).toBe(sha(plain))
    }
  })

  it('empties the field when the record gets no chrono (none asked, or a category without chrono)', async () => {
    for (const [modelId, chrono] of [
      [1, false],
      [4, true],
    ] as const) {
      const { resId } = await services().create(cchaplin, {
        modelId,
        status: 'NEW',
        chrono,
        format: 'docx',
        encodedFile: b64(withPlaceholder),
      })
      const { row, bytes } = await stored(resId)
      expect(row.alt_identifier).toBeNull()
      expect(wordParagraphs(partOf(bytes, 'word/document.xml'))).toEqual(['Chrono : ', ' &amp; suite'])
      expect(row.fingerprint).toBe(sha(bytes))
    }
  })

  it('puts the QR code naming the record and the chrono barcode into tagged pictures', async () => {
    const file = docxWithPictures([
      picture('rId4', '[attachments.chronoQrCode;ope=changepic;tagpos=inside;adjust;unique]'),
      picture('rId4', '[attachments.chronoBarCode;ope=changepic;tagpos=inside;adjust;unique]'),
      run(`Chrono : ${P}`),
    ])
    const subject = 'Demande d’accès / dossier n°12'
    const { resId } = await services().create(cchaplin, {
      modelId: 1,
      status: 'NEW',
      chrono: true,
      subject,
      format: 'docx',
      encodedFile: b64(file),
    })
    const { row, bytes } = await stored(resId)
    const qr = JSON.parse(readCode(entryOf(bytes, 'word/media/mailroom-chrono-qrcode.png') as Uint8Array, 'qrCode'))
    expect(qr).toEqual({ chrono: row.alt_identifier, resIdMaster: resId, resId: null, title: subject })
    expect(readCode(entryOf(bytes, 'word/media/mailroom-chrono-barcode.png') as Uint8Array, 'code128')).toBe(
      row.alt_identifier,
    )
    expect(row.fingerprint).toBe(sha(bytes))
    expect(await journalMentions(sha(bytes))).toBe(1)
    // Without a chrono the QR code still names the record; the barcode picture keeps its image.
    const plain = await services().create(cchaplin, {
      modelId: 1,
      status: 'NEW',
      format: 'docx',
      encodedFile: b64(file),
    })
    const s2 = await stored(plain.resId)
    expect(
      JSON.parse(readCode(entryOf(s2.bytes, 'word/media/mailroom-chrono-qrcode.png') as Uint8Array, 'qrCode')),
    ).toEqual({
      chrono: '',
      resIdMaster: plain.resId,
      resId: null,
      title: null,
    })
    expect(entryOf(s2.bytes, 'word/media/mailroom-chrono-barcode.png')).toBeUndefined()
  })

  it('stores a damaged office file as sent', async () => {
    const damaged = withPlaceholder.slice(0, withPlaceholder.length - 30)
    // The zip's central directory is cut off: the sniffer still sees a docx, the merge cannot read it.
    const { resId } = await services().create(cchaplin, {
      modelId: 1,
      status: 'NEW',
      chrono: true,
      format: 'docx',
      encodedFile: b64(damaged),
    })
    expect((await stored(resId)).bytes).toEqual(damaged)
  })

  describe('atomicity of the merge path: a failure leaves neither row nor file nor number', () => {
    for (const [point, faults] of FAULT_POINTS) {
      it(point, async () => {
        const first = await services().create(cchaplin, {
          modelId: 3,
          status: 'NEW',
          chrono: true,
          format: 'docx',
          encodedFile: b64(withPlaceholder),
        })
        const [files, rows, history, events] = [
          await storedFiles(),
          await count('res_letterbox'),
          await count('history'),
          await journalCount(),
        ]
        let written: string | null = null
        const spy: RecordCreateFaults = {
          ...faults,
          afterFileWrite: (document) => {
            written = document.key
            if ('afterFileWrite' in faults) faults.afterFileWrite()
          },
        }
        const attempt = services(spy).create(cchaplin, {
          modelId: 3,
          status: 'NEW',
          chrono: true,
          format: 'docx',
          encodedFile: b64(withPlaceholder),
        })
        await expect(attempt).rejects.toMatchObject({
          kind: 'internal',
          message: '[ResController create] [storeResource] Resource could not be created',
        })
        expect(written).not.toBeNull()
        expect(await storedFiles()).toEqual(files)
        expect([await count('res_letterbox'), await count('history'), await journalCount()]).toEqual([
          rows,
          history,
          events,
        ])
        // The number of the failed create is given back: the next one follows the first, and says so inside.
        const next = await services().create(cchaplin, {
          modelId: 3,
          status: 'NEW',
          chrono: true,
          format: 'docx',
          encodedFile: b64(withPlaceholder),
        })
        const [a, b] = [(await stored(first.resId)).row.alt_identifier!, await stored(next.resId)]
        expect(Number(b.row.alt_identifier!.split('/')[2])).toBe(Number(a.split('/')[2]) + 1)
        expect(wordParagraphs(partOf(b.bytes, 'word/document.xml'))[0]).toBe(`Chrono : ${b.row.alt_identifier}`)
      })
    }
  })

  it('gives 50 parallel creates of a docx 50 consecutive chrono numbers, each written in its own file', async () => {
    const created = await Promise.all(
      Array.from({ length: 50 }, () =>
        services().create(cchaplin, {
          modelId: 2,
          status: 'NEW',
          chrono: true,
          format: 'docx',
          encodedFile: b64(withPlaceholder),
        }),
      ),
    )
    const files = await Promise.all(created.map((c) => stored(c.resId)))
    const numbers = files.map(({ row, bytes }) => {
      expect(wordParagraphs(partOf(bytes, 'word/document.xml'))[0]).toBe(`Chrono : ${row.alt_identifier}`)
      expect(row.fingerprint).toBe(sha(bytes))
      return Number(row.alt_identifier!.split('/')[2])
    })
    numbers.sort((a, b) => a - b)
    expect(new Set(numbers).size).toBe(50)
    expect(numbers.at(-1)! - numbers[0]!).toBe(49)
  })
})

/** The optional parts of a create, each of which has its own rows (and its own part of the create statement). */
const OPTIONAL_PARTS = {
  diffusionList: {
    diffusionList: [
      { id: 3, type: 'user', mode: 'dest' },
      { id: 4, type: 'entity', mode: 'cc' },
    ],
  },
  senders: {
    senders: [
      { id: 1, type: 'contact' },
      { id: 3, type: 'user' },
    ],
  },
  folders: { folders: [2] },
  tags: { tags: [1, 3] },
  followed: { followed: true },
  file: { encodedFile: PDF_BASE64, format: 'pdf' },
} as const

type Part = keyof typeof OPTIONAL_PARTS

async function rowCounts(resId: number): Promise<Record<Part, number>> {
  const db = t.mailroom.db
  const count = async (
    table:
      | 'listinstance'
      | 'resource_contacts'
      | 'resources_folders'
      | 'resources_tags'
      | 'users_followed_resources'
      | 'journal_archives',
  ) => (await db.selectFrom(table).select('res_id').where('res_id', '=', resId).execute()).length
  return {
    diffusionList: await count('listinstance'),
    senders: await count('resource_contacts'),
    folders: await count('resources_folders'),
    tags: await count('resources_tags'),
    followed: await count('users_followed_resources'),
    file: await count('journal_archives'),
  }
}

describe('create statement shapes', () => {
  it('stores exactly the rows of the parts a body has, for every combination of parts', async () => {
    const expected: Record<Part, number> = { diffusionList: 2, senders: 2, folders: 1, tags: 2, followed: 1, file: 1 }
    await fc.assert(
      fc.asyncProperty(fc.subarray(Object.keys(OPTIONAL_PARTS) as Part[]), async (parts) => {
        const body = Object.assign(
          { modelId: 1, status: 'NEW', subject: `shape ${parts.join(' ')}` },
          ...parts.map((part) => OPTIONAL_PARTS[part]),
        )
        const { resId } = await t.mailroom.records.create(cchaplin, body)
        const counts = await rowCounts(resId)
        for (const part of Object.keys(OPTIONAL_PARTS) as Part[])
          expect(counts[part], part).toBe(parts.includes(part) ? expected[part] : 0)
        const history = await t.mailroom.db
          .selectFrom('history')
          .select('event_id')
          .where('record_id', '=', String(resId))
          .execute()
        expect(history).toEqual([{ event_id: 'resourceCreation' }])
      }),
      { numRuns: 40 },
    )
  })
})
