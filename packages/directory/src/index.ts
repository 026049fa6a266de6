/**
 * @module @mailroom/directory
 * Sign-in through the organisation's directory: passwords of users whose method is `ldap` checked by a bind
 * to LDAP or Active Directory, and users whose method is `oidc` signed in by an OpenID Connect provider
 * (docs/directory-sign-in.md); and the user sync, which provisions and disables `ldap` users from a directory
 * search. `createMailroom` takes the authenticator this builds as its `directory` option.
 */

export type { LdapConnectionSettings } from './ldap/ldap-connection.js'
export { createLdapDirectory } from './ldap/ldap-directory.js'
export type { LdapDirectorySettings, LdapSearchSettings } from './ldap/ldap-settings.js'
export { bindNameOf, escapeDnValue, searchFilterOf } from './ldap/login-placement.js'
export type { OidcIdentityProvider, PendingSignIn } from './oidc/oidc-identity-provider.js'
export { createOidcIdentityProvider } from './oidc/oidc-identity-provider.js'
export type { OidcSettings } from './oidc/oidc-settings.js'
export type { LdapAccountSearchSettings } from './sync/ldap-account-search.js'
export { createLdapAccountSource } from './sync/ldap-account-search.js'
export type { LdapSyncSettings } from './sync/sync-users-from-directory.js'
export { syncUsersFromDirectory } from './sync/sync-users-from-directory.js'
