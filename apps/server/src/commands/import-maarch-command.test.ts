import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { postgresAdminUrl } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureCli } from '../../test/capture-cli.js'
import { IMPORT_TEST_SECRET, ImportMaarchSetup } from '../../test/import-maarch-setup.js'
import { basicAuth, startServerProcess } from '../../test/process-server.js'
import { formatProgress } from './import-maarch-command.js'

// A small installation: the importer's own tests cover the records; these cover the command.
const setup = new ImportMaarchSetup({ records: 14, dataDirPrefix: 'mailroom-import-cli-' })
beforeAll(() => setup.create(), 120_000)
afterAll(() => setup.drop())
const run = (args: string[]) => setup.importMaarch(args)

describe('mailroom import maarch', () => {
  it('dry-runs without writing, imports the reference then the records, writes a JSON report, and a rerun imports nothing', async () => {
    // The files found through --docserver folders alone (the --docservers root names nothing): none flagged.
    const docservers = [
      '--docserver',
      `FASTHD_MAN=${setup.source.docservers}/resources`,
      '--docserver',
      `CONVERT_MLB=${setup.source.docservers}/convert_resources`,
      '--docserver',
      `FASTHD_ATTACH=${setup.source.docservers}/attachments`,
    ]
    const dry = await captureCli(
      [
        'import',
        'maarch',
        '--from',
        setup.source.url,
        '--docservers',
        join(setup.dataDir, 'nothing-here'),
        ...docservers,
        '--dry-run',
      ],
      setup.env(),
    )
    expect(dry.code).toBe(0)
    // Standard error is no terminal here: JSON lines only, the start, then progress ending with every record.
    const lines = dry.err
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; records?: number })
    expect(lines[0]).toMatchObject({ event: 'start', resumedAfter: null, alreadyImported: 0 })
    expect(lines.at(-1)).toMatchObject({ event: 'progress', records: setup.source.installation.facts.records })
    expect(dry.out).toMatch(/mode\s+dry run \(nothing written\)/)
    const { records: total, repairedRecords } = setup.source.installation.facts
    expect(dry.out).toMatch(new RegExp(`records imported\\s+${total}\n`))
    expect(dry.out).toMatch(/records flagged\s+0\n/)
    const reference = await run(['--only', 'reference'])
    expect(reference.out).toMatch(/records imported\s+0/)
    const records = await run(['--only', 'records', '--report', join(setup.dataDir, 'report.json')])
    expect(records.code).toBe(0)
    expect(records.out).toMatch(new RegExp(`records imported\\s+${total}\n`))
    // Attachments come with their record.
    expect(records.out).toMatch(/attachments not imported\s+0\n/)
    // Streamed to report.json.partial, renamed once whole: one entry per record, the counts at the end.
    const report = JSON.parse(await readFile(join(setup.dataDir, 'report.json'), 'utf8'))
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
    expect(await readdir(setup.dataDir)).not.toContain('report.json.partial')
    const again = await run([])
    expect(again.out).toMatch(/records imported\s+0\n/)
    expect(again.out).toMatch(new RegExp(`records skipped\\s+${total}\n`))
    expect(
      await captureCli(['journal', 'verify'], { ...setup.env(), MAILROOM_SECRET: IMPORT_TEST_SECRET }),
    ).toMatchObject({ code: 0 })
  }, 120_000)

  it("is served once done: a server started afterwards reads each imported original with the source file's bytes", async () => {
    const report = JSON.parse(await readFile(join(setup.dataDir, 'report.json'), 'utf8')) as {
      records: { resId: number; file?: { source: string } }[]
    }
    const withFiles = report.records.filter((record) => record.file !== undefined)
    expect(withFiles.length).toBeGreaterThan(10)
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
    const server = await startServerProcess(setup.serverEnv())
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
    const refused = await captureCli(
      ['import', 'maarch', '--from', postgresAdminUrl(), '--docservers', setup.dataDir],
      setup.env(),
    )
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
