import { type Actor, contentViewHistory } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import type { Database } from '../database/schema.js'
import { JournalWriter } from '../journal/journal-writer.js'
import { ReadAudit, type ReadAuditJournal } from './read-audit.js'

let t: TestMailroom
let bbain: Actor
beforeAll(async () => {
  t = await createTestMailroom()
  bbain = await t.mailroom.auth.authenticatePassword('bbain', 'maarch')
})
afterAll(async () => t?.cleanup())

const SILENT = { info() {}, warn() {}, error() {} }
const clock = { now: () => new Date('2024-03-01T09:00:00Z') }

type Consultation = { resId: number; sha256: string; size: number; actor: Actor }

/** A journal that remembers each group asked for (one array per commit), fails for the resIds given, writes no row. */
function recordingJournal(failFor: ReadonlySet<number> = new Set()) {
  const batches: number[][] = []
  const journal: ReadAuditJournal = {
    committing: (commit) =>
      commit({
        async consultationRows(_db: Kysely<Database>, requests: readonly Consultation[]) {
          if (requests.some((r) => failFor.has(r.resId))) throw new Error('journal refused')
          batches.push(requests.map((r) => r.resId))
          return []
        },
      }),
  }
  return { journal, batches }
}

async function viewRows(resIds: readonly number[]) {
  const rows = await t.mailroom.db
    .selectFrom('history')
    .select(['record_id', 'event_type', 'event_id', 'info', 'user_id', 'remote_ip'])
    .where('event_type', '=', 'VIEW')
    .where('record_id', 'in', resIds.map(String))
    .execute()
  return rows.sort((a, b) => Number(a.record_id) - Number(b.record_id))
}

describe('ReadAudit', () => {
  it('commits one VIEW history row and one consultation per read, sharing a commit among reads that arrive together', async () => {
    const { journal, batches } = recordingJournal()
    const audit = new ReadAudit({ db: t.mailroom.db, journal, clock, logger: SILENT })
    const resIds = Array.from({ length: 24 }, (_, i) => 91_000 + i)
    await Promise.all(
      resIds.map((resId) =>
        audit.record({
          actor: bbain,
          resId,
          sha256: 'ab'.repeat(32),
          size: 10,
          history: contentViewHistory(resId),
          remoteIp: '10.0.0.1',
        }),
      ),
    )
    const rows = await viewRows(resIds)
    expect(rows.map((r) => Number(r.record_id))).toEqual(resIds)
    expect(rows[0]).toMatchObject({
      event_id: 'resview',
      info: `Viewing document : ${resIds[0]}`,
      user_id: bbain.id,
      remote_ip: '10.0.0.1',
    })
    expect(batches.flat().sort()).toEqual(resIds)
    // The first read is written at once; the 23 that queued behind its commit share the next one.
    expect(batches.length).toBeLessThan(resIds.length)
    expect(batches[0]).toEqual([resIds[0]])
  })

  it('writes no history row for a read that asks for none, but still journals it', async () => {
    const { journal, batches } = recordingJournal()
    const audit = new ReadAudit({ db: t.mailroom.db, journal, clock, logger: SILENT })
    await audit.record({ actor: bbain, resId: 92_000, sha256: 'cd'.repeat(32), size: 3, history: null })
    expect(await viewRows([92_000])).toEqual([])
    expect(batches).toEqual([[92_000]])
  })

  it('fails only the read whose entry cannot be written when its group fails, and keeps the others', async () => {
    const { journal } = recordingJournal(new Set([93_003]))
    const audit = new ReadAudit({ db: t.mailroom.db, journal, clock, logger: SILENT })
    const resIds = Array.from({ length: 8 }, (_, i) => 93_000 + i)
    const outcomes = await Promise.allSettled(
      resIds.map((resId) =>
        audit.record({ actor: bbain, resId, sha256: 'ef'.repeat(32), size: 1, history: contentViewHistory(resId) }),
      ),
    )
    expect(outcomes.map((o) => o.status)).toEqual(resIds.map((id) => (id === 93_003 ? 'rejected' : 'fulfilled')))
    // The failed entry left no history row.
    expect((await viewRows(resIds)).map((r) => Number(r.record_id))).toEqual(resIds.filter((id) => id !== 93_003))
  })

  it('keeps serving after a failure: later reads are written', async () => {
    const { journal } = recordingJournal(new Set([94_000]))
    const audit = new ReadAudit({ db: t.mailroom.db, journal, clock, logger: SILENT })
    await expect(
      audit.record({
        actor: bbain,
        resId: 94_000,
        sha256: 'aa'.repeat(32),
        size: 1,
        history: contentViewHistory(94_000),
      }),
    ).rejects.toThrow('journal refused')
    await audit.record({
      actor: bbain,
      resId: 94_001,
      sha256: 'aa'.repeat(32),
      size: 1,
      history: contentViewHistory(94_001),
    })
    expect((await viewRows([94_000, 94_001])).map((r) => Number(r.record_id))).toEqual([94_001])
  })

  describe('with the digital-safe journal', () => {
    const PDF_BASE64 = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    ).toString('base64')

    /** A record with a file (so an archive to journal consultations in) and its archive id. */
    async function depositedRecord(): Promise<{ resId: number; archiveId: string }> {
      const cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
      const { resId } = await t.mailroom.records.create(cchaplin, {
        modelId: 1,
        status: 'NEW',
        encodedFile: PDF_BASE64,
        format: 'pdf',
      })
      const archive = await t.mailroom.db
        .selectFrom('journal_archives')
        .select('archive_id')
        .where('res_id', '=', resId)
        .executeTakeFirstOrThrow()
      return { resId, archiveId: archive.archive_id }
    }

    /**
     * Consultation events of an archive, pending or already sealed into the chain, counted in one statement:
     * a background seal may move events from one table to the other between two separate queries.
     */
    async function consultations(archiveId: string): Promise<number> {
      const { rows } = await sql<{ n: number }>`select (
          (select count(*) from journal_pending where object_id = ${archiveId} and event_type = 'recordsManagement/consultation')
        + (select count(*) from journal_events where object_id = ${archiveId} and event_type = 'recordsManagement/consultation'))::int as n`.execute(
        t.mailroom.db,
      )
      return rows[0]!.n
    }

    it("writes the group's VIEW rows and consultation events together, and neither when the events cannot be written", async () => {
      const audit = new ReadAudit({ db: t.mailroom.db, journal: new JournalWriter({ clock }), clock, logger: SILENT })
      const [kept, refused] = [await depositedRecord(), await depositedRecord()]
      await Promise.all(
        [kept, kept].map((r) =>
          audit.record({
            actor: bbain,
            resId: r.resId,
            sha256: 'ab'.repeat(32),
            size: 10,
            history: contentViewHistory(r.resId),
          }),
        ),
      )
      expect(await viewRows([kept.resId])).toHaveLength(2)
      expect(await consultations(kept.archiveId)).toBe(2)

      await sql`alter table journal_pending add constraint refuse_all check (false) not valid`.execute(t.mailroom.db)
      try {
        await expect(
          audit.record({
            actor: bbain,
            resId: refused.resId,
            sha256: 'ab'.repeat(32),
            size: 10,
            history: contentViewHistory(refused.resId),
          }),
        ).rejects.toMatchObject({ code: '23514' })
      } finally {
        await sql`alter table journal_pending drop constraint refuse_all`.execute(t.mailroom.db)
      }
      expect(await viewRows([refused.resId])).toEqual([])
      expect(await consultations(refused.archiveId)).toBe(0)
    })
  })
})
