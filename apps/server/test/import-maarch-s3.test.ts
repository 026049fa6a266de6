import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importMaarch, type MaarchImportTarget } from '@mailroom/import-maarch'
import { checkDocumentStorage, createMailroom, type Mailroom, verifyJournal } from '@mailroom/mailroom'
import {
  cephGateway,
  createTestDatabase,
  rememberEnv,
  serveOnLoopback,
  startStallingProxy,
  TEST_PASSWORD_HASHER,
  TEST_SECRET,
  type TestDatabase,
  testBucketUrl,
} from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../../../packages/import-maarch/test/generated-source.js'
import { failingHistoryInsert } from '../../../packages/import-maarch/test/import-helpers.js'
import { captureCli } from './capture-cli.js'
import { basicAuth } from './process-server.js'

/**
 * `mailroom import maarch` into a PostgreSQL database whose documents are in a bucket of the Ceph test
 * gateway (skipped with a message where none runs): a generated Maarch 20.10 installation's files go to the bucket, the
 * records read over HTTP with the source's bytes, and an import failing in the middle leaves no object
 * without its record.
 */
const gateway = cephGateway()
const onPostgres = process.env.MAILROOM_TEST_DB === 'postgres'
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

describe.runIf(onPostgres && gateway !== null)('importing Maarch into object storage', () => {
  let source: GeneratedSource
  let dataDir: string
  const databases: TestDatabase[] = []
  const open: Mailroom[] = []
  const newDatabase = async () => {
    const database = await createTestDatabase('postgres')
    databases.push(database)
    return database
  }
  const openMailroom = async (database: TestDatabase, bucket: string, s3 = gateway!) => {
    const mailroom = await createMailroom({
      database: database.url!,
      docserverUrl: bucket,
      s3,
      secret: TEST_SECRET,
      passwordHasher: TEST_PASSWORD_HASHER,
      journal: { sweepIntervalMs: 0 },
    })
    open.push(mailroom)
    return mailroom
  }
  /** Every object of the Mailroom's bucket, by key. */
  const objects = async (mailroom: Mailroom) => {
    const keys: string[] = []
    for await (const document of mailroom.documentStore.list()) keys.push(document.key)
    return keys.sort()
  }
  /** The key of every file the rows reference: originals, converted PDFs and attachments. */
  const referenced = async (mailroom: Mailroom) => {
    const areas = new Map(
      (await mailroom.db.selectFrom('docservers').select(['docserver_id', 'path_template']).execute()).map((a) => [
        a.docserver_id,
        a.path_template,
      ]),
    )
    const rows = [
      ...(await mailroom.db
        .selectFrom('res_letterbox')
        .select(['docserver_id', 'path', 'filename'])
        .where('filename', 'is not', null)
        .execute()),
      ...(await mailroom.db.selectFrom('adr_letterbox').select(['docserver_id', 'path', 'filename']).execute()),
      ...(await mailroom.db
        .selectFrom('res_attachments')
        .select(['docserver_id', 'path', 'filename'])
        .where('filename', 'is not', null)
        .execute()),
    ]
    return rows.map((r) => mailroom.documentStore.keyOf(areas.get(r.docserver_id!)!, r.path ?? '', r.filename!)).sort()
  }

  const restoreKeys = rememberEnv('AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY')
  beforeAll(async () => {
    // The SDK reads the keys from the process environment, as the CLI does.
    process.env.AWS_ACCESS_KEY_ID = gateway!.credentials!.accessKeyId
    process.env.AWS_SECRET_ACCESS_KEY = gateway!.credentials!.secretAccessKey
    source = await createGeneratedSource()
    dataDir = await mkdtemp(join(tmpdir(), 'mailroom-import-s3-'))
  }, 120_000)
  afterAll(async () => {
    restoreKeys()
    for (const mailroom of open) await mailroom.close()
    for (const database of databases) await database.drop()
    await rm(dataDir, { recursive: true, force: true })
    await source?.drop()
  })

  it("stores every imported file in the bucket; served over HTTP, each original reads back with the source file's bytes", async () => {
    const database = await newDatabase()
    const bucket = testBucketUrl('maarch')
    const env = {
      MAILROOM_DATA_DIR: dataDir,
      DATABASE_URL: database.url!,
      MAILROOM_DOCSERVER_URL: bucket,
      MAILROOM_S3_ENDPOINT: gateway!.endpoint,
      MAILROOM_S3_FORCE_PATH_STYLE: '1',
      AWS_ACCESS_KEY_ID: gateway!.credentials!.accessKeyId,
      AWS_SECRET_ACCESS_KEY: gateway!.credentials!.secretAccessKey,
      LOG_LEVEL: 'silent',
    }
    const started = performance.now()
    const imported = await captureCli(
      [
        'import',
        'maarch',
        '--from',
        source.url,
        '--docservers',
        source.docservers,
        '--report',
        join(dataDir, 'report.json'),
      ],
      env,
    )
    expect(imported.code, imported.err + imported.out).toBe(0)
    // Standard error carries at most the AWS SDK's warning about Node versions.
    expect(imported.err).not.toMatch(/error|fail/i)
    expect(imported.out).toMatch(new RegExp(`records imported\\s+${source.installation.facts.records}\n`))
    process.stderr.write(
      `Generated Maarch installation imported into a bucket in ${Math.round(performance.now() - started)} ms\n`,
    )
    // Nothing went to a folder.
    expect(existsSync(join(dataDir, 'docservers'))).toBe(false)

    const mailroom = await openMailroom(database, bucket)
    expect(await objects(mailroom)).toEqual(await referenced(mailroom))
    const report = JSON.parse(await readFile(join(dataDir, 'report.json'), 'utf8')) as {
      records: { resId: number; file?: { source: string } }[]
    }
    const withFiles = report.records.filter((r) => r.file !== undefined)
    expect(withFiles.length).toBeGreaterThan(10)

    const served = await serveOnLoopback(mailroom)
    try {
      for (const record of withFiles) {
        const expected = await readFile(record.file!.source)
        const response = await fetch(`${served.baseUrl}/rest/resources/${record.resId}/originalContent`, {
          headers: basicAuth(source.installation.facts.clerk, source.installation.facts.password),
        })
        expect(response.status, `record ${record.resId}`).toBe(200)
        const bytes = Buffer.from(await response.arrayBuffer())
        expect(sha256(bytes), `record ${record.resId}`).toBe(sha256(expected))
        const row = await mailroom.db
          .selectFrom('res_letterbox')
          .select('fingerprint')
          .where('res_id', '=', record.resId)
          .executeTakeFirstOrThrow()
        expect(row.fingerprint).toBe(sha256(expected))
      }
    } finally {
      await served.close()
    }
    // The digital safe's file checks read the objects.
    expect((await verifyJournal({ db: mailroom.db, docservers: mailroom.documentStore })).ok).toBe(true)
  }, 180_000)

  it('leaves no object without its record when the import fails in the middle, and the next run completes it', async () => {
    const database = await newDatabase()
    const mailroom = await openMailroom(database, testBucketUrl('maarch-failed'))
    // The database fails the sixth history insert after PostgreSQL ran it: that record's files are written.
    const failing = failingHistoryInsert(6, 'the database went away')
    const target: MaarchImportTarget = {
      db: mailroom.db.withPlugin(failing),
      documentStore: mailroom.documentStore,
      organisation: mailroom.organisation,
      actor: (user) => mailroom.actor(user),
      journalFlush: () => mailroom.journalFlush(),
    }
    const run = {
      from: source.url,
      docservers: { root: source.docservers },
      docserverDir: join(dataDir, 'unused'),
      // One record per batch: the failure falls between records, as the assertions count them.
      batchSize: 1,
      jobs: 1,
    }
    await expect(importMaarch(target, run)).rejects.toThrow('the database went away')
    const committed = await mailroom.db.selectFrom('res_letterbox').select('res_id').execute()
    expect(committed.length).toBeGreaterThanOrEqual(5)
    expect(committed.length).toBeLessThan(source.installation.facts.records)
    // Every object belongs to a committed record; fsck finds nothing to say.
    expect(await objects(mailroom)).toEqual(await referenced(mailroom))
    const check = await checkDocumentStorage(mailroom.db, mailroom.documentStore, { orphanGraceMs: 0, dryRun: true })
    expect([check.problems, check.orphans]).toEqual([[], []])

    const again = await importMaarch(mailroom, run)
    expect(again.counts.imported + again.counts.skipped).toBe(source.installation.facts.records)
    expect(await objects(mailroom)).toEqual(await referenced(mailroom))
    expect(existsSync(join(dataDir, 'unused'))).toBe(false)
  }, 180_000)

  it("stops when the store hangs in the middle, with the catalogue's 503 and every record whole or absent; fsck lists any stray object", async () => {
    const database = await newDatabase()
    const proxy = await startStallingProxy(gateway!.endpoint)
    try {
      const mailroom = await openMailroom(database, testBucketUrl('maarch-hung'), {
        ...gateway!,
        endpoint: proxy.endpoint,
        requestTimeoutMs: 500,
        callTimeoutMs: 1_500,
        maxAttempts: 2,
      })
      const run = {
        from: source.url,
        docservers: { root: source.docservers },
        docserverDir: join(dataDir, 'unused'),
        batchSize: 1,
        jobs: 1,
      }
      const started = performance.now()
      const stopped = await importMaarch(mailroom, {
        ...run,
        onProgress: (progress) => {
          if (progress.records === 5) proxy.stall()
        },
      }).catch((error: { code?: string; message?: string }) => `${error.code}: ${error.message}`)
      expect(stopped).toBe('DOCUMENT_STORE_UNREACHABLE: Document storage cannot be reached, try again later')
      // The records in flight each wait one store deadline at the most.
      expect(performance.now() - started).toBeLessThan(15_000)
      proxy.release()

      const committed = await mailroom.db.selectFrom('res_letterbox').select('res_id').execute()
      expect(committed.length).toBeGreaterThanOrEqual(5)
      expect(committed.length).toBeLessThan(source.installation.facts.records)
      // Every committed record has its files; an object whose removal met the hung store has no row, and
      // fsck lists and removes it (unless its removal in the background came through since).
      const referencedKeys = await referenced(mailroom)
      const stray = (await objects(mailroom)).filter((key) => !referencedKeys.includes(key))
      const check = await checkDocumentStorage(mailroom.db, mailroom.documentStore, { orphanGraceMs: 0 })
      expect(check.problems).toEqual([])
      expect(check.orphans.every((key) => stray.includes(key))).toBe(true)
      // What fsck removed was all that had no row.
      expect(await objects(mailroom)).toEqual(referencedKeys)

      const again = await importMaarch(mailroom, run)
      expect(again.counts.skipped).toBe(committed.length)
      expect(again.counts.imported + again.counts.skipped).toBe(source.installation.facts.records)
      expect(await objects(mailroom)).toEqual(await referenced(mailroom))
    } finally {
      proxy.release()
      await proxy.close()
    }
  }, 180_000)
})
