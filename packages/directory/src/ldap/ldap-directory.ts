import type { DirectoryAuthenticator, DirectoryCheck } from '@mailroom/core'
import { type Client, InvalidCredentialsError, ResultCodeError } from 'ldapts'
import { ldapConnector, unavailable, unavailableUnless } from './ldap-connection.js'
import type { LdapDirectorySettings } from './ldap-settings.js'
import { bindNameOf, searchFilterOf } from './login-placement.js'

/**
 * Active Directory says why a bind was refused in its diagnostic message (`data 52e`): what the log may
 * say of it. The caller is told nothing more than "Authentication Failed" either way.
 */
const ACTIVE_DIRECTORY_REASONS: Record<string, string> = {
  '525': 'no such user',
  '52e': 'wrong password',
  '530': 'not permitted to sign in at this time',
  '531': 'not permitted to sign in from this workstation',
  '532': 'password expired',
  '533': 'account disabled',
  '701': 'account expired',
  '773': 'password must be reset',
  '775': 'account locked',
}

/**
 * Checks passwords by binding to an LDAP directory (OpenLDAP, Active Directory…) with the login's name, found
 * by a template or a search. One connection per check, closed at once: a password is never kept, and no
 * answer of the directory is cached. An outage, a refused certificate or a refused service account throws
 * DIRECTORY_UNAVAILABLE (503): never taken for a wrong password.
 */
export function createLdapDirectory(settings: LdapDirectorySettings): DirectoryAuthenticator {
  if ((settings.bindTemplate === undefined) === (settings.search === undefined))
    throw new Error('LDAP directory: give either a bind template or a search, not both')
  const connect = ldapConnector(settings)
  return {
    async checkPassword(login, password): Promise<DirectoryCheck> {
      // An empty password is an unauthenticated bind, which LDAP servers accept for anyone (RFC 4513 §5.1.2).
      if (password === '') return { accepted: false, reason: 'empty password' }
      const client = await connect()
      try {
        const name = settings.search
          ? await findEntry(client, settings.search, login)
          : bindNameOf(settings.bindTemplate!, login)
        if (typeof name !== 'string') return name
        try {
          await client.bind(name, password)
          return { accepted: true }
        } catch (error) {
          return { accepted: false, reason: refusalReason(error) }
        }
      } finally {
        await client.unbind().catch(() => undefined)
      }
    },
  }
}

/** The DN of the one entry the search finds for the login, or why there is none. */
async function findEntry(
  client: Client,
  search: NonNullable<LdapDirectorySettings['search']>,
  login: string,
): Promise<string | DirectoryCheck> {
  await unavailableUnless(client.bind(search.bindDn, search.bindPassword), 'service account bind')
  const { searchEntries } = await unavailableUnless(
    client.search(search.base, {
      scope: 'sub',
      filter: searchFilterOf(search.filter, login),
      attributes: ['dn'],
      sizeLimit: 2,
    }),
    'search',
  )
  if (searchEntries.length === 0) return { accepted: false, reason: 'no directory entry for this login' }
  if (searchEntries.length > 1) return { accepted: false, reason: 'several directory entries for this login' }
  return searchEntries[0]!.dn
}

/** Why the directory refused the user's bind, for the log; a failure that is not a refusal means it is unavailable. */
function refusalReason(error: unknown): string {
  if (error instanceof InvalidCredentialsError) {
    const code = /data ([0-9a-f]{3})/i.exec(error.message)?.[1]?.toLowerCase()
    return (code && ACTIVE_DIRECTORY_REASONS[code]) ?? 'wrong password, or account disabled or locked'
  }
  // Another result code is the directory's answer too (unwillingToPerform for a disabled account, …).
  if (error instanceof ResultCodeError) return `refused by the directory (result code ${error.code})`
  unavailable('bind', error)
}
