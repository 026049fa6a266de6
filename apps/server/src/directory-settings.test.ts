import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError } from './config-error.js'
import { directorySettings, directorySyncSettings, oidcSettings } from './directory-settings.js'

const folder = mkdtempSync(join(tmpdir(), 'mailroom-ldap-settings-'))
writeFileSync(join(folder, 'ca.pem'), '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n')
writeFileSync(join(folder, 'bind-password'), 's3cret\n')
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('MAILROOM_LDAP_* settings', () => {
  it('are off without MAILROOM_LDAP_URL', () => {
    expect(directorySettings({})).toBeUndefined()
  })

  it('read a bind template over LDAPS, with the authority of the certificate from a file', () => {
    expect(
      directorySettings({
        MAILROOM_LDAP_URL: 'ldaps://ldap.mairie.example:636',
        MAILROOM_LDAP_BIND_TEMPLATE: 'uid={login},ou=people,dc=mairie,dc=example',
        MAILROOM_LDAP_CA_FILE: join(folder, 'ca.pem'),
        MAILROOM_LDAP_TIMEOUT_MS: '3000',
      }),
    ).toEqual({
      url: 'ldaps://ldap.mairie.example:636',
      bindTemplate: 'uid={login},ou=people,dc=mairie,dc=example',
      ca: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      timeoutMs: 3000,
    })
  })

  it('read a search with its service account, the password from a file', () => {
    expect(
      directorySettings({
        MAILROOM_LDAP_URL: 'ldap://dc1.corp.example',
        MAILROOM_LDAP_SEARCH_BASE: 'ou=Staff,dc=corp,dc=example',
        MAILROOM_LDAP_SEARCH_FILTER: '(&(objectClass=user)(sAMAccountName={login}))',
        MAILROOM_LDAP_BIND_DN: 'cn=mailroom,ou=Services,dc=corp,dc=example',
        MAILROOM_LDAP_BIND_PASSWORD_FILE: join(folder, 'bind-password'),
      }),
    ).toEqual({
      url: 'ldap://dc1.corp.example',
      search: {
        base: 'ou=Staff,dc=corp,dc=example',
        filter: '(&(objectClass=user)(sAMAccountName={login}))',
        bindDn: 'cn=mailroom,ou=Services,dc=corp,dc=example',
        bindPassword: 's3cret',
      },
    })
  })

  it('stop the start with the reason when the directory could not work', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ MAILROOM_LDAP_BIND_TEMPLATE: 'uid={login}' }, /MAILROOM_LDAP_URL is needed/],
      [{ MAILROOM_LDAP_URL: 'http://ldap', MAILROOM_LDAP_BIND_TEMPLATE: 'uid={login}' }, /must be ldaps:\/\/host/],
      [{ MAILROOM_LDAP_URL: 'ldaps://ldap' }, /either MAILROOM_LDAP_BIND_TEMPLATE/],
      [{ MAILROOM_LDAP_URL: 'ldaps://ldap', MAILROOM_LDAP_BIND_TEMPLATE: 'uid=x' }, /must contain \{login\}/],
      [{ MAILROOM_LDAP_URL: 'ldaps://ldap', MAILROOM_LDAP_SEARCH_BASE: 'dc=x' }, /needs its service account/],
      [
        {
          MAILROOM_LDAP_URL: 'ldaps://ldap',
          MAILROOM_LDAP_BIND_TEMPLATE: 'uid={login}',
          MAILROOM_LDAP_STARTTLS: 'maybe',
        },
        /MAILROOM_LDAP_STARTTLS must be 1 or 0/,
      ],
      [
        {
          MAILROOM_LDAP_URL: 'ldaps://ldap',
          MAILROOM_LDAP_BIND_TEMPLATE: 'uid={login}',
          MAILROOM_LDAP_CA_FILE: '/nope.pem',
        },
        /MAILROOM_LDAP_CA_FILE: cannot read \/nope.pem/,
      ],
    ]
    for (const [env, message] of cases) {
      expect(() => directorySettings(env), JSON.stringify(env)).toThrow(ConfigError)
      expect(() => directorySettings(env), JSON.stringify(env)).toThrow(message)
    }
  })
})

