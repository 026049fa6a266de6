/**
 * Maarch import (issue #21): a Maarch 20.10 database grown from the fixtures' 20 sample records to N records
 * of the same shape (each record a copy of a sample one: same file, diffusion list, contacts, converted PDF),
 * imported with `importMaarch` (source read-only, fingerprints checked, files stored durably, one transaction
 * per batch of records with their history and journal deposits, batches written while the next is read), beside
 * two baselines in the same run that copy the same files and insert the same record, list and contact rows in
 * batches, without any check: the raw copy (files never fsynced: the issue's baseline) and the durable copy
 * (each file fsynced, as many at once as the import's batches: the floor of any copy as durable as the
 * import). After the measurement, the import is verified as `--verify` does it, and timed. The
 * organisation is applied to every target first, untimed. The import streams its JSON report to a file as
 * it goes, as `mailroom import maarch --report` does. RSS is sampled through both phases: memory is flat when
 * the import's RSS grows no more from its second quarter to its last than the baseline's does.
 *
 *   pnpm --filter @mailroom/bench run bench:import          (bench:import-million: BENCH_RECORDS=1000000)
 *   BENCH_RECORDS (default 2000); BENCH_BATCH_SIZE and BENCH_JOBS (the importer's --batch-size and --jobs);
 *   BENCH_DB=pglite for an embedded PGlite target (default: PostgreSQL at TEST_DATABASE_URL);
 *   BENCH_FILE_KB: every fixture file replaced by incompressible bytes of about that size (0.5-1.5 x, the
 *   source's fingerprints and sizes updated), so that a run at a million records fits a disk of tens of GB;
 *   BENCH_BASELINES (default `durable,raw`): which baselines run;
 *   MAILROOM_MAARCH_FIXTURES (default ../shared/fixtures/maarch-20.10 from the repository)
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { copyFile, mkdir, mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, extname, join, relative, resolve } from 'node:path'
import {
  checkFingerprint,
  DEFAULT_BATCH_SIZE,
  defaultJobs,
  importMaarch,
  JsonReportFile,
  maarchFilePath,
  openMaarchSource,
  RelatedRowsInOrder,
  verifyMaarchImport,
} from '@mailroom/import-maarch'
import { createMailroom, type Mailroom } from '@mailroom/mailroom'
import {
  createTestDatabase,
  postgresAdminUrl,
  TEST_PASSWORD_HASHER,
  TEST_SECRET,
  type TestDatabase,
} from '@mailroom/testing'
import pg from 'pg'
import { rssGrowth, sampledRss as sampled } from './rss-growth.js'

const records = Number(process.env.BENCH_RECORDS ?? 2000)
// The import's batches (records per transaction) and batches at once; the importer's defaults when unset.
const batching = {
  ...(process.env.BENCH_BATCH_SIZE ? { batchSize: Number(process.env.BENCH_BATCH_SIZE) } : {}),
  ...(process.env.BENCH_JOBS ? { jobs: Number(process.env.BENCH_JOBS) } : {}),
}
const kind = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgres'
// From bench/ (tsx) or bench/dist/ (built): the fixtures sit beside the repository.
const repository = resolve(import.meta.dirname, import.meta.dirname.endsWith('dist') ? '../..' : '..')
const fixtures = process.env.MAILROOM_MAARCH_FIXTURES ?? resolve(repository, '../shared/fixtures/maarch-20.10')
const FIRST_ID = 1000
const fileKb = process.env.BENCH_FILE_KB ? Number(process.env.BENCH_FILE_KB) : null
const baselines = (process.env.BENCH_BASELINES ?? 'durable,raw')
  .split(',')
  .filter((b) => b === 'durable' || b === 'raw')

/** A Maarch database: the fixtures, then `records` more rows copied from the samples. */
async function createSource(): Promise<{ url: string; drop(): void }> {
  const admin = new URL(postgresAdminUrl())
  const name = `maarch_bench_${randomBytes(4).toString('hex')}`
  const psql = (db: string, args: string[]) =>
    execFileSync(
      'psql',
      [
        '-h',
        admin.hostname,
        '-p',
        admin.port || '5432',
        '-U',
        admin.username || 'postgres',
        '-d',
        db,
        '-q',
        '-v',
        'ON_ERROR_STOP=1',
        ...args,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    )
  const drop = () => psql('postgres', ['-c', `drop database if exists ${name} with (force)`])
  psql('postgres', ['-c', `create database ${name}`])
  const url = new URL(admin)
  url.pathname = `/${name}`
  try {
    await fill(name, url.toString(), psql)
  } catch (error) {
    drop()
    throw error
  }
  return { url: url.toString(), drop }
}

/** The fixtures' three SQL files, then `records` more rows copied from the samples. */
async function fill(name: string, url: string, psql: (db: string, args: string[]) => void): Promise<void> {
  for (const file of ['structure.sql', 'data_fr.sql', 'sample.sql']) psql(name, ['-f', `${fixtures}/sql/${file}`])
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  if (fileKb !== null) await refingerprint(client)
  const sample = `from generate_series(1, ${records}) g join %s s on s.res_id = 1 + (g % 20)`
  await client.query(`insert into res_letterbox (res_id, subject, type_id, format, typist, creation_date, modification_date, doc_date, docserver_id, path, filename, fingerprint, filesize, status, destination, priority, category_id, alt_identifier, model_id, version, external_id, integrations, custom_fields, linked_resources)
    select ${FIRST_ID} + g, s.subject || ' #' || g, s.type_id, s.format, s.typist, s.creation_date, s.modification_date, s.doc_date, s.docserver_id, s.path, s.filename, s.fingerprint, s.filesize, s.status, s.destination, s.priority, s.category_id,
      case when s.alt_identifier is null then null else 'MAARCH/2020A/' || (${FIRST_ID} + g) end, s.model_id, s.version, s.external_id, s.integrations, s.custom_fields, s.linked_resources ${sample.replace('%s', 'res_letterbox')}`)
  await client.query(
    `insert into listinstance (res_id, sequence, item_id, item_type, item_mode, added_by_user, difflist_type) select ${FIRST_ID} + g, s.sequence, s.item_id, s.item_type, s.item_mode, s.added_by_user, s.difflist_type ${sample.replace('%s', 'listinstance')}`,
  )
  await client.query(
    `insert into resource_contacts (res_id, item_id, type, mode) select ${FIRST_ID} + g, s.item_id, s.type, s.mode ${sample.replace('%s', 'resource_contacts')}`,
  )
  await client.query(
    `insert into adr_letterbox (res_id, type, version, docserver_id, path, filename, fingerprint) select ${FIRST_ID} + g, s.type, s.version, s.docserver_id, s.path, s.filename, s.fingerprint ${sample.replace('%s', 'adr_letterbox')} where s.type = 'PDF'`,
  )
  // A Maarch installation in service has its statistics (autovacuum); a server with autovacuum off, as in CI,
  // would otherwise plan the reads of both the import and the baselines for the tables' first 20 rows.
  await client.query('analyze')
  await client.end()
}

/**
 * BENCH_FILE_KB: a copy of the fixtures' docservers whose every file is replaced by random bytes of about
 * `fileKb` KB (incompressible, as scans are), the same names in the same folders.
 */
async function synthesizedDocservers(root: string, kb: number): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'mailroom-import-bench-source-'))
  const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((f) => f.isFile())
  for (const [i, f] of files.entries()) {
    const to = join(copy, relative(root, join(f.parentPath, f.name)))
    await mkdir(dirname(to), { recursive: true })
    await writeFile(to, randomBytes(Math.round(kb * 1024 * (0.5 + (i % 11) / 10))))
  }
  return copy
}

