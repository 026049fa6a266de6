import { expectSameShape, readMaarchExchanges } from '@mailroom/testing'
import { describe, expect, it } from 'vitest'
import { importedPublisherSample } from '../../test/imported-publisher-sample.js'
import { publisherFixtures } from '../../test/publisher-fixtures.js'

/** Skipped, saying so once (vitest.config.ts), where this machine does not have the publisher's installation. */
const fixtures = publisherFixtures()
const MAARCH_FIXTURES = fixtures ?? ''

/** The letter page's reads this file compares: the record, its items, externalId, its file's facts and versions. */
const COMPARED = /^\/resources\/(\d+|abc)(\/items|\/fields\/externalId|\/fileInformation|\/versionsInformations)?$/

/**
 * What the real Maarch 20.10 answered bbain, ppetit, bblier, ccharles and ddaull on its publisher's sample when its
 * web client opened letters (`letter-page-page.json`: in and out of their perimeters, unknown and malformed ids),
 * replayed on the sample imported into Mailroom: the same status and refusal, the same shape, the same counts.
 */
const exchanges = readMaarchExchanges('letter-page-page.json').filter((e) => COMPARED.test(e.request.path))

describe.runIf(fixtures !== null)("a letter's page on the publisher's sample, as 20.10 answered it", () => {
  const server = importedPublisherSample(MAARCH_FIXTURES)

  it.each(exchanges.map((exchange) => [exchange.name, exchange] as const))('%s', async (_name, exchange) => {
    const { user, path, query } = exchange.request
    const search = new URLSearchParams(Object.entries(query ?? {}).map(([k, v]) => [k, String(v)])).toString()
    const answer = await server().call('GET', `/rest${path}${search ? `?${search}` : ''}`, { auth: `${user}:maarch` })
    const recorded = exchange.response
    if (recorded.status !== 200) {
      expect([answer.status, answer.json]).toEqual([recorded.status, recorded.body])
      return
    }
    // Left out on purpose (docs/web-client.md): the server's filesystem path of the file, given to view_technical_infos.
    const body = recorded.body as { information?: Record<string, unknown> }
    if (body.information && 'docserverPathFile' in body.information) {
      const { docserverPathFile: _, ...information } = body.information
      expect(answer.json.information).not.toHaveProperty('docserverPathFile')
      expect(answer.json.information).toMatchObject({ canConvert: information.canConvert, format: information.format })
      expectSameShape(answer, { status: recorded.status, body: { information } })
      return
    }
    expectSameShape(answer, recorded, {
      // 20.10 prints the sample's empty integrations as []; Mailroom fills the two flags 20.10's creation writes.
      anyTypeAt: ['integrations', 'integrations.*'],
      sameValuesAt: path.endsWith('/items')
        ? ['linkedResources', 'attachments', 'diffusionList', 'visaCircuit', 'opinionCircuit', 'notes']
        : ['resId', 'status', 'categoryId', 'chrono', 'subject', 'senders', 'recipients', 'doctype', 'destination'],
    })
  })
})