describe('MAILROOM_OIDC_* settings', () => {
  it('are off without MAILROOM_OIDC_ISSUER, and read the provider with its client, secret from a file', () => {
    expect(oidcSettings({})).toBeUndefined()
    expect(
      oidcSettings({
        MAILROOM_OIDC_ISSUER: 'https://sso.mairie.example/realms/mairie',
        MAILROOM_OIDC_CLIENT_ID: 'mailroom',
        MAILROOM_OIDC_CLIENT_SECRET_FILE: join(folder, 'bind-password'),
        MAILROOM_OIDC_REDIRECT_URL: 'https://courrier.mairie.example/rest/authenticate/oidc/callback',
        MAILROOM_OIDC_PROVIDER_NAME: 'Keycloak',
      }),
    ).toEqual({
      issuer: 'https://sso.mairie.example/realms/mairie',
      clientId: 'mailroom',
      clientSecret: 's3cret',
      redirectUrl: 'https://courrier.mairie.example/rest/authenticate/oidc/callback',
      providerName: 'Keycloak',
    })
  })

  it('stop the start with the reason when the provider could not work', () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ MAILROOM_OIDC_CLIENT_ID: 'x' }, /needs MAILROOM_OIDC_ISSUER/],
      [{ MAILROOM_OIDC_ISSUER: 'http://sso.example', MAILROOM_OIDC_CLIENT_ID: 'x' }, /must be https:\/\//],
      [{ MAILROOM_OIDC_ISSUER: 'https://sso.example' }, /needs MAILROOM_OIDC_CLIENT_ID/],
      [
        {
          MAILROOM_OIDC_ISSUER: 'https://sso.example',
          MAILROOM_OIDC_CLIENT_ID: 'x',
          MAILROOM_OIDC_REDIRECT_URL: 'https://m/console',
        },
        /rest\/authenticate\/oidc\/callback/,
      ],
    ]
    for (const [env, message] of cases) expect(() => oidcSettings(env), JSON.stringify(env)).toThrow(message)
  })
})

describe('user sync settings', () => {
  const ad = {
    MAILROOM_LDAP_URL: 'ldap://dc1.corp.example',
    MAILROOM_LDAP_BIND_TEMPLATE: '{login}@corp.example',
    MAILROOM_LDAP_BIND_DN: 'CN=svc-mailroom,OU=Services,DC=corp,DC=example',
    MAILROOM_LDAP_BIND_PASSWORD_FILE: join(folder, 'bind-password'),
  }

  it('search MAILROOM_LDAP_SYNC_BASE with its filter and the service account, beside binds by template', () => {
    expect(
      directorySyncSettings({
        ...ad,
        MAILROOM_LDAP_SYNC_BASE: 'OU=Staff,DC=corp,DC=example',
        MAILROOM_LDAP_SYNC_FILTER: '(&(objectCategory=person)(objectClass=user))',
      }),
    ).toEqual({
      url: 'ldap://dc1.corp.example',
      bindDn: 'CN=svc-mailroom,OU=Services,DC=corp,DC=example',
      bindPassword: 's3cret',
      base: 'OU=Staff,DC=corp,DC=example',
      filter: '(&(objectCategory=person)(objectClass=user))',
    })
  })

  it("fall back on the sign-in search's base and on inetOrgPerson entries", () => {
    const { MAILROOM_LDAP_BIND_TEMPLATE: _, ...search } = { ...ad, MAILROOM_LDAP_SEARCH_BASE: 'dc=corp,dc=example' }
    expect(directorySyncSettings(search)).toMatchObject({
      base: 'dc=corp,dc=example',
      filter: '(objectClass=inetOrgPerson)',
    })
  })

  it('say what is missing', () => {
    expect(() => directorySyncSettings({})).toThrow(
      new ConfigError('user sync needs the directory: set MAILROOM_LDAP_URL'),
    )
    expect(() => directorySyncSettings(ad)).toThrow(/set MAILROOM_LDAP_SYNC_BASE \(or MAILROOM_LDAP_SEARCH_BASE\)/)
    const { MAILROOM_LDAP_BIND_DN: _, ...anonymous } = { ...ad, MAILROOM_LDAP_SYNC_BASE: 'dc=corp' }
    expect(() => directorySyncSettings(anonymous)).toThrow(/^user sync needs its service account/)
    expect(() =>
      directorySyncSettings({ ...ad, MAILROOM_LDAP_SYNC_BASE: 'dc=corp', MAILROOM_LDAP_SYNC_FILTER: 'uid=*' }),
    ).toThrow(/must be an LDAP filter in parentheses/)
  })
})