/** The samples' fingerprints and sizes made those of the synthesized files, by their docservers' modes. */
async function refingerprint(client: pg.Client): Promise<void> {
  const docserverRows = await client.query(
    'select d.docserver_id, d.path_template, t.fingerprint_mode from docservers d left join docserver_types t using (docserver_type_id)',
  )
  const byId = new Map(docserverRows.rows.map((r) => [r.docserver_id as string, r]))
  for (const [table, key] of [
    ['res_letterbox', 'res_id'],
    ['adr_letterbox', 'id'],
    ['res_attachments', 'res_id'],
    ['adr_attachments', 'id'],
  ] as const) {
    const { rows } = await client.query(`select ${key} as key, docserver_id, path, filename from ${table}`)
    for (const row of rows) {
      const docserver = byId.get(row.docserver_id)
      const file =
        docserver &&
        maarchFilePath(docservers, row.docserver_id, docserver.path_template, row.path ?? '', row.filename ?? '')
      const bytes = file ? await readFile(file).catch(() => null) : null
      if (bytes === null) continue
      // As the importer computes it, whatever the docserver's mode names.
      const fingerprint = checkFingerprint(bytes, docserver.fingerprint_mode ?? null, null).computed
      const sized = table === 'res_letterbox' || table === 'res_attachments' ? ', filesize = $3' : ''
      await client.query(`update ${table} set fingerprint = $1${sized} where ${key} = $2`, [
        fingerprint,
        row.key,
        ...(sized ? [bytes.length] : []),
      ])
    }
  }
}

