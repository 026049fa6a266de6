import { isIP } from 'node:net'
import { DomainError, domainError } from '@mailroom/core'
import { Client } from 'ldapts'
import type { LdapDirectorySettings } from './ldap-settings.js'

const DEFAULT_TIMEOUT_MS = 5_000

/** How a connection to the directory is made: the part of the settings every use of it shares. */
export type LdapConnectionSettings = Pick<
  LdapDirectorySettings,
  'url' | 'startTls' | 'ca' | 'checkCertificate' | 'timeoutMs'
>

/** Opens connections to the directory, encrypted as the settings say (LDAPS, or StartTLS before anything is sent). */
export function ldapConnector(settings: LdapConnectionSettings): () => Promise<Client> {
  const tls = {
    ...(settings.ca === undefined ? {} : { ca: settings.ca }),
    rejectUnauthorized: settings.checkCertificate !== false,
  }
  const timeout = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const startTls = settings.url.startsWith('ldap://') && settings.startTls !== false
  // ldapts takes TLS options at construction as "connect with TLS": an ldap:// connection gets them at StartTLS,
  // with the host name its certificate must carry.
  const host = new URL(settings.url).hostname.replace(/^\[|\]$/g, '')
  const upgrade = { ...tls, host, ...(isIP(host) ? {} : { servername: host }) }
  const connection = startTls || settings.url.startsWith('ldap://') ? {} : { tlsOptions: tls }
  return async () => {
    const client = new Client({ url: settings.url, timeout, connectTimeout: timeout, ...connection })
    if (startTls) {
      try {
        await unavailableUnless(client.startTLS(upgrade), 'StartTLS')
      } catch (error) {
        await client.unbind().catch(() => undefined)
        throw error
      }
    }
    return client
  }
}

/** The operation's result; any failure of it (network, TLS, refusal) means the directory cannot answer now. */
export async function unavailableUnless<T>(operation: Promise<T>, what: string): Promise<T> {
  try {
    return await operation
  } catch (error) {
    unavailable(what, error)
  }
}

/** Throws DIRECTORY_UNAVAILABLE, with what failed and why for the log. */
export function unavailable(what: string, error: unknown): never {
  const { code, message, kind } = domainError('DIRECTORY_UNAVAILABLE')
  const reason = error instanceof Error ? error.message : String(error)
  throw new DomainError(code, message, kind, { cause: error, details: { directory: `${what}: ${reason}` } })
}
