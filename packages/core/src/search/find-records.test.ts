import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import { createSearchUseCases } from './find-records.js'
import type { RecordSearchStore, SearchMatches } from './ports.js'

const ACTOR = {} as Actor

function storeAnswering(answer: SearchMatches | 'too-many'): RecordSearchStore & { calls: number } {
  const store = {
    calls: 0,
    async search() {
      store.calls++
      return answer
    },
  }
  return store
}

async function codeOf(run: Promise<unknown>): Promise<string> {
  return run.then(
    () => 'answered',
    (error: { code?: string }) => error.code ?? 'thrown',
  )
}

describe('POST /rest/res/list as core runs it', () => {
  it('refuses a limit over the ceiling before the store is asked, and too many matches after', async () => {
    const store = storeAnswering('too-many')
    const search = createSearchUseCases({ records: store, maxResults: 5 })
    expect(await codeOf(search.list(ACTOR, { select: 'res_id', clause: '1=1', limit: 6 }))).toBe(
      'SEARCH_LIMIT_OVER_CEILING',
    )
    expect(store.calls).toBe(0)
    expect(await codeOf(search.list(ACTOR, { select: 'res_id', clause: '1=1' }))).toBe('SEARCH_RESULTS_OVER_CEILING')
    expect(store.calls).toBe(1)
  })

  it('answers exactly the asked columns in their order, JSON values, sve_start_date as null', async () => {
    const when = new Date('2026-01-02T03:04:05.000Z')
    const store = storeAnswering([{ row: { subject: 'a', res_id: 7, creation_date: when, other: 'x' } }])
    const search = createSearchUseCases({ records: store, maxResults: null })
    const answer = await search.list(ACTOR, { select: 'res_id, creation_date, sve_start_date', clause: '1=1' })
    expect(answer).toEqual({
      resources: [{ res_id: 7, creation_date: when.toISOString(), sve_start_date: null }],
      count: 1,
    })
    expect(Object.keys(answer.resources[0] ?? {})).toEqual(['res_id', 'creation_date', 'sve_start_date'])
  })
})
