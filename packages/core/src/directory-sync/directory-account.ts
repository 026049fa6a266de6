/**
 * A person the organisation's directory lists, as a user sync reads them: the attributes Mailroom maps, and the
 * names (DNs) of the directory groups they belong to.
 */
export interface DirectoryAccount {
  readonly login: string
  readonly firstname: string | null
  readonly lastname: string | null
  readonly mail: string | null
  /** Distinguished names of the directory groups the account belongs to (memberOf, or the group entries naming it). */
  readonly memberOf: readonly string[]
}

/** Where a user sync reads the directory's people (an LDAP search with a service account: @mailroom/directory). */
export interface DirectoryAccountSource {
  /** Every account the configured search finds. Throws DIRECTORY_SEARCH_UNAVAILABLE when the directory cannot answer. */
  listAccounts(): Promise<DirectoryAccount[]>
}
