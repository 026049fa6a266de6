import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

/** GET /rest/digitalSafe/{owner}/verification on a real server (PGlite, or PostgreSQL with TEST_DATABASE_URL). */
const SAFE = '21750001600019'
const PATH = `/rest/digitalSafe/${SAFE}/verification`

let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ mailroom: { throttle: false } })
  for (const subject of ['Coffre 1', 'Coffre 2']) await createRecord(subject)
})

/** A record whose deposit lands in SAFE's chain. */
async function createRecord(subject: string) {
  const created = await s.call('POST', '/rest/resources', {
    auth: 'cchaplin:maarch',
    body: {
      modelId: 1,
      status: 'NEW',
      subject,
      destination: 6,
      format: 'txt',
      encodedFile: Buffer.from(`${subject}\n`).toString('base64'),
    },
  })
  expect(created.status).toBe(200)
}

/** Edits an event behind the journal's back, as someone with the database owner's rights could. */
async function tamper(eventId: string) {
  const db = s.mailroom.db
  await sql`alter table journal_events disable trigger journal_events_append_only`.execute(db)
  try {
    await db
      .updateTable('journal_events')
      .set({ description: 'Nothing to see' })
      .where('event_id', '=', eventId)
      .execute()
  } finally {
    await sql`alter table journal_events enable trigger journal_events_append_only`.execute(db)
  }
}
afterAll(async () => s?.close())

/** The safe's events in chain order, as stored. */
const chain = () =>
  s.mailroom.db
    .selectFrom('journal_events')
    .select(['sequence', 'event_id'])
    .where('safe', '=', SAFE)
    .orderBy('sequence')
    .execute()

