import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@mailroom/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mailroomCommand } from './mailroom-command.js'
import { basicAuth, type ServerProcess, startServerProcess } from './process-server.js'

// Two server processes, a load and a SIGKILL: minutes when two suites share a 2-core machine. Guards against hanging only.
const CLUSTER_TEST_TIMEOUT_MS = 360_000

const onPostgres = process.env.MAILROOM_TEST_DB === 'postgres'
const SECRET = 'cluster-test-secret-0123456789'

function pdfBytes(label: string): Buffer {
  // A tiny but valid one-page PDF whose content differs per record.
  const text = `BT /F1 12 Tf 20 50 Td (${label}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

async function create(server: ServerProcess, label: string, extra: Record<string, unknown> = {}) {
  const response = await fetch(`${server.url}/rest/resources`, {
    method: 'POST',
    headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
    body: JSON.stringify({
      modelId: 1,
      status: 'NEW',
      subject: label,
      format: 'pdf',
      encodedFile: pdfBytes(label).toString('base64'),
      destination: 6,
      ...extra,
    }),
    signal: AbortSignal.timeout(60_000),
  })
  return { status: response.status, body: (await response.json()) as { resId?: number; errors?: string } }
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath ?? (entry as { path: string }).path, entry.name))
  }
  return out
}

describe.runIf(onPostgres)('several servers and crashes on one PostgreSQL', () => {
  let database: TestDatabase
  let docserverDir: string
  let client: pg.Client
  beforeAll(async () => {
    database = await createTestDatabase('postgres', { withDemo: true })
    docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-cluster-docs-'))
    client = new pg.Client({ connectionString: database.url })
    await client.connect()
  })
  afterAll(async () => {
    await client?.end()
    await database?.drop()
    await rm(docserverDir, { recursive: true, force: true })
  })
  const env = () => ({
    DATABASE_URL: database.url!,
    MAILROOM_SECRET: SECRET,
    MAILROOM_DOCSERVER_DIR: docserverDir,
    MAILROOM_DEMO: '1',
  })

  it(
    'gives unique, gap-free chrono numbers and resIds through two servers, and shares status changes at once',
    async () => {
      const a = await startServerProcess(env())
      const b = await startServerProcess(env())
      try {
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) => create(i % 2 ? a : b, `multi ${i}`, { chrono: true })),
        )
        expect(results.map((r) => r.status)).toEqual(results.map(() => 200))
        const ids = results.map((r) => r.body.resId!)
        expect(new Set(ids).size).toBe(40)
        const rows = await client.query('select alt_identifier from res_letterbox where res_id = any($1::bigint[])', [
          ids,
        ])
        const numbers = rows.rows.map((r) => Number(/\/(\d+)$/.exec(r.alt_identifier)![1])).sort((x, y) => x - y)
        const year = new Date().getUTCFullYear()
        expect(rows.rows.every((r) => String(r.alt_identifier).startsWith(`MAARCH/${year}A/`))).toBe(true)
        expect(numbers).toEqual(Array.from({ length: 40 }, (_, i) => numbers[0]! + i))

        const target = ids[0]!
        const changed = await fetch(`${a.url}/rest/res/resource/status`, {
          method: 'PUT',
          headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
          body: JSON.stringify({ status: 'END', resId: [target], historyMessage: 'closed through server A' }),
        })
        expect(changed.status).toBe(200)
        const seen = await fetch(`${b.url}/rest/res/list`, {
          method: 'POST',
          headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
          body: JSON.stringify({ select: 'res_id,status', clause: `res_id = ${target}` }),
        })
        expect(((await seen.json()) as { resources: unknown }).resources).toEqual([{ res_id: target, status: 'END' }])
      } finally {
        a.kill('SIGTERM')
        b.kill('SIGTERM')
        await Promise.all([a.exited, b.exited])
      }
    },
    CLUSTER_TEST_TIMEOUT_MS,
  )

  it(
    'keeps every acknowledged create after SIGKILL mid-load, and fsck removes only orphans',
    async () => {
      const server = await startServerProcess(env())
      const acknowledged: number[] = []
      let stop = false
      const clients = Array.from({ length: 16 }, async (_, c) => {
        for (let i = 0; !stop; i++) {
          try {
            const r = await create(server, `crash ${c}-${i}`)
            if (r.status === 200 && r.body.resId) acknowledged.push(r.body.resId)
          } catch {
            return
          }
        }
      })
      for (let waited = 0; acknowledged.length < 60 && waited < 30_000; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20))
      server.kill('SIGKILL')
      await server.exited
      stop = true
      await Promise.all(clients)
      expect(acknowledged.length).toBeGreaterThanOrEqual(60)

      // The server comes back on the same database and storage and serves every acknowledged record.
      const restarted = await startServerProcess(env())
      try {
        expect((await fetch(`${restarted.url}/healthz`)).status).toBe(200)
        const sample = acknowledged.slice(-5)
        for (const id of sample) {
          const original = await fetch(`${restarted.url}/rest/resources/${id}/originalContent`, {
            headers: basicAuth('cchaplin'),
          })
          expect(original.status, `record ${id} after restart`).toBe(200)
          expect(
            Buffer.from(await original.arrayBuffer())
              .subarray(0, 5)
              .toString('latin1'),
          ).toBe('%PDF-')
        }
        const listed = await fetch(`${restarted.url}/rest/res/list`, {
          method: 'POST',
          headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
          body: JSON.stringify({ select: 'res_id', clause: `res_id in (${acknowledged.join(',')})`, limit: 1000 }),
        })
        expect(((await listed.json()) as { count: number }).count).toBe(acknowledged.length)
      } finally {
        restarted.kill('SIGTERM')
        await restarted.exited
      }

      // Deposits are committed with their records and linked into the chain by a seal the killed server may not
      // have run yet: `journal verify` seals what is pending first, then must find the chain intact.
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, mailroomCommand(...args), {
          env: { ...process.env, ...env() },
          encoding: 'utf8',
        })
      const verified = cli('journal', 'verify')
      expect(verified.status, verified.stdout + verified.stderr).toBe(0)
      expect((await client.query('select count(*)::int as n from journal_pending')).rows[0].n).toBe(0)

      const docRoot = join(docserverDir, 'resources')
      const rows = await client.query(
        `select r.res_id, r.path, r.filename, r.fingerprint,
         (select count(*)::int from history h where h.record_id = r.res_id::text and h.event_type = 'ADD') as history,
         (select count(*)::int from journal_events j where j.event_type = 'recordsManagement/deposit' and j.info->>'resId' = r.res_id::text) as deposits
       from res_letterbox r where r.filename is not null`,
      )
      const byId = new Map(rows.rows.map((r) => [Number(r.res_id), r]))
      for (const id of acknowledged) {
        const row = byId.get(id)
        expect(row, `acknowledged ${id} has its row`).toBeDefined()
        const file = join(docRoot, row.path, row.filename)
        expect(existsSync(file), `acknowledged ${id} has its file`).toBe(true)
        expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(row.fingerprint)
        expect(row.history).toBe(1)
        expect(row.deposits).toBe(1)
      }
      // No row lacks its file, acknowledged or not.
      for (const row of rows.rows)
        expect(existsSync(join(docRoot, row.path, row.filename)), `row ${row.res_id}`).toBe(true)

      const referenced = new Set(rows.rows.map((r) => join(docRoot, r.path, r.filename)))
      // A file renamed into place whose transaction never committed, as a crash between the two leaves.
      const orphan = join(docRoot, '2020', '01', '0001', 'orphan-of-a-crash.pdf')
      await mkdir(dirname(orphan), { recursive: true })
      await writeFile(orphan, pdfBytes('orphan'))
      const before = await listFiles(docserverDir)
      const run = cli('fsck', '--grace-minutes', '0')
      expect(run.status, run.stdout + run.stderr).toBe(0)
      const after = await listFiles(docserverDir)
      for (const file of referenced) expect(after).toContain(file)
      expect(after).not.toContain(orphan)
      // Whatever fsck removed was unreferenced.
      for (const file of before.filter((f) => !after.includes(f))) expect(referenced.has(file)).toBe(false)
      for (const file of after)
        expect(referenced.has(file) || !(await stat(file)).isFile() || file.includes('convert')).toBe(true)
    },
    CLUSTER_TEST_TIMEOUT_MS,
  )
})
