import { createHash } from 'node:crypto'
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { VERIFY_KINDS } from '@mailroom/import-maarch'
import { type Database, documentStoreFor, openDatabase } from '@mailroom/mailroom'
import { type Kysely, sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ImportMaarchSetup } from '../../test/import-maarch-setup.js'

const setup = new ImportMaarchSetup({ records: 14, dataDirPrefix: 'mailroom-import-verify-' })
beforeAll(async () => {
  await setup.create()
  const imported = await setup.importMaarch([])
  expect(imported.code).toBe(0)
}, 180_000)
afterAll(() => setup.drop())
const verify = (args: string[] = []) => setup.importMaarch(['--verify', ...args])

/** Runs `use` on the target's database, opened by the test while no command holds it. */
async function onTarget<T>(use: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const opened = await openDatabase(
    setup.database.url
      ? { kind: 'postgres', url: setup.database.url }
      : { kind: 'pglite', dataDir: join(setup.dataDir, 'pglite') },
  )
  try {
    return await use(opened.db)
  } finally {
    await opened.close()
  }
}

async function onSource<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: setup.source.url })
  await client.connect()
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/** The stored file of a record's original in the target, on disk. */
const originalOf = (resId: number) =>
  onTarget(async (db) => {
    const row = await db
      .selectFrom('res_letterbox as r')
      .innerJoin('docservers as d', 'd.docserver_id', 'r.docserver_id')
      .select(['d.path_template', 'r.path', 'r.filename'])
      .where('r.res_id', '=', resId)
      .executeTakeFirstOrThrow()
    const { store } = documentStoreFor({ docserverDir: join(setup.dataDir, 'docservers') })
    return store.localPath(store.keyOf(row.path_template, row.path ?? '', row.filename ?? '')!)!
  })

const TABLES = [
  'users',
  'usergroups',
  'entities',
  'contacts',
  'res_letterbox',
  'adr_letterbox',
  'res_attachments',
  'notes',
  'history',
  'listinstance',
  'parameters',
]

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const file = join(entry.parentPath, entry.name)
      out.push(
        `${relative(root, file)} ${createHash('sha256')
          .update(await readFile(file))
          .digest('hex')}`,
      )
    }
  return out.sort()
}

/** Every row (count and digest of the table's rows) and every file's bytes, on both sides. */
async function snapshot() {
  const digest = `count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as md5`
  const target = await onTarget(async (db) => {
    const out: Record<string, unknown> = {}
    for (const table of [...TABLES, 'chrono_counters', 'journal_events'])
      out[table] = (await sql.raw(`select ${digest} from ${table} t`).execute(db)).rows[0]
    return out
  })
  const sourceRows = await onSource(async (client) => {
    const out: Record<string, unknown> = {}
    for (const table of TABLES) out[table] = (await client.query(`select ${digest} from ${table} t`)).rows[0]
    return out
  })
  return {
    target,
    source: sourceRows,
    targetFiles: await filesUnder(join(setup.dataDir, 'docservers')),
    sourceFiles: await filesUnder(setup.source.docservers),
  }
}

/** Runs --verify with `--json` and without, checking that it changed nothing on either side. */
async function verifyChangingNothing() {
  const before = await snapshot()
  const text = await verify()
  const json = await verify(['--json'])
  expect(await snapshot()).toEqual(before)
  expect(json.code).toBe(text.code)
  return { text, report: JSON.parse(json.out) as Report }
}

interface Report {
  ok: boolean
  differences: { kind: string; id: string; what: string; source?: string | null; target?: string | null }[]
  kinds: { kind: string; source: number; target: number; differences: number }[]
}
const kind = (report: Report, name: string) => report.kinds.find((k) => k.kind === name)

