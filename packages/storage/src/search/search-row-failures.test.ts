import { type Actor, isDomainError, parseClause } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { seedSearchDataset } from '../../../testing/src/fixtures/search-test-dataset.js'
import { mayFailOnRow } from './row-failures.js'

/**
 * A res/list clause that fails on some record's values (division by zero, a cast, a negative substring length)
 * answers 400 only when a record of the caller's perimeter makes it fail: bbain (AGENT, PJS and PE) learns
 * nothing of the DSI record `outside` from a 400, and still gets one when her own record `inside` fails.
 * (PostgreSQL orders a WHERE's conditions by their cost: a perimeter of several sub-queries comes after a
 * division, which it then tries on records outside the perimeter.)
 */
let t: TestMailroom
const actors = new Map<string, Actor>()
let inside = 0
let outside = 0

async function record(destination: string): Promise<number> {
  const { rows } = await sql<{ res_id: number }>`insert into res_letterbox
      (subject, type_id, typist, category_id, model_id, status, destination)
    values ('decoy', 101, 1, 'incoming', 1, 'NEW', ${destination}) returning res_id`.execute(t.mailroom.db)
  return Number(rows[0]!.res_id)
}

beforeAll(async () => {
  t = await createTestMailroom()
  await seedSearchDataset(t.mailroom.db, t.documents)
  for (const [login, password] of [
    ['superadmin', 'superadmin'],
    ['bbain', 'maarch'],
  ] as const)
    actors.set(login, (await t.mailroom.auth.authenticatePassword(login, password))!)
  // With followed records and shared folders, bbain's perimeter costs PostgreSQL more than a division: it would
  // test the division first, on every record.
  const bbain = actors.get('bbain')!
  actors.set('bbain', {
    ...bbain,
    groups: bbain.groups.map((g) => ({
      ...g,
      privileges: [...(g.privileges ?? []), 'include_folders_and_followed_resources_perimeter'],
    })),
  })
  // Made in this order, the records after them are only `outside`.
  inside = await record('PJS')
  outside = await record('DSI')
}, 120_000)
afterAll(async () => t?.cleanup())

/** The answer, or the refusal as a value, so that both compare. */
async function answerOf(login: string, clause: string): Promise<unknown> {
  try {
    return await t.mailroom.search.list(actors.get(login)!, { select: 'res_id', clause, limit: 1000 })
  } catch (error) {
    if (isDomainError(error)) return `${error.kind}: ${error.message}`
    throw error
  }
}

/** Clauses that fail on the record `id` alone (or on none, for an id no record holds). */
const FAILING_ON: readonly ((id: number | string) => string)[] = [
  (id) => `1/(res_id - ${id}) = 1`,
  (id) => `res_id = ${id} and 1/(res_id - ${id}) = 1`,
  (id) => `res_id >= ${id} and 100/(res_id - ${id}) = 1`,
  (id) => `res_id % (res_id - ${id}) = 0 or subject = 'decoy'`,
  (id) => `substring(subject, 1, cast(${id} - res_id - 1 as integer)) = 'x'`,
  (id) => `subject like 'decoy%' and 1/(res_id - ${id}) > 0`,
]
const NO_RECORD = 2_000_000_000

describe('POST /rest/res/list: a clause failing on a record outside the perimeter', () => {
  for (const clause of FAILING_ON) {
    it(`${clause('<id>')}: answers bbain as if no record held the failing value`, async () => {
      // The clause does fail on `outside`: superadmin gets the 400.
      expect(await answerOf('superadmin', clause(outside))).toBe('bad-request: Request is not valid')
      expect(await answerOf('bbain', clause(outside))).toEqual(await answerOf('bbain', clause(NO_RECORD)))
      expect(await answerOf('bbain', clause(outside))).not.toBeTypeOf('string')
      // On her own record the failure is hers to see.
      expect(await answerOf('bbain', clause(inside))).toBe('bad-request: Request is not valid')
    })
  }

  it("a cast of an outside record's value answers the same whether the value casts or not", async () => {
    const clause = `cast(coalesce(barcode, '0') as integer) = 1`
    try {
      await sql`update res_letterbox set barcode = '7' where res_id = ${outside}`.execute(t.mailroom.db)
      const casts = await answerOf('bbain', clause)
      await sql`update res_letterbox set barcode = 'B-7' where res_id = ${outside}`.execute(t.mailroom.db)
      expect(await answerOf('superadmin', clause)).toBe('bad-request: Request is not valid')
      expect(await answerOf('bbain', clause)).toEqual(casts)
      expect(casts).toEqual({ resources: [], count: 0 })
    } finally {
      await sql`update res_letterbox set barcode = null where res_id = ${outside}`.execute(t.mailroom.db)
    }
  })
})

describe('mayFailOnRow', () => {
  it('tells the conditions that can fail on a value from those that cannot', () => {
    const fails = (clause: string) => mayFailOnRow(parseClause(clause))
    for (const clause of [
      '1/res_id = 1',
      'res_id + 1 = 2',
      'cast(subject as integer) = 1',
      "substring(subject, 1, 2) = 'ab'",
      "date_trunc('day', creation_date) = creation_date",
      'abs(res_id) = 1',
      'subject like subject',
      "subject like 'a\\'",
      "status = 'NEW' or -res_id = 1",
    ])
      expect(fails(clause), clause).toBe(true)
    for (const clause of [
      "status = 'NEW'",
      "destination in ('PJS', 'PE') and subject ilike '%été%'",
      "lower(subject) = 'x' and length(subject) > 3",
      "creation_date > '2024-01-01'::date",
      "custom_fields->>'1' = 'REF'",
      "fulltext('courrier')",
      "external_id::text like '%<m1@example.org>%'",
      "subject like 'a\\\\'",
      'res_id > -5',
    ])
      expect(fails(clause), clause).toBe(false)
  })
})
