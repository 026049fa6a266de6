import { readMaarchBasketIds, startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCollecting } from '../../test/import-helpers.js'
import { publisherFixtures } from '../../test/publisher-fixtures.js'
import { createPublisherSource } from '../../test/publisher-source.js'
import type { SourceDatabase } from '../../test/source-database.js'

/** Skipped, saying so once (vitest.config.ts), where this machine does not have the publisher's installation. */
const fixtures = publisherFixtures()
const MAARCH_FIXTURES = fixtures ?? ''

/**
 * What the real Maarch 20.10 counted in each clerk's baskets on its publisher's sample installation
 * (`baskets-ids.json`, recorded from `GET /rest/home`): keys `<Maarch group serial>/<basket code>`.
 */
const recorded = readMaarchBasketIds() as {
  groups: Record<string, number>
  countsOnTheSample: Record<string, Record<string, number>>
}
const groupCodeOf = new Map(Object.entries(recorded.groups).map(([code, serial]) => [serial, code]))

describe.runIf(fixtures !== null)("each clerk's baskets after importing the publisher's sample", () => {
  let s: TestServer
  let source: SourceDatabase

  beforeAll(async () => {
    source = await createPublisherSource(MAARCH_FIXTURES)
    s = await startTestServer({ mailroom: { demo: false } })
    await importCollecting(s.mailroom, { from: source.url, docservers: { root: `${MAARCH_FIXTURES}/docservers` } })
  }, 300_000)
  afterAll(async () => {
    await s?.close()
    await source?.drop()
  })

  it.each(Object.keys(recorded.countsOnTheSample))(
    'shows %s the baskets and counts the real 20.10 showed on its home page',
    async (login) => {
      const expected = Object.fromEntries(
        Object.entries(recorded.countsOnTheSample[login] ?? {}).map(([key, count]) => {
          const [serial, basket] = key.split('/')
          return [`${groupCodeOf.get(Number(serial))}/${basket}`, count]
        }),
      )
      const home = await s.mailroom.baskets.home(await s.mailroom.actor(login))
      const counted = Object.fromEntries(
        home.regroupedBaskets.flatMap((group) =>
          group.baskets.map((basket) => [`${group.groupId}/${basket.basket_id}`, basket.resourceNumber]),
        ),
      )
      expect(counted).toEqual(expected)
    },
  )
})
