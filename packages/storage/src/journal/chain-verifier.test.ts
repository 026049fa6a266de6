import type { Actor } from '@mailroom/core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addOrganisation, type JournalTestBed, openJournalTestBed, safeRows } from '../../test/journal-fixtures.js'
import { createChainVerifier } from './chain-verifier.js'

let bed: JournalTestBed
let bbain: Actor

beforeAll(async () => {
  bed = await openJournalTestBed()
  bbain = await bed.actor('bbain')
})
afterAll(async () => bed?.close())
beforeEach(() => bed.clock.advance(60_000))

/** A fresh safe with `count` deposits. */
async function freshSafe(count: number): Promise<string> {
  const id = `C${Math.random().toString(36).slice(2, 8).toUpperCase()}`
  const safe = await addOrganisation(bed.db, id, `${id}-SAFE`)
  await deposit(id, count)
  return safe
}

async function deposit(id: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    bed.clock.advance(1000)
    await bed.depositRecord(bbain, { destination: `${id}_S` })
  }
}

const idOf = (safe: string) => safe.replace(/-SAFE$/, '')

async function editEvent(safe: string, sequence: number): Promise<string> {
  const target = (await safeRows(bed.db, safe)).find((row) => row.sequence === sequence)!
  await bed.withTriggersDisabled((db) =>
    db
      .updateTable('journal_events')
      .set({ description: 'Nothing to see' })
      .where('event_id', '=', target.event_id)
      .execute(),
  )
  return target.event_id
}

const point = (safe: string) =>
  bed.db.selectFrom('journal_verified_points').select(['sequence', 'hash']).where('safe', '=', safe).executeTakeFirst()

describe('createChainVerifier', () => {
  it('walks the whole chain once, then only what was added, re-checking the verified point', async () => {
    const verifier = createChainVerifier(bed.context)
    const safe = await freshSafe(3)
    const first = await verifier.verify(safe, { full: false })
    expect(first).toMatchObject({ safe, ok: true, events: 3, head: { sequence: 3 } })
    expect(first.resumedAfter).toBeUndefined()
    expect(await point(safe)).toEqual(first.head)

    const again = await verifier.verify(safe, { full: false })
    expect(again).toMatchObject({ ok: true, events: 3, resumedAfter: 3 })

    await deposit(idOf(safe), 2)
    const grown = await verifier.verify(safe, { full: false })
    expect(grown).toMatchObject({ ok: true, events: 5, resumedAfter: 3, head: { sequence: 5 } })
    expect(await point(safe)).toEqual(grown.head)
    // Another server (another verifier) resumes from the same point: it is in the database.
    expect(await createChainVerifier(bed.context).verify(safe, { full: false })).toMatchObject({
      ok: true,
      resumedAfter: 5,
    })
  })

  it('finds an event edited after the verified point, and keeps the point where it was', async () => {
    const verifier = createChainVerifier(bed.context)
    const safe = await freshSafe(2)
    await verifier.verify(safe, { full: false })
    await deposit(idOf(safe), 2)
    const eventId = await editEvent(safe, 4)
    expect(await verifier.verify(safe, { full: false })).toMatchObject({
      ok: false,
      events: 3,
      resumedAfter: 2,
      break: { reason: 'edited', sequence: 4, eventId },
    })
    expect(await point(safe)).toMatchObject({ sequence: 2 })
  })

  it('finds the verified point itself edited, or gone', async () => {
    const verifier = createChainVerifier(bed.context)
    const edited = await freshSafe(3)
    await verifier.verify(edited, { full: false })
    const eventId = await editEvent(edited, 3)
    expect(await verifier.verify(edited, { full: false })).toMatchObject({
      ok: false,
      events: 2,
      resumedAfter: 3,
      break: { reason: 'edited', sequence: 3, eventId },
    })

    const truncated = await freshSafe(3)
    await verifier.verify(truncated, { full: false })
    await bed.withTriggersDisabled(async (db) => {
      await db.deleteFrom('journal_events').where('safe', '=', truncated).where('sequence', '=', 3).execute()
      await db.updateTable('journal_heads').set({ last_sequence: 2 }).where('safe', '=', truncated).execute()
    })
    expect(await verifier.verify(truncated, { full: false })).toMatchObject({
      ok: false,
      break: { reason: 'truncated', detail: 'Event 3, verified earlier, is no longer in the chain' },
    })
  })

  it('finds a rewritten chain whose events hash right but differ from the verified point', async () => {
    const verifier = createChainVerifier(bed.context)
    const safe = await freshSafe(2)
    await verifier.verify(safe, { full: false })
    // The point recorded no longer matches the event now at its sequence (as after a rewrite of the chain).
    await bed.db
      .updateTable('journal_verified_points')
      .set({ hash: 'f'.repeat(64) })
      .where('safe', '=', safe)
      .execute()
    expect(await verifier.verify(safe, { full: false })).toMatchObject({
      ok: false,
      break: { reason: 'checkpoint-mismatch', sequence: 2 },
    })
  })

  it('walks the whole chain with full, finding what the verified prefix hides', async () => {
    const verifier = createChainVerifier(bed.context)
    const safe = await freshSafe(4)
    await verifier.verify(safe, { full: false })
    const eventId = await editEvent(safe, 2)
    // The prefix is not walked again: the resumed walk does not see it...
    expect(await verifier.verify(safe, { full: false })).toMatchObject({ ok: true, resumedAfter: 4 })
    // ...the full one does.
    const full = await verifier.verify(safe, { full: true })
    expect(full).toMatchObject({ ok: false, events: 1, break: { reason: 'edited', sequence: 2, eventId } })
    expect(full.resumedAfter).toBeUndefined()
  })

  it('lets concurrent callers of one safe share one walk; a full walk waits for an incremental one', async () => {
    const verifier = createChainVerifier(bed.context)
    const safe = await freshSafe(3)
    const other = await freshSafe(1)
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => verifier.verify(safe, { full: false })),
      verifier.verify(other, { full: false }),
    ])
    // One walk: every caller of the safe got the very same answer object; the other safe had its own.
    expect(new Set(answers.slice(0, 8)).size).toBe(1)
    expect(answers[8]).not.toBe(answers[0])
    expect(answers[8]).toMatchObject({ safe: other, ok: true })

    const [incremental, full, joined] = await Promise.all([
      verifier.verify(safe, { full: false }),
      verifier.verify(safe, { full: true }),
      verifier.verify(safe, { full: false }),
    ])
    expect(joined).toBe(incremental)
    expect(incremental).toMatchObject({ ok: true, resumedAfter: 3 })
    expect(full).not.toBe(incremental)
    expect(full).toMatchObject({ ok: true, events: 3 })
    expect(full.resumedAfter).toBeUndefined()
    // Once settled, a new call walks again.
    expect(await verifier.verify(safe, { full: false })).not.toBe(incremental)
  })
})
