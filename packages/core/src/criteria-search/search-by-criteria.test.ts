import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import type { CriteriaMatches, CriteriaSearchStore } from './ports.js'
import { createCriteriaSearchUseCases } from './search-by-criteria.js'

const ACTOR = {} as Actor

function storeAnswering(answer: CriteriaMatches | null): CriteriaSearchStore {
  return {
    customFieldTypes: async () => new Map(),
    search: async () => answer,
  }
}

describe('POST /rest/search as core runs it', () => {
  it('answers the empty result without facets when a pre-checked term finds no record of the perimeter', async () => {
    const search = createCriteriaSearchUseCases({ records: storeAnswering(null) })
    expect(await search.search(ACTOR, {}, {})).toStrictEqual({ resources: [], count: 0, allResources: [] })
  })

  it('keeps the facets, labelled in 20.10 words, when the page asked lies past the matches', async () => {
    const matches = { ids: [3, 1], page: [], facets: [{ facet: 'categories', id: 'incoming', label: null, count: 2 }] }
    const search = createCriteriaSearchUseCases({ records: storeAnswering(matches as CriteriaMatches) })
    const answer = await search.search(ACTOR, {}, { offset: '5' })
    expect(answer).toMatchObject({ resources: [], count: 0, allResources: [] })
    expect(answer.filters?.categories.values).toEqual([
      { id: 'incoming', label: 'Courrier Arrivée', count: 2, selected: false },
    ])
  })
})
