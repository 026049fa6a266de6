import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { ScryptPasswordHasher } from '../../../testing/src/storage-test-kit.js'
import { KyselyUserRepository } from './kysely-user-repository.js'

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom()
})
afterAll(async () => {
  await t?.cleanup()
})

const storedHash = async (login: string) =>
  (await t.mailroom.db.selectFrom('users').select('password').where('user_id', '=', login).executeTakeFirstOrThrow())
    .password

describe('password hashes of an older cost are upgraded at the next successful login', () => {
  it('rewrites the row with the current cost, and the password still works', async () => {
    // The test hasher runs at N=2^10: a hash at 2^9 is "older".
    const older = await new ScryptPasswordHasher({ N: 2 ** 9 }).hash('maarch')
    await t.mailroom.db.updateTable('users').set({ password: older }).where('user_id', '=', 'bblier').execute()
    await expect(t.mailroom.auth.authenticatePassword('bblier', 'wrong')).rejects.toMatchObject({
      code: 'AUTHENTICATION_FAILED',
    })
    expect(await storedHash('bblier')).toBe(older)
    expect((await t.mailroom.auth.authenticatePassword('bblier', 'maarch')).login).toBe('bblier')
    const upgraded = await storedHash('bblier')
    expect(upgraded).toMatch(/^scrypt\$1024\$8\$1\$/)
    expect(await new ScryptPasswordHasher({ N: 2 ** 10 }).verify('maarch', upgraded)).toBe(true)
  })

  it('replaces a hash only while it is still the one that was checked', async () => {
    const users = new KyselyUserRepository(t.mailroom.db)
    const id = (await users.findCredentialsByLogin('ppetit'))!.id
    const current = await storedHash('ppetit')
    expect(await users.replacePasswordHash(id, 'not-the-stored-hash', 'scrypt$x')).toBe(false)
    expect(await storedHash('ppetit')).toBe(current)
    expect(await users.replacePasswordHash(id, current, 'scrypt$replaced')).toBe(true)
    expect(await storedHash('ppetit')).toBe('scrypt$replaced')
  })

  it('accepts an imported Maarch bcrypt hash ($2y$) and replaces it with scrypt at the first successful login', async () => {
    const maarch = '$2y$10$C.QSslBKD3yNMfRPuZfcaubFwPKiCkqqOUyAdOr5FSGKPaePwuEjG'
    await t.mailroom.db.updateTable('users').set({ password: maarch }).where('user_id', '=', 'bbain').execute()
    await expect(t.mailroom.auth.authenticatePassword('bbain', 'wrong')).rejects.toMatchObject({
      code: 'AUTHENTICATION_FAILED',
    })
    expect(await storedHash('bbain')).toBe(maarch)
    expect((await t.mailroom.auth.authenticatePassword('bbain', 'maarch')).login).toBe('bbain')
    const upgraded = await storedHash('bbain')
    expect(upgraded).toMatch(/^scrypt\$1024\$8\$1\$/)
    expect((await t.mailroom.auth.authenticatePassword('bbain', 'maarch')).login).toBe('bbain')
  })
})
