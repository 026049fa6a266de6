/**
 * `mailroom import maarch --verify` (issue #37): how long verifying an import takes. A generated Maarch 20.10
 * installation of N records (the importer's tests' generator: records with originals, converted PDFs,
 * attachments, notes, links, history rows, contacts) is imported with `importMaarch`, then verified with
 * `verifyMaarchImport` (every kind compared, every file's bytes hashed on both sides). Beside it, in the same
 * run, the floor any verification has: every file of both sides read and hashed (SHA-256) and every row of the
 * compared record tables read on both sides, without comparing anything. Reported: the verification's time,
 * its rate, its ratio to that floor and to the import, and its RSS.
 *
 *   pnpm --filter @mailroom/bench run bench:import-verify
 *   BENCH_RECORDS (default 2000, the import benchmark's size), BENCH_DB=pglite for an embedded PGlite target
 *   (default: PostgreSQL at TEST_DATABASE_URL)
 */
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importMaarch, verifyMaarchImport } from '@mailroom/import-maarch'
import { createMailroom, type Mailroom } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { sql } from 'kysely'
import pg from 'pg'
import { createGeneratedSource } from '../packages/import-maarch/test/generated-source.js'
import { rssGrowth, sampledRss as timed } from './rss-growth.js'

const records = Number(process.env.BENCH_RECORDS ?? 2000)
const kind = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgres'
const TABLES = ['res_letterbox', 'res_attachments', 'notes', 'history', 'adr_letterbox']

/** Every file under `root` read and hashed; the number of bytes. */
async function hashAll(root: string): Promise<number> {
  let bytes = 0
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const content = await readFile(join(entry.parentPath, entry.name))
      createHash('sha256').update(content).digest('hex')
      bytes += content.length
    }
  return bytes
}

/** The floor: both sides' files hashed, both sides' record tables read whole. */
async function floor(sourceUrl: string, sourceFiles: string, mailroom: Mailroom, targetFiles: string) {
  const client = new pg.Client({ connectionString: sourceUrl })
  await client.connect()
  try {
    let rows = 0
    for (const table of TABLES) {
      rows += (await client.query(`select * from ${table}`)).rows.length
      rows += (await sql.raw(`select * from ${table}`).execute(mailroom.db)).rows.length
    }
    return { rows, bytes: (await hashAll(sourceFiles)) + (await hashAll(targetFiles)) }
  } finally {
    await client.end()
  }
}

async function main(): Promise<void> {
  const source = await createGeneratedSource({ records })
  const db = await createTestDatabase(kind)
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-import-verify-bench-'))
  const mailroom = await createMailroom({
    database: db.target,
    docserverDir: dir,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    demo: false,
    // As the `mailroom import maarch` command opens it: no text extraction, conversion or journal sweep in this
    // process, which would otherwise extract the imported records' texts while the import and the verification run.
    converter: null,
    journal: { sweepIntervalMs: 0 },
    fulltext: { workers: 0 },
  })
  try {
    const options = { from: source.url, docservers: { root: source.docservers } }
    const importing = await timed(() => importMaarch(mailroom, { ...options, docserverDir: dir }))
    const verifying = await timed(() => verifyMaarchImport(mailroom, options))
    const reading = await timed(() => floor(source.url, source.docservers, mailroom, dir))
    const result = verifying.result
    if (!result.ok) throw new Error(`the verification found ${result.differences} differences after a clean import`)
    const count = (name: string) => result.kinds.find((k) => k.kind === name)
    const rss = rssGrowth(verifying.samplesMb)
    console.log(`Maarch import --verify, ${records} records (${kind} target)`)
    console.log(
      `  compared: ${result.kinds.map((k) => `${k.kind} ${k.source}`).join(', ')} (files: ${count('files')?.target} in the target)`,
    )
    console.log(`  import     ${(records / importing.seconds).toFixed(1)} records/s  ${importing.seconds.toFixed(1)} s`)
    console.log(`  verify     ${(records / verifying.seconds).toFixed(1)} records/s  ${verifying.seconds.toFixed(1)} s`)
    console.log(
      `  floor      ${reading.seconds.toFixed(1)} s (${reading.result.rows} rows read, ${(reading.result.bytes / 1024 / 1024).toFixed(1)} MB hashed, both sides)`,
    )
    console.log(`  verify / floor: ${(verifying.seconds / reading.seconds).toFixed(2)}× the floor's time`)
    console.log(`  verify / import: ${(verifying.seconds / importing.seconds).toFixed(2)} of the import's time`)
    console.log(
      `  RSS verify: ${rss.warmMb.toFixed(0)} → ${rss.lastMb.toFixed(0)} MB from second to last quarter, highest ${rss.highestMb.toFixed(0)} MB`,
    )
  } finally {
    await mailroom.close()
    await db.drop()
    await rm(dir, { recursive: true, force: true })
    await source.drop()
  }
}

await main()
