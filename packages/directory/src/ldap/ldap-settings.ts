/** How Mailroom reaches the organisation's directory (docs/directory-sign-in.md; MAILROOM_LDAP_* settings). */
export interface LdapDirectorySettings {
  /** `ldaps://host:636` (TLS from the start) or `ldap://host:389` (upgraded by StartTLS unless `startTls` is false). */
  readonly url: string
  /** Upgrade an `ldap://` connection with StartTLS before anything is sent (default true; false sends passwords in clear). */
  readonly startTls?: boolean
  /** Certificates (PEM) of the authorities that sign the directory's certificate, when not the system's. */
  readonly ca?: string
  /** Check the directory's certificate and name (default true). */
  readonly checkCertificate?: boolean
  /**
   * Bind name of a login, `{login}` in place: a DN (`uid={login},ou=people,dc=example,dc=org`) or an Active
   * Directory name (`{login}@corp.example`). Either this or `search`.
   */
  readonly bindTemplate?: string
  /** Or: the login's entry is found by a search with a service account, then bound to with the password. */
  readonly search?: LdapSearchSettings
  /** Milliseconds before a connection or an operation is given up as unreachable (default 5,000). */
  readonly timeoutMs?: number
}

/** How the entry of a login is found. */
export interface LdapSearchSettings {
  readonly base: string
  /** Filter with `{login}` in place (escaped), e.g. `(&(objectClass=person)(uid={login}))` or `(sAMAccountName={login})`. */
  readonly filter: string
  readonly bindDn: string
  readonly bindPassword: string
}