describe('mailroom import maarch --verify', () => {
  it('finds a clean import whole: every kind counted alike on both sides, exit code 0, nothing changed', async () => {
    const { text, report } = await verifyChangingNothing()
    expect(text.code).toBe(0)
    expect(text.out).not.toMatch(/DIFFERS/)
    expect(text.out).toMatch(/\nsource and target agree\n$/)
    expect(text.out).toMatch(/\nrecords\s+14\s+14\s+0\n/)
    expect(report.ok).toBe(true)
    expect(report.differences).toEqual([])
    expect(report.kinds.map((k) => k.kind)).toEqual([...VERIFY_KINDS])
    for (const k of report.kinds) {
      expect(k.differences, k.kind).toBe(0)
      expect(k.source, k.kind).toBeGreaterThan(0)
      // A converted PDF already missing in Maarch is on neither side: counted in the source only, and noted.
      if (k.kind !== 'files') expect(k.target, k.kind).toBe(k.source)
    }
    expect(kind(report, 'records')).toMatchObject({ source: 14, target: 14 })
    expect(text.out).toMatch(/expected: record \d+ PDF version 1: .* is on neither side\n/)
  }, 120_000)

  it('says how far it is: a JSON line per interval on standard error, the last one at every record and attachment', async () => {
    const attachments = await onSource(
      async (client) =>
        (await client.query(`select count(*)::int as n from res_attachments where coalesce(status, '') <> 'DEL'`))
          .rows[0].n as number,
    )
    expect(attachments).toBeGreaterThan(0)
    const run = await verify(['--progress-interval', '0'])
    expect(run.code).toBe(0)
    const lines = run.err
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, number | string | null>)
    // Standard error is not a terminal here: one line per range compared (records, then attachments), and the closing one.
    expect(lines.length).toBeGreaterThanOrEqual(3)
    const total = 14 + attachments
    for (const line of lines)
      expect(line).toMatchObject({
        event: 'progress',
        total,
        verified: expect.any(Number),
        bytes: expect.any(Number),
        itemsPerSecond: expect.any(Number),
      })
    const verified = lines.map((line) => line.verified as number)
    expect(verified).toEqual([...verified].sort((a, b) => a - b))
    expect(verified[0]).toBe(14)
    expect(lines.at(-1)).toMatchObject({ verified: total, secondsLeft: 0 })
    expect(lines.at(-1)?.bytes).toBeGreaterThan(0)
    // Standard output is the verification alone.
    expect(run.out).toMatch(/\nsource and target agree\n$/)
  }, 120_000)

  it('finds a target file deleted, names it, and changes nothing', async () => {
    const file = await originalOf(1)
    const bytes = await readFile(file)
    await rm(file)
    try {
      const { text, report } = await verifyChangingNothing()
      expect(text.code).toBe(1)
      expect(text.out).toMatch(
        /^DIFFERS {2}files record 1 original: the target's file is missing \(source \(none\); target .+\)$/m,
      )
      expect(text.out).toMatch(/\n1 difference: see the DIFFERS lines above\n$/)
      expect(report.ok).toBe(false)
      expect(report.differences).toEqual([
        {
          kind: 'files',
          id: 'record 1 original',
          what: "the target's file is missing",
          source: null,
          target: expect.any(String),
        },
      ])
      expect(kind(report, 'files')?.differences).toBe(1)
    } finally {
      await writeFile(file, bytes)
    }
  }, 120_000)

  it('finds a byte changed in a target file by its fingerprint, and changes nothing', async () => {
    const file = await originalOf(2)
    const bytes = await readFile(file)
    const changed = Buffer.from(bytes)
    changed[100] = changed[100]! ^ 0x01
    await writeFile(file, changed)
    try {
      const { text, report } = await verifyChangingNothing()
      expect(text.code).toBe(1)
      const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')
      expect(report.differences).toEqual([
        {
          kind: 'files',
          id: 'record 2 original',
          what: "the target's bytes do not match its stored fingerprint (SHA256)",
          source: sha256(bytes),
          target: sha256(changed),
        },
      ])
      expect(text.out).toContain(
        `DIFFERS  files record 2 original: the target's bytes do not match its stored fingerprint (SHA256) (source ${sha256(bytes)}; target ${sha256(changed)})`,
      )
    } finally {
      await writeFile(file, bytes)
    }
  }, 120_000)

  it('finds a history row missing in the target, says which, and changes nothing', async () => {
    const removed = await onTarget(async (db) => {
      const row = await db
        .selectFrom('history')
        .selectAll()
        .where('table_name', '=', 'res_letterbox')
        .where('record_id', '=', '3')
        .where('event_type', '<>', 'IMPORT')
        .orderBy('id')
        .executeTakeFirstOrThrow()
      await db.deleteFrom('history').where('id', '=', row.id).execute()
      return row
    })
    try {
      const { text, report } = await verifyChangingNothing()
      expect(text.code).toBe(1)
      expect(report.differences).toEqual([
        {
          kind: 'history',
          id: 'record 3',
          what: 'missing in the target',
          source: expect.stringContaining(removed.event_type),
        },
      ])
      expect(kind(report, 'history')).toMatchObject({ target: kind(report, 'history')!.source - 1, differences: 1 })
      expect(text.out).toMatch(/^DIFFERS {2}history rows record 3: missing in the target \(source .+\)$/m)
    } finally {
      await onTarget((db) => db.insertInto('history').values(removed).execute())
    }
  }, 120_000)

  it('finds a record in the target that the source does not have, and changes nothing', async () => {
    await onTarget((db) =>
      sql`insert into res_letterbox (res_id, subject, typist, category_id, model_id, status)
          select 1000, subject, typist, category_id, model_id, status from res_letterbox where res_id = 5`.execute(db),
    )
    try {
      const { text, report } = await verifyChangingNothing()
      expect(text.code).toBe(1)
      expect(report.differences).toEqual([
        { kind: 'records', id: '1000', what: 'in the target only, not in the source' },
      ])
      expect(kind(report, 'records')).toMatchObject({ source: 14, target: 15, differences: 1 })
      expect(text.out).toMatch(/^DIFFERS {2}records 1000: in the target only, not in the source$/m)
      expect(text.out).toMatch(/\nrecords\s+14\s+15\s+1\n/)
    } finally {
      await onTarget((db) => db.deleteFrom('res_letterbox').where('res_id', '=', 1000).execute())
    }
  }, 120_000)

  it('finds a record added to the source since the import, and changes nothing', async () => {
    await onSource((client) =>
      client.query(
        `create temporary table added as select * from res_letterbox where res_id = 6;
         update added set res_id = 1001, filename = null, docserver_id = null, path = null;
         insert into res_letterbox select * from added`,
      ),
    )
    try {
      const { text, report } = await verifyChangingNothing()
      expect(text.code).toBe(1)
      expect(report.differences).toEqual([{ kind: 'records', id: '1001', what: 'missing in the target' }])
      expect(kind(report, 'records')).toMatchObject({ source: 15, target: 14, differences: 1 })
    } finally {
      await onSource((client) => client.query('delete from res_letterbox where res_id = 1001'))
    }
  }, 120_000)

  it('agrees again once every damage is mended', async () => {
    const run = await verify()
    expect(run.code).toBe(0)
    expect(run.out).toMatch(/\nsource and target agree\n$/)
    // Standard error holds its progress only (not a terminal here: JSON lines).
    for (const line of run.err.trim().split('\n')) expect(JSON.parse(line)).toMatchObject({ event: 'progress' })
  }, 120_000)

  it('refuses --verify with the options of an import as a usage error', async () => {
    expect((await verify(['--dry-run'])).code).toBe(2)
    expect((await verify(['--only', 'records'])).code).toBe(2)
  })
})
