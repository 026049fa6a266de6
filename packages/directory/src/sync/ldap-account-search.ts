import {
  type DirectoryAccount,
  type DirectoryAccountSource,
  type DirectorySyncMapping,
  DomainError,
  domainError,
} from '@mailroom/core'
import type { Client, Entry } from 'ldapts'
import { type LdapConnectionSettings, ldapConnector, unavailableUnless } from '../ldap/ldap-connection.js'

/** Where and how a user sync reads the directory's people (MAILROOM_LDAP_SYNC_* settings and the mapping file). */
export interface LdapAccountSearchSettings extends LdapConnectionSettings {
  /** The service account the search binds as. */
  readonly bindDn: string
  readonly bindPassword: string
  /** Where the people are, and which entries are people (`(objectClass=inetOrgPerson)`, `(&(objectCategory=person)(objectClass=user))`). */
  readonly base: string
  readonly filter: string
  /** Which attributes hold what, and where memberships are read: the mapping's `attributes` and `groupEntries`. */
  readonly attributes: DirectorySyncMapping['attributes']
  readonly groupEntries?: DirectorySyncMapping['groupEntries']
}

/** Entries read a page at a time: Active Directory answers at most 1,000 entries to a search without paging. */
const PAGE_SIZE = 500

/** An attribute's values as text, whatever case the directory spells its name in. */
function valuesOf(entry: Entry, attribute: string): string[] {
  const name = Object.keys(entry).find((key) => key.toLowerCase() === attribute.toLowerCase())
  const value = name === undefined ? undefined : entry[name]
  if (value === undefined) return []
  return (Array.isArray(value) ? value : [value]).map((item) => (Buffer.isBuffer(item) ? item.toString('utf8') : item))
}

const firstOf = (entry: Entry, attribute: string): string | null => valuesOf(entry, attribute)[0]?.trim() || null

/** Lower-cased DN, spaces around separators dropped: how group members are matched to people. */
const dnKey = (dn: string) =>
  dn
    .trim()
    .toLowerCase()
    .replace(/\s*([,=])\s*/g, '$1')

/** Group DNs per member (a person's DN, or a login for `memberUid` groups), read from the group entries. */
async function membershipsFromGroups(
  client: Client,
  groups: NonNullable<LdapAccountSearchSettings['groupEntries']>,
): Promise<Map<string, string[]>> {
  const { searchEntries } = await unavailableUnless(
    client.search(groups.base, {
      scope: 'sub',
      filter: groups.filter,
      attributes: [groups.memberAttribute],
      paged: { pageSize: PAGE_SIZE },
    }),
    'group search',
  )
  const members = new Map<string, string[]>()
  for (const group of searchEntries)
    for (const member of valuesOf(group, groups.memberAttribute)) {
      const key = member.includes('=') ? dnKey(member) : member.toLowerCase()
      members.set(key, [...(members.get(key) ?? []), group.dn])
    }
  return members
}

/**
 * Reads the directory's people for a user sync: one connection, a bind as the service account, a paged search
 * of the people, and of the group entries when memberships are read there. Throws DIRECTORY_SEARCH_UNAVAILABLE
 * (with what failed) when the directory cannot answer; nothing is kept.
 */
export function createLdapAccountSource(settings: LdapAccountSearchSettings): DirectoryAccountSource {
  const connect = ldapConnector(settings)
  const { attributes } = settings
  return {
    async listAccounts(): Promise<DirectoryAccount[]> {
      try {
        return await readAccounts()
      } catch (error) {
        // Said as a search that failed, not as a password that cannot be checked.
        if (!(error instanceof DomainError) || error.code !== 'DIRECTORY_UNAVAILABLE') throw error
        const { code, message, kind } = domainError('DIRECTORY_SEARCH_UNAVAILABLE')
        throw new DomainError(code, message, kind, { cause: error.cause, details: { ...error.details } })
      }
    },
  }

  async function readAccounts(): Promise<DirectoryAccount[]> {
    const client = await connect()
    try {
      await unavailableUnless(client.bind(settings.bindDn, settings.bindPassword), 'service account bind')
      const { searchEntries } = await unavailableUnless(
        client.search(settings.base, {
          scope: 'sub',
          filter: settings.filter,
          attributes: [
            attributes.login,
            attributes.firstname,
            attributes.lastname,
            attributes.mail,
            attributes.memberOf,
          ],
          paged: { pageSize: PAGE_SIZE },
        }),
        'search',
      )
      const groups = settings.groupEntries ? await membershipsFromGroups(client, settings.groupEntries) : null
      return searchEntries.flatMap((entry) => {
        const login = firstOf(entry, attributes.login)
        if (login === null) return []
        const memberOf =
          groups === null
            ? valuesOf(entry, attributes.memberOf)
            : [...(groups.get(dnKey(entry.dn)) ?? []), ...(groups.get(login.toLowerCase()) ?? [])]
        return [
          {
            login,
            firstname: firstOf(entry, attributes.firstname),
            lastname: firstOf(entry, attributes.lastname),
            mail: firstOf(entry, attributes.mail),
            memberOf,
          },
        ]
      })
    } finally {
      await client.unbind().catch(() => undefined)
    }
  }
}
