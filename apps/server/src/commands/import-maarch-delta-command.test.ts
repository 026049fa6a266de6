import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ImportMaarchSetup } from '../../test/import-maarch-setup.js'
import { basicAuth, startServerProcess } from '../../test/process-server.js'

const setup = new ImportMaarchSetup({ records: 14, dataDirPrefix: 'mailroom-import-delta-cli-' })
beforeAll(() => setup.create(), 120_000)
afterAll(() => setup.drop())
const run = (args: string[]) => setup.importMaarch(args)

describe('mailroom import maarch --since', () => {
  it('refuses --since last before any import, and a --since that is no date, importing nothing', async () => {
    expect(await run(['--since', 'last'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^No import from .* finished in this Mailroom: --since last has no cut-off/),
    })
    expect(await run(['--since', 'yesterday'])).toMatchObject({
      code: 1,
      err: '--since yesterday is neither "last" nor a date and time (2026-11-27T22:00:00Z); nothing was imported\n',
    })
  }, 240_000)

  it('after a full import, carries nothing when nothing changed, then only a status change and a new record', async () => {
    const full = await run([])
    expect(full.code).toBe(0)
    expect(full.out).toMatch(/records imported\s+14\n/)
    expect(full.out).toMatch(/source cut-off\s+\S+ \(the next delta: --since last\)\n/)

    const idle = await run(['--since', 'last'])
    expect(idle.code).toBe(0)
    expect(idle.out).toMatch(/records changed since\s+0\n/)
    expect(idle.out).toMatch(/records imported\s+0\n/)
    expect(idle.out).toMatch(/records updated\s+0\n/)
    expect(idle.out).toMatch(/carried\s+nothing\n/)

    // In Maarch meanwhile: record 2's status changed (with its history row), a record registered without a file.
    const was = setup.source.installation.tables.res_letterbox?.find((r) => r.res_id === 2)?.status
    const status = was === 'END' ? 'VAL' : 'END'
    const client = new pg.Client({ connectionString: setup.source.url })
    await client.connect()
    try {
      await client.query(`update res_letterbox set status = $1, modification_date = now() where res_id = 2`, [status])
      await client.query(
        `insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, event_id)
         values ('res_letterbox', '2', 'ACTION#1', 2, now(), 'Courrier clos', 'resource', 'resup')`,
      )
      await client.query(
        `insert into res_letterbox (res_id, subject, type_id, typist, creation_date, modification_date, status,
           destination, priority, category_id, model_id, version, integrations, linked_resources, external_id)
         select 15, 'Arrivé pendant la bascule', type_id, typist, now(), now(), 'NEW', destination, priority,
           category_id, model_id, 1, '{}', '[]', '{}' from res_letterbox where res_id = 6`,
      )
    } finally {
      await client.end()
    }
    const delta = await run(['--since', 'last', '--report', join(setup.dataDir, 'delta.json')])
    expect(delta.code).toBe(0)
    expect(delta.out).toMatch(/records changed since\s+2\n/)
    expect(delta.out).toMatch(/records imported\s+1\n/)
    expect(delta.out).toMatch(/records updated\s+1\n/)
    expect(delta.out).toMatch(/carried\s+fields 1, history 1\n/)
    const report = JSON.parse(await readFile(join(setup.dataDir, 'delta.json'), 'utf8'))
    expect(report.records.map((r: { resId: number; outcome: string }) => [r.resId, r.outcome])).toEqual([
      [2, 'updated'],
      [15, 'imported'],
    ])
    expect(report.records[0].changes).toEqual(['modification_date', 'status', 'history +1'])
    expect(report.delta).toMatchObject({ examined: 2, updated: 1, unchanged: 0 })

    // Read back as a user: the record's new status, the new record listed.
    const server = await startServerProcess(setup.serverEnv())
    try {
      const response = await fetch(`${server.url}/rest/res/list`, {
        method: 'POST',
        headers: {
          ...basicAuth(setup.source.installation.facts.superadmin, setup.source.installation.facts.password),
          'content-type': 'application/json',
        },
        body: JSON.stringify({ select: 'res_id,status', clause: 'res_id in (2, 15)', limit: 10 }),
      })
      expect(response.status).toBe(200)
      const listed = ((await response.json()) as { resources: { res_id: number; status: string }[] }).resources
      expect(listed.map((r) => [Number(r.res_id), r.status]).sort()).toEqual([
        [15, 'NEW'],
        [2, status],
      ])
    } finally {
      server.kill('SIGTERM')
      await server.exited
    }

    const settled = await run(['--since', 'last'])
    expect(settled.code).toBe(0)
    expect(settled.out).toMatch(/records imported\s+0\n/)
    expect(settled.out).toMatch(/records updated\s+0\n/)
  }, 240_000)
})