async function target(): Promise<{ db: TestDatabase; dir: string; mailroom: Mailroom }> {
  const db = await createTestDatabase(kind)
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-import-bench-'))
  const mailroom = await createMailroom({
    database: db.target,
    docserverDir: dir,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    // As `mailroom import maarch` opens it: no text extraction, conversion or journal sweep in this process, which
    // would otherwise run pdftotext and OCR on the imported records while the import is measured.
    converter: null,
    journal: { sweepIntervalMs: 0 },
    fulltext: { workers: 0 },
  })
  return { db, dir, mailroom }
}

const docservers = {
  root: fileKb === null ? `${fixtures}/docservers` : await synthesizedDocservers(`${fixtures}/docservers`, fileKb),
}

/**
 * A copy made durable as the import makes its files: each file fsynced once written, the folder fsynced once a
 * page's files are all there; `jobs` files at once, so that one file's fsync overlaps the others' writes.
 */
async function copyDurably(pairs: readonly (readonly [string, string])[], jobs: number, folder: string): Promise<void> {
  let next = 0
  const copyNext = async () => {
    while (next < pairs.length) {
      const [from, to] = pairs[next++]!
      try {
        await copyFile(from, to)
      } catch {
        continue // The fixtures name a few files they do not ship; the raw copy skips them too.
      }
      const copied = await open(to, 'r+')
      try {
        await copied.sync()
      } finally {
        await copied.close()
      }
    }
  }
  await Promise.all(Array.from({ length: jobs }, copyNext))
  const directory = await open(folder, 'r')
  try {
    await directory.sync()
  } finally {
    await directory.close()
  }
}

/** The source's rows as the baselines copy them, unchecked. */
type SourceRow = Record<string, any>

/**
 * The baselines: the same files copied, the same rows inserted in batches of 500, nothing checked or journalled.
 * `raw`: each file copied in turn, never fsynced (the issue's baseline); `durable`: the floor of any copy at the
 * import's durability (copyDurably). PostgreSQL's commits are durable in both.
 */
