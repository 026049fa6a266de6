import { createHash } from 'node:crypto'
import { isDomainError, verifyChain } from '@mailroom/core'
import { buildSafeDirectory } from '@mailroom/core/internal'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readStoredFile } from '../../../testing/src/fixtures/insert-test-record.js'
import { DEMO_SAFE, type JournalTestBed, openJournalTestBed, safeRows } from '../../test/journal-fixtures.js'
import { rowToEvent, sha256Hex } from './journal-rows.js'
import { type JournalConsultationRequest, type JournalRowsOfCommit, JournalWriter } from './journal-writer.js'

let bed: JournalTestBed
beforeAll(async () => {
  bed = await openJournalTestBed()
})
afterAll(async () => bed?.close())

async function archiveOf(resId: number) {
  await bed.flush()
  return bed.db.selectFrom('journal_archives').selectAll().where('res_id', '=', resId).execute()
}

async function eventsOf(objectId: string) {
  await bed.flush()
  const rows = await bed.db
    .selectFrom('journal_events')
    .selectAll()
    .where('object_id', '=', objectId)
    .orderBy('sequence')
    .execute()
  return rows.map(rowToEvent)
}

async function head(safe = DEMO_SAFE) {
  await bed.flush()
  return bed.db.selectFrom('journal_heads').selectAll().where('safe', '=', safe).executeTakeFirst()
}

