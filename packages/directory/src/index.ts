/**
 * @module @mailroom/directory
 * Sign-in through the organisation's directory: passwords of users whose method is `ldap` checked by a bind
 * to LDAP or Active Directory (docs/directory-sign-in.md). `createMailroom` takes the authenticator this
 * builds as its `directory` option.
 */

export { createLdapDirectory } from './ldap/ldap-directory.js'
export type { LdapDirectorySettings, LdapSearchSettings } from './ldap/ldap-settings.js'
export { bindNameOf, escapeDnValue, searchFilterOf } from './ldap/login-placement.js'
