import {
  type MaarchExchange,
  maarchCredentials,
  maarchRequestPath,
  readMaarchBasketIds,
  readMaarchExchanges,
  startTestServer,
  type TestResponse,
  type TestServer,
} from '@mailroom/testing'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../testing/src/fixtures/files/index.js'
import { importCollecting } from '../../test/import-helpers.js'
import { publisherFixtures } from '../../test/publisher-fixtures.js'
import { createPublisherSource } from '../../test/publisher-source.js'
import type { SourceDatabase } from '../../test/source-database.js'
import {
  commonRows,
  comparableFilters,
  comparableList,
  type RecordedIds,
  recordedCounts,
  sameLettersOf,
} from './basket-replay-comparisons.js'

/** Skipped, saying so once (vitest.config.ts), where this machine does not have the publisher's installation. */
const fixtures = publisherFixtures()
const MAARCH_FIXTURES = fixtures ?? ''

/**
 * The recorder's day on the publisher's sample (scripts/record-maarch-baskets.mjs), sent again to Mailroom with the
 * same bodies through the same routes: the letters it filed, the folder it made, then its locks, actions, refusals
 * and the lent basket, in its order. The import keeps the sample's serial ids (users, groups, baskets, entities,
 * actions, letters), so the recorded requests are sent as they are; what 20.10 answered before, between and after
 * is compared with Mailroom's answers: home counts, each basket's letters, list queries and filters field by field.
 */
const ids = readMaarchBasketIds() as unknown as RecordedIds
const exchanges = (file: string) => readMaarchExchanges(`${file}.json`)
const named = (file: string, suffix: string) => exchanges(file).filter((exchange) => exchange.name.endsWith(suffix))
const sampleAlone = (file: string) => exchanges(file).filter((exchange) => /\(group \d+\)$/.test(exchange.name))

const WITH_LETTERS = " (with the recorder's letters)"
const AFTER_ACTIONS = ' after the actions'

/**
 * The answers Mailroom gives on purpose where 20.10 differs (each said in docs/…/NOTES.md §5): 20.10's 500s on
 * malformed ids or bodies are 400s naming the field; the components Mailroom does not run are refused with 400
 * before anything changes; a route Mailroom has not (lending a basket through the user's page) is done in the
 * table instead (see `lend` below).
 */
const INTENDED_DIFFERENCES: Record<string, [number, number]> = {}

/** 20.10's 500s on list queries (its SQL failed), and what Mailroom answers instead. */
const INTENDED_REFUSALS: Record<string, [number, unknown]> = {
  // 20.10 writes `order` into its SQL as it comes (an injection point): Mailroom takes one column of the clause
  // language and refuses any other, naming it.
  'ppetit department: order by an unknown column': [
    400,
    { errors: 'Bad Request: orderBy parameter not valid: unknown column "nothing" at position 1' },
  ],
  // 20.10 builds `res_id in ()` from a folder that holds nothing (a defect): Mailroom lists nothing.
  'ppetit department: filter folders unknown': [200, expect.objectContaining({ count: 0, allResources: [] })],
}

/**
 * Each letter's key in the order a list query names (the basket's own, by res_id, when it names none), read in
 * Mailroom's database: what 20.10's ORDER BY sorted on.
 */
async function sortKeys(s: TestServer, order: string | undefined): Promise<(resId: number) => unknown> {
  const column = order?.split(' ')[0]
  if (column === undefined) return (resId) => resId
  const { rows } = await sql<{ res_id: number; key: unknown }>`select res_id::int as res_id, ${
    column === 'dest_user'
      ? sql`(select u.lastname || ' ' || u.firstname from users u where u.id = v.dest_user)`
      : sql.ref(`v.${column}`)
  } as key from res_view_letterbox v`.execute(s.mailroom.db)
  const keys = new Map(rows.map((row) => [row.res_id, row.key]))
  return (resId) => keys.get(resId) ?? null
}

