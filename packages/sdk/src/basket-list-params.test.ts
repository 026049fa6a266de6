import { describe, expect, it } from 'vitest'
import { createClient } from './client.js'

/** The query a basket list call sends, through a fetch that answers `{}`. */
async function querySent(params: Parameters<ReturnType<typeof createClient>['getBasketList']>[1]) {
  const urls: URL[] = []
  const client = createClient({
    baseUrl: 'http://mailroom.invalid',
    auth: { login: 'bbain', password: 'maarch' },
    retries: 0,
    fetch: async (input) => {
      urls.push(new URL(String(input)))
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })
    },
  })
  await client.getBasketList({ userId: 3, groupId: 4, basketId: 1 }, params)
  return Object.fromEntries(urls[0]?.searchParams ?? [])
}

describe('getBasketList', () => {
  it("sends 20.10's entitiesChildren filter and the natural chrono order as the server reads them", async () => {
    expect(await querySent({ entitiesChildren: 'DGS,', order: 'alt_identifier desc' })).toEqual({
      entitiesChildren: 'DGS,',
      order: 'alt_identifier desc',
    })
    // Empty text is a filter of its own (the letters without a destination): it is sent, not dropped.
    expect(await querySent({ entitiesChildren: '' })).toEqual({ entitiesChildren: '' })
  })
})
