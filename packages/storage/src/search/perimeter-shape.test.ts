import type { Actor } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { PerimeterGuard, type PerimeterShape } from '../perimeter/perimeter-guard.js'

let t: TestMailroom
let bbain: Actor
beforeAll(async () => {
  t = await createTestMailroom()
  bbain = (await t.mailroom.auth.authenticatePassword('bbain', 'maarch'))!
})
afterAll(async () => t?.cleanup())

/** The perimeter shapes the searches ask for while `search` runs. */
async function shapesAsked(search: () => Promise<unknown>): Promise<PerimeterShape[]> {
  const condition = vi.spyOn(PerimeterGuard.prototype, 'condition')
  try {
    await search()
    return condition.mock.calls.map(([, , shape]) => shape ?? 'filter')
  } finally {
    condition.mockRestore()
  }
}

describe('the perimeter shape a search asks for', () => {
  it('is the index shape for a res/list clause narrowed by words, the filter shape otherwise', async () => {
    const list = (clause: string) => () => t.mailroom.search.list(bbain, { select: 'res_id', clause, limit: 10 })
    expect(await shapesAsked(list("fulltext('gymnase') and status <> 'DEL'"))).toEqual(['index'])
    expect(await shapesAsked(list("fulltext('gymnase') or status = 'NEW'"))).toEqual(['filter'])
    expect(await shapesAsked(list("status = 'NEW'"))).toEqual(['filter'])
  })

  it('is the index shape for the fulltext criterion of POST /rest/search, the filter shape otherwise', async () => {
    const search = (body: Record<string, unknown>) => () => t.mailroom.criteriaSearch.search(bbain, body, {})
    expect(await shapesAsked(search({ fulltext: { values: 'gymnase' } }))).toEqual(['index'])
    expect(await shapesAsked(search({ subject: { values: 'gymnase' } }))).toEqual(['filter'])
  })
})
