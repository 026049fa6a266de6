import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as embedded from '@mailroom/mailroom'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createDemoDatabase } from '../../test/demo-database.js'
import { runCli } from '../cli.js'
import { loadConfig } from '../config.js'

describe('mailroom fulltext', () => {
  let dataDir: string
  let env: Record<string, string>
  let drop: () => Promise<void> = async () => {}

  async function cli(...args: string[]): Promise<{ code: number; output: string }> {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    const errors = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      const code = await runCli(args, env)
      return { code, output: write.mock.calls.map((call) => String(call[0])).join('') }
    } finally {
      write.mockRestore()
      errors.mockRestore()
    }
  }

  async function withMailroom(work: (mailroom: embedded.Mailroom) => Promise<unknown>): Promise<void> {
    const config = loadConfig(env)
    const mailroom = await embedded.createMailroom({
      database: config.database,
      docserverDir: config.docserverDir,
      secret: config.secret,
      demo: true,
      fulltext: { workers: 0 },
    })
    try {
      await work(mailroom)
    } finally {
      await mailroom.close()
    }
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mailroom-fulltext-'))
    const database = await createDemoDatabase(dataDir)
    drop = database.drop
    env = { MAILROOM_DATA_DIR: dataDir, MAILROOM_SECRET: 'fulltext-test-secret-0123456789', LOG_LEVEL: 'silent' }
    if (database.url) env.DATABASE_URL = database.url
    await withMailroom(async (mailroom) => {
      const cchaplin = await mailroom.auth.authenticatePassword('cchaplin', 'maarch')
      const body = { modelId: 1, status: 'NEW', format: 'txt', encodedFile: Buffer.from('bonjour').toString('base64') }
      await mailroom.records.create(cchaplin, body)
    })
  })
  afterAll(async () => {
    await drop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('status counts the queue; reindex queues the records that have no job', async () => {
    const status = await cli('fulltext', 'status')
    expect(status.code).toBe(0)
    expect(status.output).toMatch(/^indexed files: 0\nwaiting: 1 \(oldest \d+ s\)\nbeing extracted: 0\nfailed: 0\n$/)
    expect(JSON.parse((await cli('fulltext', 'status', '--json')).output)).toMatchObject({ pending: 1, failed: 0 })
    expect(await cli('fulltext', 'reindex')).toEqual({
      code: 0,
      output: 'queued 0 files, retrying 0 failed, re-indexed 0 kept texts in the current language\n',
    })
    await withMailroom((mailroom) => mailroom.db.deleteFrom('fulltext_jobs').execute())
    expect((await cli('fulltext', 'reindex')).output).toMatch(/^queued 1 files, /)
  })

  it('exits 1 and lists the failures when some files failed', async () => {
    await withMailroom((mailroom) =>
      mailroom.db
        .updateTable('fulltext_jobs')
        .set({ state: 'failed', attempts: 3, last_error: 'pdftotext failed' })
        .execute(),
    )
    const status = await cli('fulltext', 'status')
    expect(status.code).toBe(1)
    expect(status.output).toMatch(
      /failed: 1 \(mailroom fulltext reindex tries them again\)\n {2}record \d+ resource \d+, 3 tries: pdftotext failed\n$/,
    )
    expect((await cli('fulltext', 'status', '--failures', 'x')).code).toBe(2)
  })
})
