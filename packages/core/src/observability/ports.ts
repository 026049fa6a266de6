/**
 * What Mailroom reports while it works, for an operator's metrics. Core, storage and documents call these
 * ports and never know what records them: the server implements them with Prometheus, an embedding
 * service may plug in its own, and where none is given nothing is recorded.
 */

/** One answered HTTP request. `route` is the route's template (`/rest/resources/:resId`), never a raw path. */
export interface HttpRequestObservation {
  readonly route: string
  readonly method: string
  readonly status: number
  readonly seconds: number
}

/** Records answered HTTP requests (the HTTP adapter calls it once per request). */
export interface HttpObserver {
  requestFinished(observation: HttpRequestObservation): void
}

/** How a caller tried to authenticate. */
export type AuthenticationMethod = 'password' | 'token' | 'refresh'

/** Why an authentication was refused before its credentials were checked. */
export type ThrottleScope = 'account' | 'address'

/** Records refused authentications. */
export interface AuthObserver {
  /** Wrong, unknown, expired or revoked credentials. */
  authenticationFailed(method: AuthenticationMethod): void
  /** Refused because the login or the address is locked after too many failures. */
  authenticationThrottled(scope: ThrottleScope): void
}

/** Which way a file is turned into PDF. */
export type ConversionRoute = 'image' | 'text' | 'office'

/** Records conversions to PDF. */
export interface ConversionObserver {
  /** A conversion was asked for (it may wait in a queue); call the returned function once it ends. */
  conversionStarted(route: ConversionRoute): (outcome: 'ok' | 'failed') => void
  /** The warm LibreOffice had to be started again after it died, hung or failed a conversion. */
  libreOfficeRestarted(): void
}

/** Everything Mailroom reports. */
export interface MailroomObserver extends HttpObserver, AuthObserver, ConversionObserver {}

/** Readings taken when metrics are collected (a scrape), rather than counted as things happen. */
export interface OperationalStatistics {
  /** Connections of the PostgreSQL pool; null where the driver has no pool (embedded PGlite, a caller's kysely). */
  readonly databasePool: {
    readonly size: number
    readonly inUse: number
    readonly idle: number
    readonly waiting: number
  } | null
  /** Digital-safe journal events committed but not yet linked into their hash chain, and the age of the oldest. */
  readonly journal: { readonly pendingEvents: number; readonly oldestPendingSeconds: number }
  /** Files the database references (records' files and their versions and renditions), and their total size. */
  readonly documents: { readonly count: number; readonly bytes: number }
  /** The full-text extraction queue: files waiting, being extracted, failed for good; age of the oldest waiting. */
  readonly fulltext: {
    readonly pending: number
    readonly running: number
    readonly failed: number
    readonly oldestPendingSeconds: number
  }
}
