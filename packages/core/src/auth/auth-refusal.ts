import { DomainError, domainError } from '../errors/domain-error.js'

/** The codes a password attempt is refused with. */
export type AuthRefusalCode = 'AUTHENTICATION_FAILED' | 'ACCOUNT_LOCKED' | 'ADDRESS_THROTTLED' | 'PASSWORD_CHECKS_BUSY'

/** What the log needs of a refusal (never the password), and how long waiting helps. */
export interface AuthRefusalFacts {
  readonly login: string
  readonly address: string
  readonly reason: string
  /** When this failure set the account lock. */
  readonly lockedUntil?: Date
  readonly retryAfterSeconds?: number
}

/**
 * Refuses a password attempt with a DomainError whose `details.authentication` says login, address and
 * reason for the log, and `details.retryAfterSeconds` when waiting helps (the adapter's `Retry-After`).
 */
export function refuseAttempt(code: AuthRefusalCode, facts: AuthRefusalFacts): never {
  const { retryAfterSeconds, ...authentication } = facts
  const error = domainError(code)
  throw new DomainError(error.code, error.message, error.kind, {
    details: { authentication, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) },
  })
}
