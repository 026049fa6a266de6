import { readFileSync } from 'node:fs'
import type { LdapConnectionSettings, LdapDirectorySettings, LdapSyncSettings, OidcSettings } from '@mailroom/mailroom'
import { ConfigError } from './config-error.js'
import { type Env, setting } from './settings/read-setting.js'

/**
 * The organisation's directory from MAILROOM_LDAP_* (docs/directory-sign-in.md); undefined when
 * MAILROOM_LDAP_URL is unset. A directory that could not work (no way to find a login's entry, a
 * half-configured search, a plain `ldap://` without StartTLS unless asked for) stops the start with the reason.
 */
export function directorySettings(env: Env): LdapDirectorySettings | undefined {
  const url = setting(env, 'MAILROOM_LDAP_URL')
  const template = setting(env, 'MAILROOM_LDAP_BIND_TEMPLATE')
  const base = setting(env, 'MAILROOM_LDAP_SEARCH_BASE')
  if (url === undefined) {
    if (template !== undefined || base !== undefined)
      throw new ConfigError('MAILROOM_LDAP_URL is needed by the other MAILROOM_LDAP_* settings')
    return undefined
  }
  if ((template === undefined) === (base === undefined))
    throw new ConfigError(
      'give the directory either MAILROOM_LDAP_BIND_TEMPLATE (a DN or name with {login}) or MAILROOM_LDAP_SEARCH_BASE with its filter and service account',
    )
  if (template !== undefined && !template.includes('{login}'))
    throw new ConfigError('MAILROOM_LDAP_BIND_TEMPLATE must contain {login}')
  const common = connectionSettings(env, url)
  if (template !== undefined) return { ...common, bindTemplate: template }
  const filter = setting(env, 'MAILROOM_LDAP_SEARCH_FILTER')
  if (!filter.includes('{login}')) throw new ConfigError('MAILROOM_LDAP_SEARCH_FILTER must contain {login}')
  return { ...common, search: { base: base!, filter, ...serviceAccount(env, 'a directory search') } }
}

