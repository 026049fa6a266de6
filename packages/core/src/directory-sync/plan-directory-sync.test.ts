import { describe, expect, it } from 'vitest'
import type { UserDefinition } from '../organisation/organisation-schema.js'
import type { DirectoryAccount } from './directory-account.js'
import { DirectorySyncMappingSchema } from './directory-mapping.js'
import { planDirectorySync } from './plan-directory-sync.js'

const account = (login: string, memberOf: string[] = [], extra: Partial<DirectoryAccount> = {}): DirectoryAccount => ({
  login,
  firstname: 'Jean',
  lastname: login.toUpperCase(),
  mail: `${login}@mairie.test`,
  memberOf,
  ...extra,
})

const user = (login: string, extra: Partial<UserDefinition> = {}): UserDefinition => ({
  login,
  id: 1,
  firstname: null,
  lastname: null,
  mail: null,
  mode: 'standard',
  enabled: true,
  authentication: 'ldap',
  groups: [],
  entities: [],
  ...extra,
})

const mapping = DirectorySyncMappingSchema.parse({
  groups: [
    { directoryGroup: 'cn=courrier,ou=groups,dc=mairie,dc=test', groups: ['COURRIER'], entities: ['COU'] },
    { directoryGroup: 'Agents', groups: ['AGENT'], entities: ['PJS', 'COU'] },
  ],
  everyone: { groups: ['AGENT'] },
})

describe('planning a user sync', () => {
  it('adds new accounts as enabled ldap users, with the groups and entities their directory groups map to', () => {
    const { document, notes } = planDirectorySync(
      [account('jdupont', ['CN=Courrier, OU=groups,DC=mairie,DC=test', 'cn=agents,ou=groups,dc=mairie,dc=test'])],
      [],
      mapping,
    )
    expect(notes).toEqual([])
    expect(document.users).toEqual([
      {
        login: 'jdupont',
        firstname: 'Jean',
        lastname: 'JDUPONT',
        mail: 'jdupont@mairie.test',
        authentication: 'ldap',
        groups: ['AGENT', 'COURRIER'],
        entities: [
          { id: 'COU', primary: true, role: null },
          { id: 'PJS', primary: false, role: null },
        ],
      },
    ])
  })

  it('updates ldap users, keeping their id, mode, roles and primary entity, and disables those the directory lost', () => {
    const stored = [
      user('jdupont', { id: 7, mode: 'rest', entities: [{ id: 'PJS', primary: true, role: 'chef' }] }),
      user('parti', { id: 8 }),
      user('deja-off', { id: 9, enabled: false }),
    ]
    const { document, notes } = planDirectorySync([account('JDupont', ['cn=agents,ou=groups,dc=x'])], stored, mapping)
    expect(document.users).toEqual([
      expect.objectContaining({
        login: 'jdupont',
        id: 7,
        mode: 'rest',
        mail: 'JDupont@mairie.test',
        groups: ['AGENT'],
        entities: [
          { id: 'PJS', primary: true, role: 'chef' },
          { id: 'COU', primary: false, role: null },
        ],
      }),
      expect.objectContaining({ login: 'parti', id: 8, enabled: false }),
    ])
    expect(notes).toEqual(['disabled, no longer in the directory: parti'])
  })

  it('never touches standard or oidc users, keeps a disabled user disabled, and skips unusable logins', () => {
    const stored = [
      user('admin', { authentication: 'standard' }),
      user('sso', { authentication: 'oidc' }),
      user('off', { enabled: false }),
    ]
    const accounts = [
      account('admin'),
      account('sso'),
      account('off'),
      account('a b'),
      account('twin'),
      account('TWIN'),
    ]
    const { document, notes } = planDirectorySync(accounts, stored, DirectorySyncMappingSchema.parse({}))
    expect(document.users).toEqual([expect.objectContaining({ login: 'off', enabled: false })])
    expect(notes).toEqual([
      'skipped "a b": spaces in the login',
      'skipped twin: several directory entries have this login',
      'skipped admin: a standard user has this login (sync changes ldap users only)',
      'skipped sso: a oidc user has this login (sync changes ldap users only)',
    ])
  })

  it('leaves groups and entities alone without a mapping of groups', () => {
    const stored = [user('jdupont', { groups: ['ADMIN'], entities: [{ id: 'PJS', primary: true, role: null }] })]
    const { document } = planDirectorySync(
      [account('jdupont', ['cn=agents'])],
      stored,
      DirectorySyncMappingSchema.parse({}),
    )
    expect(document.users[0]).toMatchObject({ groups: ['ADMIN'], entities: [{ id: 'PJS', primary: true }] })
  })
})