async function baselineCopy(
  sourceUrl: string,
  t: { dir: string; mailroom: Mailroom },
  mode: 'raw' | 'durable',
): Promise<number> {
  const source = await openMaarchSource(sourceUrl)
  // The lists, contacts and converted PDFs read in record order alongside the records, as the import reads them:
  // Maarch 20.10 has no index to look a page's rows up by res_id.
  const walk = await RelatedRowsInOrder.open(source, 0, ['listinstance', 'contacts', 'adr'])
  let bytes = 0
  const templates = new Map(
    (await source.rows('select docserver_id, path_template from docservers')).map((r) => [
      r.docserver_id as string,
      r.path_template as string,
    ]),
  )
  const out = join(t.dir, mode)
  await mkdir(out, { recursive: true })
  let after = 0
  for (;;) {
    const rows = await source.rows<SourceRow>(
      'select * from res_letterbox where res_id > $1 order by res_id limit 500',
      [after],
    )
    if (rows.length === 0) break
    after = Number(rows[rows.length - 1]?.res_id)
    const related = await walk.upTo(after)
    const all = (map: Map<number, Record<string, unknown>[]>) => [...map.values()].flat() as SourceRow[]
    const lists = all(related.listinstance)
    const contacts = all(related.contacts)
    const adr = all(related.adr)
    const pairs: [string, string][] = []
    for (const row of [...rows, ...adr]) {
      const file = maarchFilePath(
        docservers,
        row.docserver_id,
        templates.get(row.docserver_id) ?? '',
        row.path ?? '',
        row.filename ?? '',
      )
      if (file !== null) pairs.push([file, join(out, `${row.res_id}-${row.type ?? 'DOC'}${extname(file)}`)])
    }
    if (mode === 'durable') await copyDurably(pairs, batching.jobs ?? defaultJobs(), out)
    else
      for (const [file, copy] of pairs)
        try {
          await copyFile(file, copy)
        } catch {}
    for (const [, copy] of pairs) bytes += (await stat(copy).catch(() => ({ size: 0 }))).size
    await t.mailroom.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('res_letterbox')
        .values(
          rows.map(
            (r) =>
              ({
                res_id: r.res_id,
                subject: r.subject,
                type_id: r.type_id,
                format: r.format,
                typist: r.typist,
                creation_date: r.creation_date,
                status: r.status,
                destination: r.destination,
                priority: r.priority,
                category_id: r.category_id,
                alt_identifier: r.alt_identifier,
                model_id: r.model_id,
                version: r.version,
                docserver_id: 'FASTHD_MAN',
                path: `${mode}/`,
                filename: `${r.res_id}-DOC.pdf`,
                filesize: r.filesize,
              }) as never,
          ),
        )
        .execute()
      if (lists.length > 0)
        await trx
          .insertInto('listinstance')
          .values(
            lists.map((l) => ({
              res_id: l.res_id,
              sequence: l.sequence,
              item_id: l.item_id,
              item_type: l.item_type,
              item_mode: l.item_mode,
              difflist_type: l.difflist_type,
            })),
          )
          .execute()
      if (contacts.length > 0)
        await trx
          .insertInto('resource_contacts')
          .values(contacts.map((c) => ({ res_id: c.res_id, item_id: c.item_id, type: c.type, mode: c.mode })))
          .execute()
    })
  }
  await walk.close()
  await source.close()
  return bytes
}

/** RSS over a phase: at its start, after warm-up (second quarter's median), at its end (last quarter's median), highest. */
function describeRss(samplesMb: readonly number[]): string {
  const growth = rssGrowth(samplesMb)
  return `${samplesMb[0]!.toFixed(0)} MB at start, ${growth.warmMb.toFixed(0)} → ${growth.lastMb.toFixed(0)} MB from second to last quarter (${growth.lastMb - growth.warmMb >= 0 ? '+' : ''}${(growth.lastMb - growth.warmMb).toFixed(0)} MB), highest ${growth.highestMb.toFixed(0)} MB`
}

/**
 * How many records a report lists, parsed whole. Its entries are let go on return: held through the verification
 * after it (a million entries, a GB of heap), they made the verification's garbage collection its main work.
 */
async function recordsListed(reportPath: string): Promise<number> {
  return (JSON.parse(await readFile(reportPath, 'utf8')) as { records: unknown[] }).records.length
}

