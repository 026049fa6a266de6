import { type ControlledTransaction, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../../testing/src/databases/test-database.js'
import { DatabaseFullTextIndex } from '../../fulltext/database-fulltext-index.js'
import { type MailroomDatabase, openDatabase } from '../open-database.js'
import type { Database } from '../schema.js'

/**
 * Two servers writing the texts of two files of one record at once (migration 0019's triggers). PostgreSQL only
 * (vitest.config.ts lists it so): PGlite has one connection, so two open transactions cannot interleave there.
 * Without the trigger's lock of the record's row before it reads the texts again, the second transaction's update
 * would wait on the first's row lock and then write the words its own snapshot saw: the first file's words lost.
 */
describe("migration 0019's triggers under two concurrent writers of one record's texts", () => {
  let database: TestDatabase
  let first: MailroomDatabase
  let second: MailroomDatabase
  const ids = { record: 0, attachment: 0 }

  beforeAll(async () => {
    database = await createTestDatabase('postgres', { withDemo: true })
    first = await openDatabase(database.target)
    second = await openDatabase(database.target)
    // A record and a reply attached to it: two files whose texts go to the same record's words.
    const record = await sql<{ res_id: number }>`insert into res_letterbox (typist, category_id, model_id, destination)
      values (1, 'incoming', 1, 'PJS') returning res_id`.execute(first.db)
    ids.record = Number(record.rows[0]!.res_id)
    const attachment = await sql<{ res_id: number }>`insert into res_attachments
        (res_id_master, title, typist, status, attachment_type, format, docserver_id, filename)
      values (${ids.record}, 'Réponse', 1, 'A_TRA', 'simple_attachment', 'pdf', 'FASTHD_ATTACH', 'reply.pdf')
      returning res_id`.execute(first.db)
    ids.attachment = Number(attachment.rows[0]!.res_id)
  }, 180_000)
  afterAll(async () => {
    await first?.close()
    await second?.close()
    await database?.drop()
  })

  /** The record's words hold `word` (the column the searches compile `fulltext(...)` to). */
  async function recordHas(word: string): Promise<boolean> {
    const { rows } = await sql<{ found: boolean }>`select coalesce(fulltext_document @@ plainto_tsquery('mailroom_fr',
        ${word}), false) as found from res_letterbox where res_id = ${ids.record}`.execute(first.db)
    return rows[0]?.found === true
  }

  /** Resolves once the backend `pid` waits on a heavyweight lock (a row lock held by another transaction). */
  async function blockedOnLock(pid: number): Promise<void> {
    const until = Date.now() + 30_000
    while (Date.now() < until) {
      const { rows } = await sql<{ waiting: boolean }>`select wait_event_type = 'Lock' as waiting
        from pg_stat_activity where pid = ${pid}`.execute(first.db)
      if (rows[0]?.waiting === true) return
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    throw new Error(`backend ${pid} never waited on a lock: the two transactions did not interleave`)
  }

  async function backendPid(trx: ControlledTransaction<Database>): Promise<number> {
    const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)
    return Number(rows[0]!.pid)
  }

  it("keeps the words of both texts when the second writer waits on the first's lock of the record", async () => {
    expect(await recordHas('gymnase')).toBe(false)
    expect(await recordHas('piscine')).toBe(false)

    const one = await first.db.startTransaction().execute()
    const two = await second.db.startTransaction().execute()
    try {
      const twoPid = await backendPid(two)
      expect(twoPid).not.toBe(await backendPid(one))
      // The record's own file, written the way the index port writes (its trigger locks and updates the record).
      await new DatabaseFullTextIndex(one).put({
        fileKind: 'resource',
        fileId: ids.record,
        resId: ids.record,
        language: 'fr',
        text: 'La toiture du gymnase fuit',
      })
      // The attachment's text, while the first is still open: its trigger must wait for the record's row.
      let secondDone = false
      const secondWrite = new DatabaseFullTextIndex(two)
        .put({
          fileKind: 'attachment',
          fileId: ids.attachment,
          resId: ids.record,
          language: 'fr',
          text: 'Réponse : la piscine rouvrira en septembre',
        })
        .then(() => {
          secondDone = true
        })
      await blockedOnLock(twoPid)
      expect(secondDone).toBe(false)
      await one.commit().execute()
      await secondWrite
      await two.commit().execute()
    } finally {
      if (!one.isCommitted) await one.rollback().execute()
      if (!two.isCommitted) await two.rollback().execute()
    }

    expect(await recordHas('gymnase')).toBe(true)
    expect(await recordHas('piscine')).toBe(true)
    // The same words as the two texts joined in the triggers' order (the record's own file first): nothing lost.
    const { rows } = await sql<{ same: boolean; texts: number }>`select r.fulltext_document = (select
        mailroom_tsvector_concat(t.document order by t.file_kind desc, t.file_id) from fulltext_texts as t
        where t.res_id = r.res_id) as same, (select count(*)::int from fulltext_texts as t where t.res_id = r.res_id) as texts
      from res_letterbox as r where r.res_id = ${ids.record}`.execute(first.db)
    expect(rows[0]).toEqual({ same: true, texts: 2 })
  })
})
