import { createServer, type Server, type Socket } from 'node:net'
import type { DomainError } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slapdMissing, startTestDirectory, type TestDirectory } from '../../../testing/src/directory/slapd-server.js'
import { createLdapDirectory } from './ldap-directory.js'
import type { LdapDirectorySettings } from './ldap-settings.js'

const missing = slapdMissing()
if (missing) console.log(missing)

describe.skipIf(missing !== null)('password checks by a bind to a real OpenLDAP server', () => {
  let directory: TestDirectory
  beforeAll(async () => {
    directory = await startTestDirectory([
      { uid: 'jdupont', password: 'Dir-Secret-1', mail: 'jdupont@mairie.test', givenName: 'Jean', surname: 'Dupont' },
      { uid: 'parti', password: 'Dir-Secret-2', disabled: true },
      // A second entry whose uid a crafted login would reach with an unescaped filter.
      { uid: 'admin2', password: 'Dir-Secret-3' },
    ])
  }, 60_000)
  afterAll(async () => directory?.stop())

  const byTemplate = (extra: Partial<LdapDirectorySettings> = {}) =>
    createLdapDirectory({
      url: directory.ldapsUrl,
      ca: directory.ca,
      bindTemplate: `uid={login},${directory.peopleBase}`,
      ...extra,
    })
  const bySearch = (extra: Partial<LdapDirectorySettings> = {}) =>
    createLdapDirectory({
      url: directory.url,
      ca: directory.ca,
      search: {
        base: directory.peopleBase,
        filter: '(&(objectClass=inetOrgPerson)(uid={login}))',
        bindDn: directory.adminDn,
        bindPassword: directory.adminPassword,
      },
      ...extra,
    })

  it('accepts the right password by a template DN over LDAPS, and refuses a wrong one', async () => {
    expect(await byTemplate().checkPassword('jdupont', 'Dir-Secret-1')).toEqual({ accepted: true })
    expect(await byTemplate().checkPassword('jdupont', 'wrong')).toEqual({
      accepted: false,
      reason: 'wrong password, or account disabled or locked',
    })
  })

  it('finds the entry by a search with a service account over StartTLS, then binds as it', async () => {
    expect(await bySearch().checkPassword('jdupont', 'Dir-Secret-1')).toEqual({ accepted: true })
    expect((await bySearch().checkPassword('jdupont', 'Dir-Secret-2')).accepted).toBe(false)
    expect(await bySearch().checkPassword('personne', 'Dir-Secret-1')).toEqual({
      accepted: false,
      reason: 'no directory entry for this login',
    })
  })

  it('refuses an account the directory disabled, with its right password, either way', async () => {
    expect((await byTemplate().checkPassword('parti', 'Dir-Secret-2')).accepted).toBe(false)
    expect((await bySearch().checkPassword('parti', 'Dir-Secret-2')).accepted).toBe(false)
  })

  it('refuses an empty password, which the directory would take for an anonymous bind', async () => {
    expect(await byTemplate().checkPassword('jdupont', '')).toEqual({ accepted: false, reason: 'empty password' })
    expect(await bySearch().checkPassword('jdupont', '')).toEqual({ accepted: false, reason: 'empty password' })
  })

  it('reads LDAP syntax in a login as plain characters: an injected filter or DN reaches nobody', async () => {
    for (const login of ['*)(uid=*', '*', 'admin*', 'jdupont)(|(uid=*', 'jdupont,ou=people']) {
      expect((await bySearch().checkPassword(login, 'Dir-Secret-1')).accepted, login).toBe(false)
      expect((await bySearch().checkPassword(login, 'Dir-Secret-3')).accepted, login).toBe(false)
      expect((await byTemplate().checkPassword(login, 'Dir-Secret-1')).accepted, login).toBe(false)
    }
  })

  it("checks the directory's certificate by default: an authority not trusted makes it unavailable, not a wrong password", async () => {
    const refusal = await byTemplate({ ca: undefined } as Partial<LdapDirectorySettings>)
      .checkPassword('jdupont', 'Dir-Secret-1')
      .catch((error: DomainError) => error)
    expect(refusal).toMatchObject({ code: 'DIRECTORY_UNAVAILABLE', kind: 'unavailable' })
    const startTls = await bySearch({ ca: undefined } as Partial<LdapDirectorySettings>)
      .checkPassword('jdupont', 'Dir-Secret-1')
      .catch((error: DomainError) => error)
    expect(startTls).toMatchObject({ code: 'DIRECTORY_UNAVAILABLE' })
  })

  it('answers unavailable, not refused, when the service account is refused', async () => {
    const refusal = await bySearch({
      search: { base: directory.peopleBase, filter: '(uid={login})', bindDn: directory.adminDn, bindPassword: 'nope' },
    })
      .checkPassword('jdupont', 'Dir-Secret-1')
      .catch((error: DomainError) => error)
    expect(refusal).toMatchObject({ code: 'DIRECTORY_UNAVAILABLE' })
  })
})

describe('a directory that does not answer', () => {
  let silent: Server
  let port: number
  beforeAll(async () => {
    // Accepts connections and never answers: a directory hung behind a firewall.
    silent = createServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    port = (silent.address() as { port: number }).port
  })
  const sockets: Socket[] = []
  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => silent.close(() => resolve()))
  })

  it('is unavailable (503) after the timeout when it hangs, and at once when nothing listens', async () => {
    const hung = createLdapDirectory({ url: `ldaps://127.0.0.1:${port}`, bindTemplate: 'uid={login}', timeoutMs: 300 })
    await expect(hung.checkPassword('jdupont', 'x')).rejects.toMatchObject({ code: 'DIRECTORY_UNAVAILABLE' })
    const closed = createLdapDirectory({ url: 'ldap://127.0.0.1:9', bindTemplate: 'uid={login}', timeoutMs: 1_000 })
    await expect(closed.checkPassword('jdupont', 'x')).rejects.toMatchObject({
      code: 'DIRECTORY_UNAVAILABLE',
      kind: 'unavailable',
    })
  })
})
