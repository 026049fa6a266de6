import type { UserDefinition, UserDefinitionInput, UserEntityMembership } from '../organisation/organisation-schema.js'
import type { DirectoryAccount } from './directory-account.js'
import type { DirectorySyncMapping } from './directory-mapping.js'

/** What a user sync asks of the organisation: a document of the users it adds or changes, and what it left alone. */
export interface DirectorySyncDocument {
  readonly document: { readonly version: 1; readonly users: UserDefinitionInput[] }
  /** Lines for the operator: accounts skipped and why, users disabled because the directory no longer lists them. */
  readonly notes: string[]
}

/** A DN compared as directories do for our purpose: case and the spaces around `,` and `=` do not matter. */
function normalisedDn(dn: string): string {
  return dn
    .trim()
    .toLowerCase()
    .replace(/\s*([,=])\s*/g, '$1')
}

/** The value of a DN's first part (`courrier` for `cn=courrier,ou=groups,…`). */
function firstValue(dn: string): string {
  const first = normalisedDn(dn).split(/(?<!\\),/)[0] ?? ''
  return first.slice(first.indexOf('=') + 1)
}

/** True when a mapping's `directoryGroup` (a DN, or a bare name) names the group `dn`. */
function namesGroup(directoryGroup: string, dn: string): boolean {
  return directoryGroup.includes('=')
    ? normalisedDn(directoryGroup) === normalisedDn(dn)
    : directoryGroup.trim().toLowerCase() === firstValue(dn)
}

/** Groups and entities the mapping gives an account, in the mapping's order, each once; null when it manages none. */
function grantsOf(
  account: DirectoryAccount,
  mapping: DirectorySyncMapping,
): { groups: string[]; entities: string[] } | null {
  if (mapping.groups === undefined && mapping.everyone === undefined) return null
  const rules = (mapping.groups ?? []).filter((rule) =>
    account.memberOf.some((dn) => namesGroup(rule.directoryGroup, dn)),
  )
  const grants = [...(mapping.everyone ? [mapping.everyone] : []), ...rules]
  return {
    groups: [...new Set(grants.flatMap((grant) => grant.groups))],
    entities: [...new Set(grants.flatMap((grant) => grant.entities))],
  }
}

/** Memberships of the entities given: a stored membership keeps its role, and its primary mark while it stays. */
function memberships(entities: readonly string[], before: readonly UserEntityMembership[]): UserEntityMembership[] {
  const stored = new Map(before.map((membership) => [membership.id, membership]))
  const primary = before.find((membership) => membership.primary && entities.includes(membership.id))?.id ?? entities[0]
  return entities.map((id) => ({ id, primary: id === primary, role: stored.get(id)?.role ?? null }))
}

/** Why a directory login cannot be a Mailroom login, or null. */
function loginProblem(login: string): string | null {
  if (login.length === 0) return 'no login'
  if (login.length > 128) return 'login longer than 128 characters'
  if (/\s/.test(login)) return 'spaces in the login'
  return null
}

/**
 * The users a sync makes of the directory's accounts (pure): each account becomes an enabled `ldap` user, added
 * or updated (names, mail, and groups and entities when the mapping gives them); `ldap` users the directory no
 * longer lists are disabled. Users whose method is `standard` or `oidc` are never touched, even when the
 * directory has their login; a user Mailroom disabled stays disabled. Logins are matched case-insensitively.
 */
export function planDirectorySync(
  accounts: readonly DirectoryAccount[],
  users: readonly UserDefinition[],
  mapping: DirectorySyncMapping,
): DirectorySyncDocument {
  const notes: string[] = []
  const stored = new Map(users.map((user) => [user.login.toLowerCase(), user]))
  const found = new Map<string, DirectoryAccount>()
  const repeated = new Set<string>()
  for (const account of accounts) {
    const problem = loginProblem(account.login)
    if (problem !== null) {
      notes.push(`skipped ${JSON.stringify(account.login)}: ${problem}`)
      continue
    }
    const key = account.login.toLowerCase()
    if (found.has(key)) repeated.add(key)
    found.set(key, account)
  }
  for (const key of repeated) {
    found.delete(key)
    notes.push(`skipped ${key}: several directory entries have this login`)
  }
  const wanted: UserDefinitionInput[] = []
  for (const [key, account] of found) {
    const before = stored.get(key)
    const grants = grantsOf(account, mapping)
    const names = { firstname: account.firstname, lastname: account.lastname, mail: account.mail }
    if (before === undefined) {
      wanted.push({
        login: account.login,
        ...names,
        authentication: 'ldap',
        groups: grants?.groups ?? [],
        entities: memberships(grants?.entities ?? [], []),
      })
    } else if (before.authentication !== 'ldap') {
      notes.push(
        `skipped ${before.login}: a ${before.authentication} user has this login (sync changes ldap users only)`,
      )
    } else {
      wanted.push({
        ...before,
        ...names,
        ...(grants === null ? {} : { groups: grants.groups, entities: memberships(grants.entities, before.entities) }),
      })
    }
  }
  const gone = users.filter(
    (user) => user.authentication === 'ldap' && user.enabled && !found.has(user.login.toLowerCase()),
  )
  for (const user of gone) wanted.push({ ...user, enabled: false })
  if (gone.length > 0) notes.push(`disabled, no longer in the directory: ${gone.map((user) => user.login).join(', ')}`)
  return { document: { version: 1, users: wanted }, notes }
}