describe('JournalWriter.deposit', () => {
  it('opens an archive in the safe of the destination and writes a deposit whose hash is the stored bytes’ SHA-256', async () => {
    const bbain = await bed.actor('bbain')
    bed.clock.advance(1000)
    const record = await bed.depositRecord(bbain, { destination: 'PE', bytes: 'Bonjour la mairie\n' })
    const [archive] = await archiveOf(record.resId)
    expect(archive).toMatchObject({ safe: DEMO_SAFE, res_id: record.resId })
    expect(archive!.archive_id).toMatch(/^mailroom_[a-z0-9]+-[0-9a-f]{20}$/)
    const [event] = await eventsOf(archive!.archive_id)
    const stored = await readStoredFile(bed.t.documents, record.key)
    expect(event).toMatchObject({
      eventType: 'recordsManagement/deposit',
      objectClass: 'recordsManagement/archive',
      objectId: archive!.archive_id,
      safe: DEMO_SAFE,
      orgRegNumber: DEMO_SAFE,
      orgUnitRegNumber: 'PJS',
      accountId: 'bbain',
      accountName: 'Barbara BAIN',
      instanceName: 'mailroom',
      operationResult: true,
      timestamp: bed.clock.now(),
      description: `Deposit of archive ${archive!.archive_id}`,
      info: {
        resId: String(record.resId),
        hashAlgorithm: 'SHA256',
        hash: createHash('sha256').update(stored).digest('hex'),
        size: stored.length,
        originatorOrgRegNumber: 'PE',
        depositorOrgRegNumber: 'PJS',
        archiverOrgRegNumber: 'VILLE',
        originatorArchiveId: String(record.resId),
      },
    })
    expect(await head()).toMatchObject({ last_sequence: event!.sequence, last_hash: event!.hash })
  })

  it('deposits a record without destination in the default safe, VILLE as originator', async () => {
    const cchaplin = await bed.actor('cchaplin')
    const record = await bed.depositRecord(cchaplin, { destination: null })
    const [archive] = await archiveOf(record.resId)
    const [event] = await eventsOf(archive!.archive_id)
    expect(event!.info).toMatchObject({
      originatorOrgRegNumber: 'VILLE',
      depositorOrgRegNumber: 'VILLE',
      archiverOrgRegNumber: 'VILLE',
    })
    expect(event).toMatchObject({ accountId: 'cchaplin', accountName: 'Charlie CHAPLIN', orgUnitRegNumber: 'VILLE' })
  })

  it('appends depositNewResource to the record’s archive, and opens one when the record has none', async () => {
    const ppetit = await bed.actor('ppetit')
    const record = await bed.depositRecord(ppetit, { destination: 'COU' })
    const v2 = new TextEncoder().encode('version 2')
    await bed.db.transaction().execute((trx) =>
      bed.context.journal.deposit(trx, {
        resId: record.resId,
        destination: 'CAB',
        sha256: sha256Hex('version 2'),
        size: v2.length,
        actor: ppetit,
        kind: 'newResource',
      }),
    )
    const archives = await archiveOf(record.resId)
    expect(archives).toHaveLength(1)
    const events = await eventsOf(archives[0]!.archive_id)
    expect(events.map((e) => e.eventType)).toEqual([
      'recordsManagement/deposit',
      'recordsManagement/depositNewResource',
    ])
    expect(events[1]).toMatchObject({
      description: `Deposit of a resource in archive ${archives[0]!.archive_id}`,
      info: {
        hash: sha256Hex('version 2'),
        size: 9,
        originatorOrgRegNumber: 'CAB',
        depositorOrgRegNumber: 'COU',
        resId: String(record.resId),
      },
    })

    const bare = await bed.storeRecord({ destination: 'DSI' })
    await bed.db.transaction().execute((trx) =>
      bed.context.journal.deposit(trx, {
        resId: bare.resId,
        destination: 'DSI',
        sha256: bare.sha256,
        size: bare.size,
        actor: ppetit,
        kind: 'newResource',
      }),
    )
    const [opened] = await archiveOf(bare.resId)
    expect((await eventsOf(opened!.archive_id)).map((e) => e.eventType)).toEqual([
      'recordsManagement/depositNewResource',
    ])
  })

  it('deposits in the safe of another top-level entity, named by its entity_id when it has no business_id', async () => {
    await bed.db
      .insertInto('entities')
      .values([
        {
          entity_id: 'AGGLO',
          entity_label: 'Agglomération',
          short_label: 'Agglo',
          entity_type: 'Direction',
          parent_entity_id: null,
          business_id: '',
        },
        {
          entity_id: 'AGGLO_RH',
          entity_label: 'RH Agglo',
          short_label: 'RH',
          entity_type: 'Service',
          parent_entity_id: 'AGGLO',
          business_id: null,
        },
      ])
      .execute()
    const bblier = await bed.actor('bblier')
    const record = await bed.depositRecord(bblier, { destination: 'AGGLO_RH' })
    const [archive] = await archiveOf(record.resId)
    expect(archive!.safe).toBe('AGGLO')
    const [event] = await eventsOf(archive!.archive_id)
    expect(event).toMatchObject({
      safe: 'AGGLO',
      orgRegNumber: 'AGGLO',
      sequence: 1,
      previousHash: null,
      orgUnitRegNumber: 'DGS',
    })
    expect(event!.info).toMatchObject({ originatorOrgRegNumber: 'AGGLO_RH', archiverOrgRegNumber: 'AGGLO' })
  })

  it('writes nothing when the caller’s transaction rolls back', async () => {
    const before = await head()
    const record = await bed.storeRecord()
    const bbain = await bed.actor('bbain')
    await expect(
      bed.db.transaction().execute(async (trx) => {
        await bed.context.journal.deposit(trx, {
          resId: record.resId,
          destination: 'PJS',
          sha256: record.sha256,
          size: record.size,
          actor: bbain,
          kind: 'deposit',
        })
        throw new Error('create failed later')
      }),
    ).rejects.toThrow('create failed later')
    expect(await head()).toEqual(before)
    expect(await archiveOf(record.resId)).toEqual([])
  })

  it('keeps one gap-free chain under concurrent deposits', async () => {
    const bbain = await bed.actor('bbain')
    const records = await Promise.all(Array.from({ length: 12 }, () => bed.storeRecord()))
    await Promise.all(
      records.map((record) =>
        bed.db.transaction().execute((trx) =>
          bed.context.journal.deposit(trx, {
            resId: record.resId,
            destination: 'PJS',
            sha256: record.sha256,
            size: record.size,
            actor: bbain,
            kind: 'deposit',
          }),
        ),
      ),
    )
    await bed.flush()
    const events = (await safeRows(bed.db)).map(rowToEvent)
    expect(events.map((e) => e.sequence)).toEqual(events.map((_, i) => i + 1))
    const last = events.at(-1)!
    expect(verifyChain(events, sha256Hex, { checkpoint: { sequence: last.sequence, hash: last.hash } })).toMatchObject({
      ok: true,
    })
    expect(await head()).toMatchObject({ last_sequence: last.sequence, last_hash: last.hash })
  })
})

