import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { insertStandInRecord } from '../../../testing/src/maarch-answers/stand-in-records.js'
import { kyselyLetterPageStore } from './letter-page-ports.js'

/*
 * The letter page's store on both databases: the record's columns as 20.10 prints them (dates in UTC, entities by
 * their serial id and label), its model's fields, its correspondents, and the counts of its tabs.
 */

let t: TestMailroom
let resId = 0

beforeAll(async () => {
  t = await createTestMailroom()
  const db = t.mailroom.db
  resId = await insertStandInRecord(db, {
    destination: 'PJS',
    initiator: 'DRH',
    subject: 'Objet',
    priority: 'poiuytre1379nbvc',
    doc_date: '2026-11-20T00:00:00Z',
    creation_date: '2026-12-01T22:53:41.768918Z',
    custom_fields: JSON.stringify({ 1: 'REF-1' }),
  })
  await db
    .insertInto('resource_contacts')
    .values([
      { res_id: resId, item_id: 13, type: 'contact', mode: 'recipient' },
      { res_id: resId, item_id: 3, type: 'user', mode: 'sender' },
    ])
    .execute()
  await db
    .insertInto('listinstance')
    .values([
      { res_id: resId, sequence: 0, item_id: 3, item_type: 'user_id', item_mode: 'dest', difflist_type: 'entity_id' },
      { res_id: resId, sequence: 1, item_id: 4, item_type: 'user_id', item_mode: 'cc', difflist_type: 'entity_id' },
      {
        res_id: resId,
        sequence: 0,
        item_id: 4,
        item_type: 'user_id',
        item_mode: 'visa',
        difflist_type: 'VISA_CIRCUIT',
      },
    ])
    .execute()
})
afterAll(async () => t?.cleanup())

describe('the letter page store', () => {
  it("reads the record's columns as 20.10 prints them, with what they name", async () => {
    const stored = await kyselyLetterPageStore(t.mailroom.db).resource(resId, false)
    expect(stored).toMatchObject({
      resId,
      modelId: 1,
      categoryId: 'incoming',
      status: 'NEW',
      creationDate: '2026-12-01 22:53:41.768918',
      closingDate: null,
      documentDate: '2026-11-20 00:00:00',
      priority: 'poiuytre1379nbvc',
      priorityInfo: { label: 'Urgent', color: '#ffa500' },
      statusInfo: { label: 'Nouveau courrier', alterable: expect.any(Boolean) },
      destination: { entityId: 'PJS', entity: { id: 6, label: expect.any(String) } },
      initiator: { entityId: 'DRH', entity: { id: 4, label: expect.any(String) } },
      customFields: { 1: 'REF-1' },
      senders: [{ id: 3, type: 'user' }],
      recipients: [{ id: 13, type: 'contact' }],
    })
  })

  it('answers null for a record that does not exist', async () => {
    const store = kyselyLetterPageStore(t.mailroom.db)
    expect(await store.resource(2 ** 52, true)).toBeNull()
    expect(await store.fields(2 ** 52)).toBeNull()
    expect(await store.fileFacts(2 ** 52)).toBeNull()
    expect(await store.versions(2 ** 52)).toBeNull()
  })

  it('counts the lists by type', async () => {
    const counts = await kyselyLetterPageStore(t.mailroom.db).itemCounts(resId)
    expect(counts).toEqual({
      attachments: 0,
      listsByType: new Map([
        ['entity_id', 2],
        ['VISA_CIRCUIT', 1],
      ]),
      acknowledgementReceipts: 0,
    })
  })
})