/** How the directory is reached: MAILROOM_LDAP_URL and its TLS and timeout settings. */
function connectionSettings(env: Env, url: string): LdapConnectionSettings {
  if (!/^ldaps?:\/\/[^/]+\/?$/.test(url))
    throw new ConfigError(`MAILROOM_LDAP_URL must be ldaps://host[:port] or ldap://host[:port], got "${url}"`)
  const startTls = setting(env, 'MAILROOM_LDAP_STARTTLS')
  const checkCertificate = setting(env, 'MAILROOM_LDAP_CHECK_CERTIFICATE')
  const caFile = setting(env, 'MAILROOM_LDAP_CA_FILE')
  const timeoutMs = setting(env, 'MAILROOM_LDAP_TIMEOUT_MS')
  let ca: string | undefined
  if (caFile !== undefined) {
    try {
      ca = readFileSync(caFile, 'utf8')
    } catch (error) {
      throw new ConfigError(`MAILROOM_LDAP_CA_FILE: cannot read ${caFile} (${(error as Error).message})`)
    }
  }
  return {
    url,
    ...(startTls === undefined ? {} : { startTls }),
    ...(checkCertificate === undefined ? {} : { checkCertificate }),
    ...(ca === undefined ? {} : { ca }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  }
}

/** The service account a search binds as: MAILROOM_LDAP_BIND_DN and MAILROOM_LDAP_BIND_PASSWORD (or _FILE). */
function serviceAccount(env: Env, needer: string): { bindDn: string; bindPassword: string } {
  const bindDn = setting(env, 'MAILROOM_LDAP_BIND_DN')
  const bindPassword = setting(env, 'MAILROOM_LDAP_BIND_PASSWORD')
  if (bindDn === undefined || bindPassword === undefined)
    throw new ConfigError(
      `${needer} needs its service account: MAILROOM_LDAP_BIND_DN and MAILROOM_LDAP_BIND_PASSWORD (or _FILE)`,
    )
  return { bindDn, bindPassword }
}

/**
 * What `mailroom user sync` searches (docs/directory-sign-in.md#user-sync): the directory of MAILROOM_LDAP_URL,
 * its service account, MAILROOM_LDAP_SYNC_BASE (else MAILROOM_LDAP_SEARCH_BASE) and MAILROOM_LDAP_SYNC_FILTER.
 */
export function directorySyncSettings(env: Env): LdapSyncSettings {
  const url = setting(env, 'MAILROOM_LDAP_URL')
  if (url === undefined) throw new ConfigError('user sync needs the directory: set MAILROOM_LDAP_URL')
  const base = setting(env, 'MAILROOM_LDAP_SYNC_BASE') ?? setting(env, 'MAILROOM_LDAP_SEARCH_BASE')
  if (base === undefined)
    throw new ConfigError(
      'user sync needs where the people are: set MAILROOM_LDAP_SYNC_BASE (or MAILROOM_LDAP_SEARCH_BASE)',
    )
  const filter = setting(env, 'MAILROOM_LDAP_SYNC_FILTER')
  if (!/^\(.*\)$/s.test(filter))
    throw new ConfigError(`MAILROOM_LDAP_SYNC_FILTER must be an LDAP filter in parentheses, got "${filter}"`)
  return { ...connectionSettings(env, url), ...serviceAccount(env, 'user sync'), base, filter }
}

/**
 * The organisation's OpenID Connect provider from MAILROOM_OIDC_* (docs/directory-sign-in.md); undefined when
 * MAILROOM_OIDC_ISSUER is unset. The console offers it when MAILROOM_OIDC_REDIRECT_URL is set.
 */
export function oidcSettings(env: Env): OidcSettings | undefined {
  const issuer = setting(env, 'MAILROOM_OIDC_ISSUER')
  const clientId = setting(env, 'MAILROOM_OIDC_CLIENT_ID')
  if (issuer === undefined) {
    if (clientId !== undefined) throw new ConfigError('MAILROOM_OIDC_CLIENT_ID needs MAILROOM_OIDC_ISSUER')
    return undefined
  }
  let url: URL
  try {
    url = new URL(issuer)
  } catch {
    throw new ConfigError(`MAILROOM_OIDC_ISSUER must be the provider's issuer URL, got "${issuer}"`)
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new ConfigError(`MAILROOM_OIDC_ISSUER must be https:// (http:// on loopback only), got "${issuer}"`)
  if (clientId === undefined) throw new ConfigError('MAILROOM_OIDC_ISSUER needs MAILROOM_OIDC_CLIENT_ID')
  const redirectUrl = setting(env, 'MAILROOM_OIDC_REDIRECT_URL')
  if (redirectUrl !== undefined && !/^https?:\/\/[^/]+\/rest\/authenticate\/oidc\/callback$/.test(redirectUrl))
    throw new ConfigError(
      `MAILROOM_OIDC_REDIRECT_URL must be the server's https://host/rest/authenticate/oidc/callback as users reach it, got "${redirectUrl}"`,
    )
  const timeoutMs = setting(env, 'MAILROOM_OIDC_TIMEOUT_MS')
  const optional = {
    clientSecret: setting(env, 'MAILROOM_OIDC_CLIENT_SECRET'),
    audience: setting(env, 'MAILROOM_OIDC_AUDIENCE'),
    loginClaim: setting(env, 'MAILROOM_OIDC_LOGIN_CLAIM'),
    redirectUrl,
    providerName: setting(env, 'MAILROOM_OIDC_PROVIDER_NAME'),
    timeoutMs,
  }
  return {
    issuer,
    clientId,
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  }
}

/** The mapping file of `mailroom user sync` when --mapping does not name one (MAILROOM_LDAP_SYNC_MAPPING). */
export function syncMappingFile(env: Env): string | undefined {
  return setting(env, 'MAILROOM_LDAP_SYNC_MAPPING')
}
