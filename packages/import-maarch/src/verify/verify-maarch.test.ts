import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '@mailroom/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../../test/generated-source.js'
import { importCollecting } from '../../test/import-helpers.js'
import { type VerifyDifference, verifyMaarchImport } from '../index.js'

let s: TestServer
let source: GeneratedSource
beforeAll(async () => {
  source = await createGeneratedSource({ records: 30 })
  s = await startTestServer({ mailroom: { demo: false } })
  await importCollecting(s.mailroom, { from: source.url, docservers: { root: source.docservers } })
}, 180_000)
afterAll(async () => {
  await s?.close()
  await source?.drop()
})

const verify = async () => {
  const differences: VerifyDifference[] = []
  const result = await verifyMaarchImport(s.mailroom, {
    from: source.url,
    docservers: { root: source.docservers },
    onDifference: (d) => differences.push(d),
  })
  return { result, differences }
}
const table = (name: string) => source.installation.tables[name] ?? []

describe('verifying an import of a generated Maarch 20.10 installation', () => {
  it('finds nothing different after a clean import, and notes what the mapping changed on purpose', async () => {
    const { result, differences } = await verify()
    expect(differences).toEqual([])
    expect(result).toMatchObject({ ok: true, differences: 0, sourceVersion: source.installation.version })
    const counts = Object.fromEntries(result.kinds.map((k) => [k.kind, [k.source, k.target, k.differences]]))
    expect(counts.records).toEqual([30, 30, 0])
    expect(counts.notes).toEqual([source.installation.facts.notes, source.installation.facts.notes, 0])
    expect(counts.attachments).toEqual([
      source.installation.facts.attachmentsListed,
      source.installation.facts.attachmentsListed,
      0,
    ])
    expect(result.notes).toEqual([
      expect.stringMatching(/^groups ARCHIVES: security clause .* not understood/),
      expect.stringMatching(/^record \d+ PDF version 1: .* is on neither side$/),
    ])
  })

  it('reports each change of the source since the import by kind and item: a user, a note, a link, a counter, a file', async () => {
    const user = table('users').find((u) => u.status !== 'DEL' && u.mail)!
    const note = table('notes')[0]!
    const unlinked = table('res_letterbox').find((r) => (r.linked_resources as unknown[]).length === 0)!
    const counter = table('parameters').find((p) => String(p.id).startsWith('chrono_') && p.param_value_int != null)!
    const client = new pg.Client({ connectionString: source.url })
    await client.connect()
    const attachment = (
      await client.query(
        `select res_id, path, filename from res_attachments where status <> 'DEL' order by res_id limit 1`,
      )
    ).rows[0]
    const file = join(
      source.docservers,
      'attachments',
      String(attachment.path).replaceAll('#', '/'),
      String(attachment.filename),
    )
    const bytes = await readFile(file)
    const changed = Buffer.from(bytes)
    changed[10] = changed[10]! ^ 0xff
    await writeFile(file, changed)
    try {
      await client.query(`update users set mail = 'moved@valmont.example' where id = $1`, [user.id])
      await client.query(`update notes set note_text = note_text || ' (edited)' where id = $1`, [note.id])
      await client.query(`update res_letterbox set linked_resources = '[1]' where res_id = $1`, [unlinked.res_id])
      await client.query(`update parameters set param_value_int = param_value_int + 1000 where id = $1`, [counter.id])
    } finally {
      await client.end()
    }
    const { result, differences } = await verify()
    expect(result.ok).toBe(false)
    const byKind = (kind: string) => differences.filter((d) => d.kind === kind)
    expect(byKind('users')).toEqual([
      {
        kind: 'users',
        id: `${String(user.id)} (${String(user.user_id)})`,
        what: 'mail differs',
        source: 'moved@valmont.example',
        target: String(user.mail),
      },
    ])
    expect(byKind('notes').map((d) => [d.id, d.what])).toEqual([
      [`record ${String(note.identifier)}`, 'missing in the target'],
      [`record ${String(note.identifier)}`, 'in the target only, not in the source'],
    ])
    expect(byKind('links')).toEqual([
      {
        kind: 'links',
        id: `record ${String(unlinked.res_id)}`,
        what: 'linked records differ',
        source: '[1]',
        target: '[]',
      },
    ])
    expect(byKind('chronoCounters')).toEqual([
      expect.objectContaining({ id: String(counter.id), what: expect.stringMatching(/^below the source/) }),
    ])
    expect(byKind('files')).toEqual([
      expect.objectContaining({
        id: `attachment ${String(attachment.res_id)}`,
        what: "the source's bytes differ from the target's (SHA256)",
      }),
    ])
    expect(result.differences).toBe(differences.length)
    expect(differences).toHaveLength(6)
  })
})
