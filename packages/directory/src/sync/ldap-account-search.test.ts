import type { OrganisationServices } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slapdMissing, startTestDirectory, type TestDirectory } from '../../../testing/src/directory/slapd-server.js'
import { createLdapAccountSource, type LdapAccountSearchSettings } from './ldap-account-search.js'
import { syncUsersFromDirectory } from './sync-users-from-directory.js'

const missing = slapdMissing()
if (missing) console.log(missing)

const ATTRIBUTES = { login: 'uid', firstname: 'givenName', lastname: 'sn', mail: 'mail', memberOf: 'memberOf' }

describe.skipIf(missing !== null)("reading the directory's people for a user sync, from a real OpenLDAP server", () => {
  let directory: TestDirectory
  beforeAll(async () => {
    directory = await startTestDirectory(
      [
        { uid: 'jdupont', password: 'x-1', mail: 'jdupont@mairie.test', givenName: 'Jean', surname: 'Dupont' },
        { uid: 'amartin', password: 'x-2', surname: 'Martin', seeAlso: ['cn=courrier,ou=groups,dc=mailroom,dc=test'] },
      ],
      [
        { cn: 'courrier', members: ['jdupont', 'amartin'] },
        { cn: 'agents', members: ['jdupont'] },
      ],
    )
  }, 60_000)
  afterAll(async () => directory?.stop())

  const settings = (extra: Partial<LdapAccountSearchSettings> = {}): LdapAccountSearchSettings => ({
    url: directory.url,
    ca: directory.ca,
    bindDn: directory.adminDn,
    bindPassword: directory.adminPassword,
    base: directory.peopleBase,
    filter: '(objectClass=inetOrgPerson)',
    attributes: ATTRIBUTES,
    ...extra,
  })
  const byLogin = <T extends { login: string }>(accounts: T[]) =>
    [...accounts].sort((a, b) => a.login.localeCompare(b.login))

  it('reads login, names and mail over StartTLS, and memberships from the group entries', async () => {
    const accounts = await createLdapAccountSource(
      settings({
        groupEntries: { base: directory.groupsBase, filter: '(objectClass=groupOfNames)', memberAttribute: 'member' },
      }),
    ).listAccounts()
    expect(byLogin(accounts)).toEqual([
      {
        login: 'amartin',
        firstname: null,
        lastname: 'Martin',
        mail: null,
        memberOf: [`cn=courrier,${directory.groupsBase}`],
      },
      {
        login: 'jdupont',
        firstname: 'Jean',
        lastname: 'Dupont',
        mail: 'jdupont@mairie.test',
        memberOf: [`cn=courrier,${directory.groupsBase}`, `cn=agents,${directory.groupsBase}`],
      },
    ])
  })

  it("reads memberships from a person's own attribute (memberOf in Active Directory) over LDAPS", async () => {
    const accounts = await createLdapAccountSource(
      settings({ url: directory.ldapsUrl, attributes: { ...ATTRIBUTES, memberOf: 'seeAlso' } }),
    ).listAccounts()
    expect(byLogin(accounts).map((account) => [account.login, account.memberOf])).toEqual([
      ['amartin', ['cn=courrier,ou=groups,dc=mailroom,dc=test']],
      ['jdupont', []],
    ])
  })

  it('is unavailable, not empty, when the service account is refused or the certificate not trusted', async () => {
    await expect(createLdapAccountSource(settings({ bindPassword: 'nope' })).listAccounts()).rejects.toMatchObject({
      code: 'DIRECTORY_SEARCH_UNAVAILABLE',
      details: { directory: expect.stringMatching(/^service account bind: /) },
    })
    await expect(
      createLdapAccountSource(settings({ ca: undefined } as Partial<LdapAccountSearchSettings>)).listAccounts(),
    ).rejects.toMatchObject({ code: 'DIRECTORY_SEARCH_UNAVAILABLE', kind: 'unavailable' })
  })

  it('syncs as a library call: the document it applies adds the people as ldap users with their mapped groups', async () => {
    const applied: unknown[] = []
    const organisation = {
      export: async () => ({ version: 1, users: [] }),
      apply: async (document: unknown, options: unknown) => {
        applied.push({ document, options })
        return { lines: ['users: +2 ~0 -0 (added: jdupont, amartin)'], summary: {}, applied: false } as never
      },
    } as unknown as OrganisationServices
    const result = await syncUsersFromDirectory(
      organisation,
      {
        url: directory.url,
        ca: directory.ca,
        bindDn: directory.adminDn,
        bindPassword: directory.adminPassword,
        base: directory.peopleBase,
        filter: '(uid=*)',
      },
      {
        groupEntries: { base: directory.groupsBase },
        groups: [{ directoryGroup: 'agents', groups: ['AGENT'], entities: ['PJS'] }],
      },
      { dryRun: true },
    )
    expect(result.lines).toEqual(['users: +2 ~0 -0 (added: jdupont, amartin)'])
    expect(applied).toHaveLength(1)
    const { document, options } = applied[0] as { document: { users: unknown[] }; options: unknown }
    expect(options).toEqual({ dryRun: true })
    expect(byLogin(document.users as { login: string }[])).toEqual([
      expect.objectContaining({ login: 'amartin', authentication: 'ldap', groups: [], entities: [] }),
      expect.objectContaining({
        login: 'jdupont',
        authentication: 'ldap',
        groups: ['AGENT'],
        entities: [{ id: 'PJS', primary: true, role: null }],
      }),
    ])
  })
})
