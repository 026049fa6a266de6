import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createGeneratedSource,
  type GeneratedSource,
} from '../../../../packages/import-maarch/test/generated-source.js'
import { captureCli } from '../../test/capture-cli.js'
import { basicAuth, startServerProcess } from '../../test/process-server.js'
import { formatProgress } from './import-maarch-command.js'

let database: TestDatabase
let dataDir: string
let source: GeneratedSource
beforeAll(async () => {
  database = await createTestDatabase()
  dataDir = await mkdtemp(join(tmpdir(), 'mailroom-import-cli-'))
  // A small installation: the importer's own tests cover the records; these cover the command.
  source = await createGeneratedSource({ records: 14 })
}, 120_000)
afterAll(async () => {
  await database.drop()
  await rm(dataDir, { recursive: true, force: true })
  await source?.drop()
})

function env(): NodeJS.ProcessEnv {
  const base = { MAILROOM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', USER: 'ops' }
  return database.url ? { ...base, DATABASE_URL: database.url } : base
}
const run = (args: string[]) =>
  captureCli(['import', 'maarch', '--from', source.url, '--docservers', source.docservers, ...args], env())

describe('mailroom import maarch', () => {
  it('dry-runs without writing, imports the reference then the records, writes a JSON report, and a rerun imports nothing', async () => {
    // The files found through --docserver folders alone (the --docservers root names nothing): none flagged.
    const docservers = [
      '--docserver',
      `FASTHD_MAN=${source.docservers}/resources`,
      '--docserver',
      `CONVERT_MLB=${source.docservers}/convert_resources`,
      '--docserver',
      `FASTHD_ATTACH=${source.docservers}/attachments`,
    ]
    const dry = await captureCli(
      [
        'import',
        'maarch',
        '--from',
        source.url,
        '--docservers',
        join(dataDir, 'nothing-here'),
        ...docservers,
        '--dry-run',
      ],
      env(),
    )
    expect(dry.code).toBe(0)
    // Standard error is no terminal here: JSON lines only, the start, then progress ending with every record.
    const lines = dry.err
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; records?: number })
    expect(lines[0]).toMatchObject({ event: 'start', resumedAfter: null, alreadyImported: 0 })
    expect(lines.at(-1)).toMatchObject({ event: 'progress', records: source.installation.facts.records })
    expect(dry.out).toMatch(/mode\s+dry run \(nothing written\)/)
    const { records: total, repairedRecords } = source.installation.facts
    expect(dry.out).toMatch(new RegExp(`records imported\\s+${total}\n`))
    expect(dry.out).toMatch(/records flagged\s+0\n/)
    const reference = await run(['--only', 'reference'])
    expect(reference.out).toMatch(/records imported\s+0/)
    const records = await run(['--only', 'records', '--report', join(dataDir, 'report.json')])
    expect(records.code).toBe(0)
    expect(records.out).toMatch(new RegExp(`records imported\\s+${total}\n`))
    // Attachments come with their record.
    expect(records.out).toMatch(/attachments not imported\s+0\n/)
    // Streamed to report.json.partial, renamed once whole: one entry per record, the counts at the end.
    const report = JSON.parse(await readFile(join(dataDir, 'report.json'), 'utf8'))
    expect(report.records.map((r: { resId: number }) => r.resId)).toEqual(
      Array.from({ length: total }, (_, i) => i + 1),
    )
    expect(
      report.records
        .filter((r: { outcome: string }) => r.outcome === 'repaired')
        .map((r: { resId: number }) => r.resId),
    ).toEqual(repairedRecords)
    expect(report.notImported.attachments.length).toBe(report.counts.attachmentsNotImported)
    expect(report.counts).toMatchObject({ imported: total, repaired: repairedRecords.length, flagged: 0, skipped: 0 })
    expect(report.counts.attachmentsNotImported).toBe(0)
    expect(await readdir(dataDir)).not.toContain('report.json.partial')
    const again = await run([])
    expect(again.out).toMatch(/records imported\s+0\n/)
    expect(again.out).toMatch(new RegExp(`records skipped\\s+${total}\n`))
    expect(
      await captureCli(['journal', 'verify'], {
        ...env(),
        MAILROOM_SECRET: 'import-test-secret-0123456789abcdef0123456789',
      }),
    ).toMatchObject({ code: 0 })
  }, 120_000)

  it("is served once done: a server started afterwards reads each imported original with the source file's bytes", async () => {
    const report = JSON.parse(await readFile(join(dataDir, 'report.json'), 'utf8')) as {
      records: { resId: number; file?: { source: string } }[]
    }
    const withFiles = report.records.filter((record) => record.file !== undefined)
    expect(withFiles.length).toBeGreaterThan(10)
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
    const server = await startServerProcess({
      MAILROOM_DATA_DIR: dataDir,
      DATABASE_URL: database.url ?? '',
      MAILROOM_SECRET: 'import-test-secret-0123456789abcdef0123456789',
      MAILROOM_DEMO: '0',
    })
    try {
      for (const record of withFiles) {
        const response = await fetch(`${server.url}/rest/resources/${record.resId}/originalContent`, {
          headers: basicAuth('cmorel', 'valmont'),
        })
        expect(response.status, `record ${record.resId}`).toBe(200)
        expect(sha256(Buffer.from(await response.arrayBuffer())), `record ${record.resId}`).toBe(
          sha256(await readFile(record.file!.source)),
        )
      }
    } finally {
      server.kill('SIGTERM')
      await server.exited
    }
  }, 180_000)

  it('refuses a source that is not Maarch 20.10 with a clear message, importing nothing', async () => {
    const refused = await captureCli(['import', 'maarch', '--from', postgresAdminUrl(), '--docservers', dataDir], env())
    expect(refused).toMatchObject({
      code: 1,
      err: 'The source has no database_version parameter: it is not a Maarch Courrier 20.10 database, nothing was imported\n',
    })
  })

  it('refuses a --depositor that is not a Mailroom user before importing anything', async () => {
    const refused = await run(['--only', 'records', '--depositor', 'nobody'])
    expect(refused).toMatchObject({
      code: 1,
      err: 'The fallback depositor nobody is not a Mailroom user: name one with --depositor LOGIN (records whose typist was not imported are recorded and deposited in its name), nothing was imported\n',
    })
  })

  it('shows progress as records, megabytes, rates and time left', () => {
    expect(formatProgress({ records: 50, total: 200, bytes: 10 * 1024 * 1024 }, 10_000)).toBe(
      'records 50/200  10.0 MB  5.0 rec/s  1.0 MB/s  30s left',
    )
  })

  it('refuses a malformed --docserver and an unknown --only as usage errors', async () => {
    expect((await run(['--docserver', 'FASTHD_MAN'])).code).toBe(2)
    expect((await run(['--only', 'everything'])).code).toBe(2)
  })
})