describe('JournalWriter.consultation and integrityCheck', () => {
  it('append to the record’s archive with the stored fingerprint', async () => {
    const bbain = await bed.actor('bbain')
    const bblier = await bed.actor('bblier')
    const record = await bed.depositRecord(bbain)
    bed.clock.advance(60_000)
    await bed.db.transaction().execute((trx) =>
      bed.context.journal.consultation(trx, {
        resId: record.resId,
        sha256: record.sha256,
        size: record.size,
        actor: bblier,
      }),
    )
    bed.clock.advance(60_000)
    await bed.db.transaction().execute((trx) =>
      bed.context.journal.integrityCheck(trx, {
        resId: record.resId,
        sha256: record.sha256,
        size: record.size,
        actor: bblier,
        ok: true,
        info: 'ignored',
      }),
    )
    await bed.db.transaction().execute((trx) =>
      bed.context.journal.integrityCheck(trx, {
        resId: record.resId,
        sha256: record.sha256,
        size: record.size,
        actor: bbain,
        ok: false,
        info: 'Fingerprints do not match',
      }),
    )
    const [archive] = await archiveOf(record.resId)
    const events = await eventsOf(archive!.archive_id)
    expect(events.map((e) => [e.eventType, e.operationResult, e.accountId])).toEqual([
      ['recordsManagement/deposit', true, 'bbain'],
      ['recordsManagement/consultation', true, 'bblier'],
      ['recordsManagement/integrityCheck', true, 'bblier'],
      ['recordsManagement/integrityCheck', false, 'bbain'],
    ])
    expect(events[1]).toMatchObject({
      orgUnitRegNumber: 'DGS',
      description: `Consultation of resource ${record.resId}`,
      info: {
        resId: String(record.resId),
        hashAlgorithm: 'SHA256',
        hash: record.sha256,
        size: record.size,
        originatorArchiveId: String(record.resId),
      },
    })
    expect(events[2]!.info).toMatchObject({
      info: 'Checking succeeded',
      requesterOrgRegNumber: 'DGS',
      hash: record.sha256,
    })
    expect(events[3]!.info).toMatchObject({ info: 'Fingerprints do not match', requesterOrgRegNumber: 'PJS' })
    expect(events[3]!.timestamp.getTime() - events[0]!.timestamp.getTime()).toBe(120_000)
  })

  it('do nothing for a record that was never deposited', async () => {
    const before = await head()
    const bare = await bed.storeRecord()
    const bbain = await bed.actor('bbain')
    await bed.db.transaction().execute(async (trx) => {
      await bed.context.journal.consultation(trx, {
        resId: bare.resId,
        sha256: bare.sha256,
        size: bare.size,
        actor: bbain,
      })
      await bed.context.journal.integrityCheck(trx, {
        resId: bare.resId,
        sha256: bare.sha256,
        size: bare.size,
        actor: bbain,
        ok: false,
        info: 'x',
      })
    })
    expect(await head()).toEqual(before)
  })
})

describe('JournalWriter.consultationRows', () => {
  /** What the read audit does with them: insert the rows in a statement of its own, inside committing. */
  async function consult(requests: readonly JournalConsultationRequest[]): Promise<void> {
    await bed.context.journal.committing(async (journal) => {
      const rows = await journal.consultationRows(bed.db, requests)
      if (rows.length > 0) await bed.db.insertInto('journal_pending').values(rows).execute()
    })
  }

  it('writes the same events as one consultation call each, in order, skipping records never deposited, and the chain still verifies', async () => {
    const bbain = await bed.actor('bbain')
    const bblier = await bed.actor('bblier')
    const first = await bed.depositRecord(bbain)
    const second = await bed.depositRecord(bbain, { destination: 'PE', bytes: 'second' })
    const bare = await bed.storeRecord()
    bed.clock.advance(60_000)
    const request = (record: typeof first, actor: typeof bbain) => ({
      resId: record.resId,
      sha256: record.sha256,
      size: record.size,
      actor,
    })
    await consult([request(first, bblier), request(bare, bblier), request(second, bbain), request(first, bbain)])
    const [firstArchive] = await archiveOf(first.resId)
    const [secondArchive] = await archiveOf(second.resId)
    expect(await archiveOf(bare.resId)).toEqual([])
    const firstEvents = await eventsOf(firstArchive!.archive_id)
    expect(firstEvents.map((e) => [e.eventType, e.accountId])).toEqual([
      ['recordsManagement/deposit', 'bbain'],
      ['recordsManagement/consultation', 'bblier'],
      ['recordsManagement/consultation', 'bbain'],
    ])
    expect(firstEvents[1]).toMatchObject({
      orgUnitRegNumber: 'DGS',
      description: `Consultation of resource ${first.resId}`,
      info: {
        resId: String(first.resId),
        hashAlgorithm: 'SHA256',
        hash: first.sha256,
        size: first.size,
        originatorArchiveId: String(first.resId),
      },
    })
    expect((await eventsOf(secondArchive!.archive_id)).map((e) => [e.eventType, e.accountId])).toEqual([
      ['recordsManagement/deposit', 'bbain'],
      ['recordsManagement/consultation', 'bbain'],
    ])
    const events = (await safeRows(bed.db)).map(rowToEvent)
    const last = events.at(-1)!
    expect(verifyChain(events, sha256Hex, { checkpoint: { sequence: last.sequence, hash: last.hash } })).toMatchObject({
      ok: true,
    })
  })

  it('writes nothing for an empty list or only records never deposited', async () => {
    const before = await head()
    const bare = await bed.storeRecord()
    const bbain = await bed.actor('bbain')
    await consult([])
    await consult([{ resId: bare.resId, sha256: bare.sha256, size: bare.size, actor: bbain }])
    expect(await head()).toEqual(before)
  })
})

