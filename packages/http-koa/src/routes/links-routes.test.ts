import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  demoAuth,
  expectSameShape,
  insertStandInRecord,
  type MaarchIdMapping,
  readMaarchExchanges,
  replayWithMailroomIds,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/*
 * GET, POST /rest/resources/{resId}/linkedResources and DELETE …/linkedResources/{id} against what Maarch 20.10
 * answered (linked-resources.json, in the recorder's order). The demo stands in for Maarch's sample: records 21
 * and 22 (destination COU, linked together before, as the capture workflow left them in Maarch: cchaplin's only),
 * 1 and 4 (PJS: bbain's too), 3 (DGS), 2 (DSI: not bbain's), 5 (never linked). ddur (CONSULT) has no add_links.
 */

let s: TestServer
const resources = new Map<number, number>()
let mapping: MaarchIdMapping

async function insertRecord(maarchId: number, destination: string, destUser: number | null): Promise<void> {
  const resId = await insertStandInRecord(s.mailroom.db, {
    destination,
    dest_user: destUser,
    subject: `Courrier ${maarchId}`,
    doc_date: maarchId === 21 ? null : '2026-11-20',
    alt_identifier: `MAARCH/2026A/${maarchId}`,
    filename: 'courrier.pdf',
    format: 'pdf',
  })
  resources.set(maarchId, resId)
}

const linksOf = async (maarchId: number) => {
  const row = await s.mailroom.db
    .selectFrom('res_letterbox')
    .select('linked_resources')
    .where('res_id', '=', resources.get(maarchId)!)
    .executeTakeFirstOrThrow()
  return row.linked_resources
}
const idOf = (maarchId: number) => String(resources.get(maarchId))

// The demo's statuses have no image (Maarch's sample has one each): null where 20.10 shows a file name.
const NO_STATUS_IMAGE = [0, 1, 2].map((i) => `linkedResources.${i}.statusImage`)

beforeAll(async () => {
  s = await startTestServer()
  for (const [maarchId, destination, destUser] of [
    [21, 'COU', null],
    [22, 'COU', null],
    [1, 'PJS', 3],
    [2, 'DSI', null],
    [3, 'DGS', 4],
    [4, 'PJS', 3],
    [5, 'COU', null],
  ] as const)
    await insertRecord(maarchId, destination, destUser)
  await s.mailroom.db
    .updateTable('res_letterbox')
    .set({ linked_resources: JSON.stringify([idOf(1)]) })
    .where('res_id', '=', resources.get(21)!)
    .execute()
  await s.mailroom.db
    .updateTable('res_letterbox')
    .set({ linked_resources: JSON.stringify([idOf(21)]) })
    .where('res_id', '=', resources.get(1)!)
    .execute()
  mapping = { resources }
})
afterAll(async () => s?.close())

describe('links between records, as Maarch 20.10 answers them', () => {
  it('answers every recorded request as 20.10 did; a refused one changes no link', async () => {
    for (const exchange of readMaarchExchanges('linked-resources.json')) {
      const before = await Promise.all([22, 1, 2, 3, 4, 5].map(linksOf))
      const response = await replayWithMailroomIds(s, exchange, mapping)
      expectSameShape(response, exchange.response, { anyTypeAt: NO_STATUS_IMAGE })
      const recorded = exchange.response.body as { linkedResources?: { resId: number }[] } | null
      if (recorded?.linkedResources)
        expect(
          response.json.linkedResources.map((r: { resId: number }) => r.resId),
          exchange.name,
        ).toEqual(recorded.linkedResources.map((r) => resources.get(r.resId)).sort((a, b) => a! - b!))
      if (exchange.response.status >= 400) expect(await Promise.all([22, 1, 2, 3, 4, 5].map(linksOf))).toEqual(before)
    }
  })

  it('keeps the links both ways, as strings, each once', async () => {
    expect(await linksOf(22)).toEqual([idOf(1)])
    expect(await linksOf(1)).toEqual([idOf(21), idOf(22), idOf(4)])
    expect(await linksOf(4)).toEqual([idOf(1)])
    expect(await linksOf(3)).toEqual([])
  })

  it('writes a history entry on both records of each link and unlink, naming the other by its chrono', async () => {
    const rows = await s.mailroom.db
      .selectFrom('history')
      .select(['record_id', 'info', 'event_type'])
      .where('event_id', '=', 'resourceModification')
      .where('record_id', 'in', [idOf(22), idOf(3)])
      .orderBy('id')
      .execute()
    expect(rows).toContainEqual({ record_id: idOf(22), info: 'Liaison ajoutée : MAARCH/2026A/3', event_type: 'UP' })
    expect(rows).toContainEqual({ record_id: idOf(3), info: 'Liaison ajoutée : MAARCH/2026A/22', event_type: 'UP' })
    expect(rows).toContainEqual({ record_id: idOf(3), info: 'Liaison supprimée : MAARCH/2026A/22', event_type: 'UP' })
  })

  it('refuses more than 500 records at once and loses no link under concurrent requests', async () => {
    const cchaplin = demoAuth('cchaplin')
    const many = await s.call('POST', `/rest/resources/${idOf(5)}/linkedResources`, {
      auth: cchaplin,
      body: { linkedResources: Array.from({ length: 501 }, (_, i) => i + 1) },
    })
    expect([many.status, many.json]).toEqual([400, { errors: 'Body linkedResources holds more than 500 elements' }])
    const answers = await Promise.all(
      [21, 22, 3].map((other) =>
        s.call('POST', `/rest/resources/${idOf(5)}/linkedResources`, {
          auth: cchaplin,
          body: { linkedResources: [resources.get(other)] },
        }),
      ),
    )
    expect(answers.map((a) => a.status)).toEqual([204, 204, 204])
    expect([...((await linksOf(5)) as string[])].sort()).toEqual([idOf(21), idOf(22), idOf(3)].sort())
  })

  it('reads links imported as numbers as well as strings', async () => {
    await s.mailroom.db
      .updateTable('res_letterbox')
      .set({ linked_resources: JSON.stringify([resources.get(3)]) })
      .where('res_id', '=', resources.get(2)!)
      .execute()
    const response = await s.call('GET', `/rest/resources/${idOf(2)}/linkedResources`, { auth: demoAuth('superadmin') })
    expect(response.json.linkedResources.map((r: { resId: number }) => r.resId)).toEqual([resources.get(3)])
  })
})