async function main(): Promise<void> {
  if (!baselines.includes('raw')) throw new Error('BENCH_BASELINES must include raw: the ratio is to the raw copy')
  const source = await createSource()
  const total = records + 20
  const imported = await target()
  const durable = baselines.includes('durable') ? await target() : null
  const raw = await target()
  const targets = [imported, ...(durable ? [durable] : []), raw]
  const reportPath = join(imported.dir, 'import-report.json')
  try {
    for (const t of targets)
      await importMaarch(t.mailroom, { from: source.url, docservers, docserverDir: t.dir, only: 'reference' })

    const reportFile = await JsonReportFile.create(reportPath)
    // A long run says how far it is, every tenth of the records, with the rate since the last line.
    const tenth = Math.max(1, Math.ceil(total / 10))
    let mark = { records: 0, at: performance.now() }
    const progress = (p: { records: number }) => {
      if (total < 100_000 || p.records - mark.records < tenth) return
      const rate = (p.records - mark.records) / ((performance.now() - mark.at) / 1000)
      console.log(`  … ${p.records} records imported, ${rate.toFixed(0)} records/s since the last line`)
      mark = { records: p.records, at: performance.now() }
    }
    const importing = await sampled(async () => {
      const summary = await importMaarch(imported.mailroom, {
        from: source.url,
        docservers,
        docserverDir: imported.dir,
        only: 'records',
        report: reportFile,
        onProgress: progress,
        ...batching,
      })
      await reportFile.finish(summary)
      return summary
    })
    const report = importing.result
    const importSeconds = importing.seconds
    const copyingDurably = durable ? await sampled(() => baselineCopy(source.url, durable, 'durable')) : null
    const copying = await sampled(() => baselineCopy(source.url, raw, 'raw'))
    const rawBytes = copying.result
    const rawSeconds = copying.seconds

    const mb = (n: number) => n / 1024 / 1024
    const importBytes = report.bytes
    console.log(
      `Maarch import, ${total} records (${kind} target, ${report.counts.imported} imported; batches of ${batching.batchSize ?? DEFAULT_BATCH_SIZE}, ${batching.jobs ?? defaultJobs()} at once${fileKb === null ? '' : `; files of about ${fileKb} KB`})`,
    )
    console.log(
      `  import     ${(total / importSeconds).toFixed(1)} records/s  ${(mb(importBytes) / importSeconds).toFixed(2)} MB/s (originals)  ${importSeconds.toFixed(1)} s`,
    )
    console.log(
      `  raw copy   ${(total / rawSeconds).toFixed(1)} records/s  ${(mb(rawBytes) / rawSeconds).toFixed(2)} MB/s (originals and PDFs)  ${rawSeconds.toFixed(1)} s`,
    )
    if (copyingDurably) {
      const durableSeconds = copyingDurably.seconds
      console.log(
        `  durable copy ${(total / durableSeconds).toFixed(1)} records/s  ${(mb(copyingDurably.result) / durableSeconds).toFixed(2)} MB/s (originals and PDFs, each fsynced)  ${durableSeconds.toFixed(1)} s`,
      )
      console.log(
        `  import / durable copy: ${(durableSeconds / importSeconds).toFixed(2)}; durable / raw: ${(rawSeconds / durableSeconds).toFixed(2)}`,
      )
    }
    console.log(`  import / raw: ${(rawSeconds / importSeconds).toFixed(2)} of the baseline's record rate`)
    const peak = (samples: readonly number[]) => Math.max(...samples).toFixed(0)
    console.log(`  peak RSS:     import ${peak(importing.samplesMb)} MB, raw copy ${peak(copying.samplesMb)} MB`)
    console.log(`  RSS import:   ${describeRss(importing.samplesMb)}`)
    console.log(`  RSS raw copy: ${describeRss(copying.samplesMb)}`)
    // After the measurement: the streamed report is one valid JSON document listing every record.
    const listed = await recordsListed(reportPath)
    console.log(`  report: ${mb((await stat(reportPath)).size).toFixed(1)} MB of JSON, ${listed} record entries, valid`)
    if (listed !== total) throw new Error(`the report lists ${listed} records, expected ${total}`)
    // What `mailroom import maarch --verify` takes on this import: both sides re-read, every file hashed.
    const verifying = await sampled(() => verifyMaarchImport(imported.mailroom, { from: source.url, docservers }))
    const verification = verifying.result
    console.log(
      `  verify:       ${verifying.seconds.toFixed(1)} s (${(verifying.seconds / importSeconds).toFixed(2)} of the import's time), ${verification.differences} differences; RSS ${describeRss(verifying.samplesMb)}`,
    )
    if (!verification.ok) throw new Error(`--verify found ${verification.differences} differences after the import`)
  } finally {
    for (const t of targets) {
      await t.mailroom.close()
      await t.db.drop()
      await rm(t.dir, { recursive: true, force: true })
    }
    source.drop()
    if (fileKb !== null) await rm(docservers.root, { recursive: true, force: true })
  }
}

await main()
