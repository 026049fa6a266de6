import { startTestServer, type TestServer } from '@mailroom/testing'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withInertHtml } from '../../testing/src/test-core-internals.js'
import { type BasketAddress, createClient, type MailroomClient } from './client.js'
import { withWrittenText } from './list-text.js'

/** What callers write that 20.10's web client would read as markup, and text that only looks like it. */
const SUBJECT = `<img src=x onerror=alert(1)></script> l'école &amp; "la piscine" <\u2060b> R&D`
const SENDER = '<b>Dupont</b> & Fils'
const J = '\u2060'

const text = fc
  .array(
    fc.oneof(
      fc.constantFrom('<', '&', '<b>', '</', '&amp;', '&#60;', '\u2060', '<\u2060', "'", '"'),
      fc.string({ maxLength: 5 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''))

const row = fc.record({
  resId: fc.nat(),
  chrono: fc.option(text),
  barcode: fc.option(text),
  subject: fc.option(text),
  statusLabel: fc.option(text),
  display: fc.array(
    fc.record({
      value: fc.constantFrom('getSenders', 'getDoctype', 'getVisaWorkflow', 'indexingCustomField_1'),
      displayValue: fc.oneof(
        text,
        fc.array(text),
        fc.array(fc.record({ user: text, mode: fc.constantFrom('visa', 'sign'), current: fc.boolean() })),
        fc.nat(),
        fc.constant(null),
      ),
    }),
  ),
})

describe('sdk: the letter lists of 20.10’s web client, read as text', () => {
  it('gives back exactly what the server made inert, whatever was written', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 3 }), (resources) => {
        const sent = { count: resources.length, resources: resources.map(withInertHtml) }
        expect(withWrittenText(sent)).toEqual({ count: resources.length, resources })
      }),
      { numRuns: 500 },
    )
  })

  it('leaves an answer of another shape as it came', () => {
    expect(withWrittenText({ errors: 'x' } as never)).toEqual({ errors: 'x' })
    const odd = { resources: [{ resId: 1, chrono: null, barcode: null, subject: `<${J}b>`, display: null }] }
    expect(withWrittenText(odd as never)).toEqual({ resources: [{ ...odd.resources[0], subject: '<b>' }] })
  })

  describe('against a server', () => {
    let s: TestServer
    let bbain: MailroomClient
    let basket: BasketAddress
    let resId: number

    beforeAll(async () => {
      s = await startTestServer()
      bbain = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'maarch' } })
      const capture = createClient({ baseUrl: s.baseUrl, auth: { login: 'cchaplin', password: 'maarch' } })
      const { id: sender } = await capture.createContact({ lastname: SENDER })
      ;({ resId } = await capture.createRecord({
        modelId: 1,
        status: 'NEW',
        subject: SUBJECT,
        destination: 6,
        diffusionList: [{ id: 3, type: 'user', mode: 'dest' }],
        senders: [{ id: sender, type: 'contact' }],
        format: 'txt',
        encodedFile: 'Qm9uam91cg==',
      }))
      const agent = (await bbain.getHome()).regroupedBaskets.find((group) => group.groupId === 'AGENT')!
      const myBasket = agent.baskets.find((b) => b.basket_id === 'MyBasket')!
      basket = { userId: myBasket.owner_user_id, groupId: agent.groupSerialId, basketId: myBasket.id }
    })
    afterAll(async () => s?.close())

    it('a basket’s list: the subject and the senders as written, where the wire has them inert', async () => {
      const list = await bbain.getBasketList(basket, { search: 'école' })
      const letter = list.resources.find((r) => r.resId === resId)!
      expect(letter.subject).toBe(SUBJECT)
      expect(letter.display.find((item) => item.value === 'getSenders')?.displayValue).toEqual([SENDER])
      const wire = await s.call(
        'GET',
        `/rest/resourcesList/users/3/groups/${basket.groupId}/baskets/${basket.basketId}`,
        {
          auth: 'bbain:maarch',
        },
      )
      const sent = (wire.json.resources as { resId: number; subject: string }[]).find((r) => r.resId === resId)!
      expect(sent.subject).toBe(
        `<${J}img src=x onerror=alert(1)><${J}/script> l'école &${J}amp; "la piscine" <${J}${J}b> R&${J}D`,
      )
    })

    it('a search by criteria: the subject and the senders as written', async () => {
      const found = await bbain.searchByCriteria({ meta: { values: 'école' } })
      const letter = found.resources.find((r) => r.resId === resId)!
      expect(letter.subject).toBe(SUBJECT)
      expect(letter.display.find((item) => item.value === 'getSenders')?.displayValue).toEqual([SENDER])
    })
  })
})