describe('JournalWriter.committing', () => {
  async function pendingCount(): Promise<number> {
    const row = await bed.db
      .selectFrom('journal_pending')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
    return Number(row.n)
  }

  it('has the rows a commit inserted sealed soon after it resolved, with no flush and no sweep', async () => {
    const bbain = await bed.actor('bbain')
    const record = await bed.depositRecord(bbain)
    const writer = new JournalWriter({ clock: bed.clock, db: bed.db, sealDelayMs: 1, sweepIntervalMs: 0 })
    try {
      await writer.committing(async (journal) => {
        const rows = await journal.consultationRows(bed.db, [
          { resId: record.resId, sha256: record.sha256, size: record.size, actor: bbain },
        ])
        expect(rows).toHaveLength(1)
        await bed.db.insertInto('journal_pending').values(rows).execute()
      })
      for (let waited = 0; (await pendingCount()) > 0 && waited < 5000; waited += 10)
        await new Promise((resolve) => setTimeout(resolve, 10))
      expect(await pendingCount()).toBe(0)
    } finally {
      await writer.close()
    }
  })

  it('refuses to prepare rows with a handle kept after its commit ended', async () => {
    const bbain = await bed.actor('bbain')
    const record = await bed.depositRecord(bbain)
    let kept: JournalRowsOfCommit | undefined
    await bed.context.journal.committing(async (journal) => {
      kept = journal
    })
    const request = { resId: record.resId, sha256: record.sha256, size: record.size, actor: bbain }
    expect(() => kept?.prepareDeposit(buildSafeDirectory([]), { ...request, destination: null })).toThrow(
      /after their commit ended/,
    )
    await expect(kept?.consultationRows(bed.db, [request])).rejects.toThrow(/after their commit ended/)
    expect(await pendingCount()).toBe(0)
  })
})

describe('append-only storage', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of journal events, and moving a head backwards', async () => {
    const [first] = await safeRows(bed.db)
    const refused = async (statement: Promise<unknown>, message: RegExp) => {
      const error = await statement.then(
        () => null,
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(Error)
      expect(isDomainError(error)).toBe(false)
      expect((error as Error).message).toMatch(message)
    }
    await refused(
      bed.db.updateTable('journal_events').set({ description: 'x' }).where('event_id', '=', first!.event_id).execute(),
      /append-only/,
    )
    await refused(bed.db.deleteFrom('journal_events').where('event_id', '=', first!.event_id).execute(), /append-only/)
    await refused(sql`truncate journal_events`.execute(bed.db), /append-only/)
    await refused(
      bed.db.updateTable('journal_heads').set({ last_sequence: 1 }).where('safe', '=', DEMO_SAFE).execute(),
      /only move forward/,
    )
    await refused(bed.db.deleteFrom('journal_heads').where('safe', '=', DEMO_SAFE).execute(), /cannot be deleted/)
    expect((await safeRows(bed.db))[0]).toEqual(first)
  })
})