describe('GET /rest/digitalSafe/{owner}/verification', () => {
  it('answers that an intact chain verifies, with its size, head and seal state (Basic and bearer alike)', async () => {
    const r = await s.call('GET', PATH, { auth: 'bbain:maarch' })
    expect(r.status).toBe(200)
    const events = await chain()
    expect(events.length).toBeGreaterThanOrEqual(2)
    const last = await s.mailroom.db
      .selectFrom('journal_heads')
      .select(['last_sequence', 'last_hash'])
      .where('safe', '=', SAFE)
      .executeTakeFirstOrThrow()
    expect(r.json).toEqual({
      safe: SAFE,
      verified: true,
      eventsChecked: events.length,
      head: { sequence: last.last_sequence, hash: last.last_hash },
      pendingEvents: 0,
      firstBreak: null,
    })
    const login = await s.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'ddur', password: 'maarch' },
    })
    const bearer = await s.call('GET', PATH, { auth: { bearer: login.headers.get('token')! } })
    expect([bearer.status, bearer.json.verified]).toEqual([200, true])
  })

  it("refuses as the journal read does, with the catalogue's messages", async () => {
    expect(await s.call('GET', '/rest/digitalSafe/NOPE/verification').then((r) => [r.status, r.json])).toEqual([
      404,
      { errors: "Organization NOPE doesn't exist" },
    ])
    expect((await s.call('GET', PATH, { auth: null })).status).toBe(401)
    await s.mailroom.db
      .insertInto('entities')
      .values({
        entity_id: 'FAR',
        entity_label: 'Far away',
        short_label: 'Far',
        entity_type: 'Direction',
        parent_entity_id: null,
        business_id: 'FAR-SAFE',
      })
      .execute()
    expect(await s.call('GET', '/rest/digitalSafe/FAR-SAFE/verification').then((r) => [r.status, r.json])).toEqual([
      403,
      { errors: 'The user is not positioned on the organization.' },
    ])
    expect(
      await s
        .call('GET', '/rest/digitalSafe/FAR-SAFE/verification', { auth: 'superadmin:superadmin' })
        .then((r) => [r.status, r.json.verified, r.json.eventsChecked]),
    ).toEqual([200, true, 0])

    const exported = await s.call('GET', '/admin/organisation', { auth: 'superadmin:superadmin' })
    const agent = (exported.json.groups as { id: string }[]).find((group) => group.id === 'AGENT')!
    const withdraw = async (digitalSafe: boolean) =>
      expect(
        (
          await s.call('PUT', '/admin/organisation', {
            auth: 'superadmin:superadmin',
            body: { version: 1, groups: [{ ...agent, digitalSafe }] },
          })
        ).status,
      ).toBe(200)
    await withdraw(false)
    try {
      expect(await s.call('GET', PATH, { auth: 'bbain:maarch' }).then((r) => [r.status, r.json])).toEqual([
        403,
        { errors: 'The user has no group allowed to read the digital safe.' },
      ])
    } finally {
      await withdraw(true)
    }
  })

  it('resumes from the last verified point, walking only what was added since', async () => {
    const before = await s.call('GET', PATH, { auth: 'bbain:maarch' })
    expect(before.json).toMatchObject({ verified: true, resumedAfter: before.json.head.sequence })
    await createRecord('Coffre 3')
    const after = await s.call('GET', PATH, { auth: 'bbain:maarch' })
    const events = await chain()
    expect(after.json).toMatchObject({
      verified: true,
      eventsChecked: events.length,
      head: { sequence: events.at(-1)!.sequence },
      resumedAfter: before.json.head.sequence,
      firstBreak: null,
    })
  })

  it('walks the whole chain again with full=true for root users only; other values are refused', async () => {
    const full = await s.call('GET', `${PATH}?full=true`, { auth: 'superadmin:superadmin' })
    expect(full.status).toBe(200)
    expect(full.json).toMatchObject({ verified: true, eventsChecked: (await chain()).length })
    expect(full.json).not.toHaveProperty('resumedAfter')
    expect(await s.call('GET', `${PATH}?full=true`, { auth: 'bbain:maarch' }).then((r) => [r.status, r.json])).toEqual([
      403,
      { errors: 'Only root users may ask for a full verification of the chain (full=true)' },
    ])
    expect(await s.call('GET', `${PATH}?full=yes`, { auth: 'bbain:maarch' }).then((r) => [r.status, r.json])).toEqual([
      400,
      { errors: 'full must be true or false' },
    ])
    expect(
      await s.call('GET', `${PATH}?full=false&full=true`, { auth: 'bbain:maarch' }).then((r) => [r.status, r.json]),
    ).toEqual([400, { errors: 'Query parameter full must be given at most once' }])
    expect((await s.call('GET', `${PATH}?full=false`, { auth: 'bbain:maarch' })).json.verified).toBe(true)
  })

  it('finds an event tampered after the verified point', async () => {
    const verifiedUpTo = (await s.call('GET', PATH, { auth: 'bbain:maarch' })).json.head.sequence as number
    await createRecord('Coffre 4')
    // The deposit is linked into the chain right after its commit: wait for it.
    let target: { sequence: number; event_id: string } | undefined
    for (let tries = 0; target === undefined && tries < 100; tries++) {
      target = (await chain()).find((event) => event.sequence > verifiedUpTo)
      if (target === undefined) await new Promise((resolve) => setTimeout(resolve, 50))
    }
    if (target === undefined) throw new Error('the deposit was never sealed')
    await tamper(target.event_id)
    const r = await s.call('GET', PATH, { auth: 'bbain:maarch' })
    expect(r.json).toMatchObject({
      verified: false,
      eventsChecked: target.sequence - 1,
      resumedAfter: verifiedUpTo,
      firstBreak: { reason: 'edited', sequence: target.sequence, eventId: target.event_id },
    })
  })

  it('answers that a tampered chain does not verify, naming the first broken event (full=true finds it in the prefix)', async () => {
    const events = await chain()
    const target = events[1]!
    await tamper(target.event_id)
    const r = await s.call('GET', `${PATH}?full=true`, { auth: 'superadmin:superadmin' })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({
      safe: SAFE,
      verified: false,
      eventsChecked: 1,
      pendingEvents: 0,
      firstBreak: {
        reason: 'edited',
        sequence: target.sequence,
        eventId: target.event_id,
        detail: `Event ${target.sequence} in stored order does not match its hash`,
      },
    })
  })
})
