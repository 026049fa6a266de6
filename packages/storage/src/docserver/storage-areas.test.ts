import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { writableStorageAreas } from './storage-areas.js'

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom({ demo: false })
}, 60_000)
afterAll(async () => t?.cleanup())

describe('writableStorageAreas', () => {
  it('gives the first writable area of each type of the letterbox collection', async () => {
    const db = t.mailroom.db
    await db
      .insertInto('docservers')
      .values([
        { docserver_id: 'OLD_DOC', docserver_type_id: 'DOC', path_template: 'old/', is_readonly: 'Y' },
        { docserver_id: 'SECOND_DOC', docserver_type_id: 'DOC', path_template: 'second/' },
        { docserver_id: 'ATTACH', docserver_type_id: 'CONVERT', path_template: 'attach/', coll_id: 'attachments_coll' },
      ])
      .execute()
    expect(await writableStorageAreas(db)).toEqual(
      new Map([
        ['DOC', { docserverId: 'FASTHD_MAN', pathTemplate: 'resources/' }],
        ['CONVERT', { docserverId: 'CONVERT_MLB', pathTemplate: 'convert/' }],
      ]),
    )
    await db.updateTable('docservers').set({ is_readonly: 'Y' }).where('docserver_id', '=', 'FASTHD_MAN').execute()
    expect((await writableStorageAreas(db)).get('DOC')).toEqual({ docserverId: 'SECOND_DOC', pathTemplate: 'second/' })
  })
})