describe.runIf(fixtures !== null)("the recorder's day on the publisher's sample, replayed on Mailroom", () => {
  let s: TestServer
  let source: SourceDatabase

  /** Sends a recorded request as it was (the letter's file, stored truncated, is a PDF of the same kind). */
  const send = (exchange: MaarchExchange): Promise<TestResponse> => {
    const { request } = exchange
    const body =
      request.body && typeof request.body === 'object' && 'encodedFile' in request.body
        ? { ...request.body, encodedFile: Buffer.from(makePdf()).toString('base64') }
        : request.body
    const auth = maarchCredentials(request.user)
    return s.call(request.method, maarchRequestPath(exchange), {
      auth,
      ...(body === null || body === undefined ? {} : typeof body === 'string' ? { rawBody: body } : { body }),
    })
  }

  beforeAll(async () => {
    source = await createPublisherSource(MAARCH_FIXTURES)
    s = await startTestServer({ mailroom: { demo: false } })
    await importCollecting(s.mailroom, { from: source.url, docservers: { root: `${MAARCH_FIXTURES}/docservers` } })
    await addTheRecordersActions(s)
  }, 300_000)
  afterAll(async () => {
    await s?.close()
    await source?.drop()
  })

  describe('on the sample alone', () => {
    it.each(sampleAlone('baskets-filters').map((exchange) => [exchange.name, exchange] as const))(
      'counts the filters of %s as 20.10',
      async (_name, exchange) => {
        const answer = await send(exchange)
        expect(comparableFilters(answer)).toEqual(comparableFilters(exchange.response))
      },
    )
  })

  describe("with the recorder's letters", () => {
    beforeAll(async () => {
      // The letters and the folder, as the web-service user and ppetit filed them: the same ids as in 20.10.
      // (The recorder read letter 21 back with GET /resources/{resId} and made ppetit's folder with POST /folders and
      // POST /folders/{id}/resources, routes Mailroom has not: the folder is written in its tables, with 20.10's id.)
      const filed = exchanges('baskets-letters').filter((sent) => sent.request.path === '/resources')
      for (const exchange of filed) {
        const answer = await send(exchange)
        expect([exchange.name, answer.status, answer.json]).toEqual([
          exchange.name,
          exchange.response.status,
          exchange.response.body,
        ])
      }
      await s.mailroom.db
        .insertInto('folders')
        .values({ id: ids.folder, label: 'Dossier du recorder', user_id: ids.users.ppetit!, public: false })
        .execute()
      await s.mailroom.db
        .insertInto('resources_folders')
        .values([ids.letters.close!, 17].map((res_id) => ({ folder_id: ids.folder, res_id })))
        .execute()
    })

    it.each(Object.keys(ids.countsWithLetters))('counts in the baskets of %s what 20.10 counted', async (login) => {
      const home = await s.call('GET', '/rest/home', { auth: maarchCredentials(login) })
      expect(recordedCounts(home.json)).toEqual(ids.countsWithLetters[login])
    })

    it.each(named('baskets-lists', WITH_LETTERS).map((exchange) => [exchange.name, exchange] as const))(
      'lists the letters 20.10 listed in %s',
      async (_name, exchange) => {
        const answer = await send(exchange)
        expect(sameLettersOf(answer)).toEqual(sameLettersOf(exchange.response))
      },
    )

    it.each(named('baskets-list-queries', '').map((exchange) => [exchange.name, exchange] as const))(
      'answers %s as 20.10, field by field',
      async (_name, exchange) => {
        const answer = await send(exchange)
        if (exchange.request.path.endsWith('/filters')) {
          expect(comparableFilters(answer)).toEqual(comparableFilters(exchange.response))
          return
        }
        const refused = INTENDED_REFUSALS[exchange.name]
        if (refused) {
          // 20.10 answered 500 (its SQL failed); Mailroom refuses the request, saying why.
          expect([exchange.response.status, answer.status, answer.json]).toEqual([500, ...refused])
          return
        }
        const keyOf = await sortKeys(s, exchange.request.query.order)
        expect(comparableList(answer, keyOf)).toEqual(comparableList(exchange.response, keyOf))
        const [mine, theirs] = commonRows(answer, exchange.response)
        expect(mine).toEqual(theirs)
      },
    )

    it.each(named('baskets-filters', WITH_LETTERS).map((exchange) => [exchange.name, exchange] as const))(
      'counts the filters of %s as 20.10',
      async (_name, exchange) => {
        const answer = await send(exchange)
        expect(comparableFilters(answer)).toEqual(comparableFilters(exchange.response))
      },
    )
  })
})

/** The actions the recorder added to AGENT's MyBasket by SQL, through the organisation document (same ids). */
async function addTheRecordersActions(s: TestServer): Promise<void> {
  const added = [
    ['Clôturer (pièce jointe ou note)', 'END', 'closeMailWithAttachmentsOrNotesAction', true],
    ["Renvoyer à l'entité initiatrice", 'NEW', 'redirectInitiatorEntityAction', true],
    ['Acter la date de départ', '_NOSTATUS_', 'updateDepartureDateAction', true],
    ['Mettre en attente sans confirmation', 'STDBY', 'noConfirmAction', true],
    ['Action sans historique', 'COU', 'confirmAction', false],
  ] as const
  const addedIds = Object.values(ids.addedActions)
  const document = await s.mailroom.organisation.export()
  const actions = [
    ...(document.actions ?? []),
    ...added.map(([label, status, component, history], index) => ({
      id: addedIds[index]!,
      label,
      status,
      component,
      history,
    })),
  ]
  // Linked to AGENT's MyBasket as the recorder linked them; the persistence pair (524, 525) on the letter's page only.
  const links = [
    ...addedIds.slice(0, added.length).map((action) => ({ action, list: true, page: true })),
    ...[524, 525].map((action) => ({ action, list: false, page: true })),
  ]
  const baskets = (document.baskets ?? []).map((basket) =>
    basket.id !== 'MyBasket'
      ? basket
      : {
          ...basket,
          groups: basket.groups.map((given) =>
            given.group === 'AGENT' ? { ...given, actions: [...given.actions, ...links] } : given,
          ),
        },
  )
  await s.mailroom.organisation.apply({ version: 1, actions, baskets })
}
