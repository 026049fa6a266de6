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
 * GET /rest/resources/{resId}/listInstance against what Maarch 20.10 answered (list-instance.json). Record 22
 * (COU) has no diffusion list; record 1 (PJS, in bbain's perimeter) has bbain as dest and an entity in copy, as
 * Maarch's sample record 1; record 2 (DSI) is out of bbain's perimeter.
 */

let s: TestServer
const resources = new Map<number, number>()
let mapping: MaarchIdMapping

async function insertRecord(maarchId: number, destination: string): Promise<number> {
  const resId = await insertStandInRecord(s.mailroom.db, { destination })
  resources.set(maarchId, resId)
  return resId
}

beforeAll(async () => {
  s = await startTestServer()
  await insertRecord(22, 'COU')
  const one = await insertRecord(1, 'PJS')
  await insertRecord(2, 'DSI')
  await s.mailroom.db
    .insertInto('listinstance')
    .values([
      {
        res_id: one,
        item_id: 3,
        item_type: 'user_id',
        item_mode: 'dest',
        added_by_user: 3,
        viewed: 0,
        difflist_type: 'entity_id',
        process_comment: '',
      },
      {
        res_id: one,
        item_id: 3,
        item_type: 'entity_id',
        item_mode: 'cc',
        added_by_user: 3,
        viewed: 0,
        difflist_type: 'entity_id',
      },
      // A visa circuit is not the diffusion list: left out.
      {
        res_id: one,
        item_id: 4,
        item_type: 'user_id',
        item_mode: 'sign',
        added_by_user: 3,
        viewed: 0,
        difflist_type: 'VISA_CIRCUIT',
      },
    ])
    .execute()
  mapping = { resources }
})
afterAll(async () => s?.close())

describe('the diffusion list of a record, as Maarch 20.10 answers it', () => {
  it('answers every recorded request as 20.10 did', async () => {
    for (const exchange of readMaarchExchanges('list-instance.json')) {
      const response = await replayWithMailroomIds(s, exchange, mapping)
      expectSameShape(response, exchange.response, {
        sameValuesAt: ['hasHistory', 'listInstance.0.item_type', 'listInstance.1.item_type'],
      })
      const recorded = (exchange.response.body as { listInstance?: unknown[] }).listInstance
      if (recorded) expect(response.json.listInstance, exchange.name).toHaveLength(recorded.length)
    }
  })

  it("names each item by login or entity_id, with a label and the user's primary entity", async () => {
    const response = await s.call('GET', `/rest/resources/${resources.get(1)}/listInstance`, {
      auth: demoAuth('bbain'),
    })
    expect(
      response.json.listInstance.map((i: Record<string, unknown>) => [
        i.item_id,
        i.item_type,
        i.item_mode,
        i.itemSerialId,
        i.labelToDisplay,
        i.descriptionToDisplay,
      ]),
    ).toEqual([
      ['bbain', 'user_id', 'dest', 3, 'Barbara BAIN', 'Pôle Jeunesse et Sport'],
      ['DGS', 'entity_id', 'cc', 3, 'Direction Générale des Services', ''],
    ])
  })

  it('answers 403 Document out of perimeter for ids that name no record, as 20.10', async () => {
    for (const id of ['0', '-1', '1.5', '99999999999999999999'])
      expect((await s.call('GET', `/rest/resources/${id}/listInstance`, { auth: demoAuth('cchaplin') })).json).toEqual({
        errors: 'Document out of perimeter',
      })
  })
})
