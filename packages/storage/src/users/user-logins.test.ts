import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { userLogins } from './user-logins.js'

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom({ demo: false })
}, 60_000)
afterAll(async () => t?.cleanup())

describe('userLogins', () => {
  it('lists every user’s login as written, deleted users included', async () => {
    const before = await userLogins(t.mailroom.db)
    await t.mailroom.db
      .insertInto('users')
      .values([
        { user_id: 'bbain', password: 'x' },
        { user_id: 'GGrand', password: 'x', status: 'DEL' },
      ])
      .execute()
    expect((await userLogins(t.mailroom.db)).filter((login) => !before.includes(login)).sort()).toEqual([
      'GGrand',
      'bbain',
    ])
  })
})
