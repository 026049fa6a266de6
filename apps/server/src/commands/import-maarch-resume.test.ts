import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openDatabase } from '@mailroom/mailroom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureCli } from '../../test/capture-cli.js'
import { ImportMaarchSetup } from '../../test/import-maarch-setup.js'
import { mailroomCommand } from '../../test/mailroom-command.js'
import { loadConfig } from '../config.js'

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

const setup = new ImportMaarchSetup({ records: 30, dataDirPrefix: 'mailroom-import-resume-' })
beforeAll(() => setup.create(), 180_000)
afterAll(() => setup.drop())

/** `mailroom import maarch` run as an operator runs it, in its own process, its standard error a pipe (no terminal). */
function importProcess(args: readonly string[], killAfterFirstBatch = false) {
  const child = spawn(process.execPath, mailroomCommand(...setup.importArguments(args)), {
    cwd: join(serverDir, '..', '..'),
    env: { ...process.env, ...setup.env() },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  child.stderr.on('data', (chunk) => {
    err += chunk
    // Killed as a crash would stop it: no handler runs, whatever was in flight stays as it was.
    if (killAfterFirstBatch && err.includes('"event":"progress"')) child.kill('SIGKILL')
  })
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, out, err })),
  )
}

describe('mailroom import maarch, killed and run again', () => {
  it('leaves whole batches only; the rerun says where it resumes, imports the rest once, leaves no orphan, and prints every organisation note in full', async () => {
    const total = setup.source.installation.facts.records
    const killed = await importProcess(['--batch-size', '3', '--jobs', '1', '--progress-interval', '0'], true)
    expect(killed.signal).toBe('SIGKILL')
    const readBack = async () => {
      // The database the command line opens (PostgreSQL, or the embedded one in its data folder).
      const opened = await openDatabase(loadConfig(setup.env(), { requireSecret: false }).database)
      try {
        const records = await opened.db
          .selectFrom('res_letterbox')
          .select(['res_id', 'path', 'filename', 'fingerprint'])
          .orderBy('res_id')
          .execute()
        const imports = await opened.db
          .selectFrom('history')
          .select('record_id')
          .where('event_type', '=', 'IMPORT')
          .execute()
        return { records, imports: imports.map((h) => Number(h.record_id)).sort((a, b) => a - b) }
      } finally {
        await opened.close()
      }
    }
    const before = await readBack()
    const committed = before.records.map((r) => Number(r.res_id))
    // Whole batches of 3, from the first record on (one batch at a time): never a record of a batch without the others.
    expect(committed.length % 3 === 0 || committed.length === total).toBe(true)
    expect(committed).toEqual(Array.from({ length: committed.length }, (_, i) => i + 1))
    expect(committed.length).toBeGreaterThanOrEqual(3)

    const rerun = await importProcess(['--batch-size', '3', '--progress-interval', '0'])
    expect([rerun.code, rerun.signal]).toEqual([0, null])
    // Standard error is not a terminal: one JSON object per line, the start first, then the progress.
    const lines = rerun.err
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines[0]).toMatchObject({
      event: 'start',
      total,
      resumedAfter: committed.length,
      alreadyImported: committed.length,
      batchSize: 3,
    })
    const progress = lines.slice(1)
    expect(progress.length).toBeGreaterThan(1)
    for (const line of progress)
      expect(line).toEqual({
        event: 'progress',
        records: expect.any(Number),
        total,
        batches: expect.any(Number),
        bytes: expect.any(Number),
        elapsedSeconds: expect.any(Number),
        recordsPerSecond: expect.any(Number),
        megabytesPerSecond: expect.any(Number),
        secondsLeft: expect.any(Number),
      })
    expect(progress.at(-1)).toMatchObject({ records: total, secondsLeft: 0 })
    expect(rerun.out).toMatch(
      new RegExp(
        `resumed\\s+after res_id ${committed.length} \\(${committed.length} records of ${committed.length / 3} batches committed before\\)\\n`,
      ),
    )
    expect(rerun.out).toMatch(new RegExp(`records imported\\s+${total - committed.length}\\n`))
    expect(rerun.out).toMatch(new RegExp(`records skipped\\s+${committed.length}\\n`))
    // The closing summary: every organisation note in full, the group, its clause and what its users now see.
    expect(rerun.out).toContain('organisation notes:\n- groups ARCHIVES: security clause "')
    expect(rerun.out).toMatch(
      /- groups ARCHIVES: security clause ".*exists \(select 1 from users\)" not understood \(.*\): the group gets no records; of its one user, archives now sees no records at all \(no other group gives any\)\. Fix the clause and apply it with mailroom org apply\n/,
    )

    // Everything once: every record, one IMPORT row each, and every stored file named by a row.
    const after = await readBack()
    expect(after.records.map((r) => Number(r.res_id))).toEqual(Array.from({ length: total }, (_, i) => i + 1))
    expect(after.imports).toEqual(Array.from({ length: total }, (_, i) => i + 1))
    // fsck reads every stored file back against its row's fingerprint, and lists any file no row names.
    const fsck = await captureCli(['fsck', '--dry-run', '--grace-minutes', '0'], setup.env())
    expect(fsck.out).toMatch(/\n0 problem\(s\), 0 orphan\(s\)\n$/)
    expect(fsck.out).toMatch(/^checked [1-9]\d* file rows and [1-9]\d* files\n/)
  }, 600_000)
})
