import { defineErrors } from '../error-definition.js'

/** Authentication and privilege errors (runtime-contract.md, reference §8). */
export const AUTH_ERRORS = defineErrors({
  AUTHENTICATION_FAILED: { kind: 'unauthenticated', message: 'Authentication Failed' },
  ACCOUNT_LOCKED: { kind: 'unauthenticated', message: 'Account Locked' },
  ADDRESS_THROTTLED: {
    kind: 'too-many-requests',
    message: 'Too many failed authentications from this address, try again later',
  },
  PASSWORD_CHECKS_BUSY: {
    kind: 'too-many-requests',
    message: 'Too many password checks from this address at once, try again later',
  },
  AUTHENTICATE_BAD_REQUEST: { kind: 'bad-request', message: 'Bad Request' },
  REFRESH_TOKEN_EMPTY: { kind: 'bad-request', message: 'Refresh Token is empty' },
  SERVICE_FORBIDDEN: { kind: 'forbidden', message: 'Service forbidden' },
  /**
   * A directory user's password could not be checked: the directory did not answer, refused the TLS
   * handshake or the service account. Never a 401, which would tell the user the password is wrong.
   */
  /** The OpenID Connect provider's keys or endpoints could not be reached: a 503, never a 401. */
  IDENTITY_PROVIDER_UNAVAILABLE: {
    kind: 'unavailable',
    message: 'The identity provider that signs this user in cannot be reached, try again later',
  },
  /** The console asked for the provider's sign-in on a server that has none configured for it. */
  IDENTITY_PROVIDER_NOT_CONFIGURED: {
    kind: 'not-found',
    message: 'No identity provider is configured for signing in to the console',
  },
  /** The provider's sign-in came back refused, expired or for a user Mailroom does not sign in through it. */
  IDENTITY_PROVIDER_SIGN_IN_FAILED: {
    kind: 'unauthenticated',
    message: 'Sign-in through the identity provider failed',
  },
  DIRECTORY_UNAVAILABLE: {
    kind: 'unavailable',
    message: 'The directory that checks this password cannot be reached, try again later',
  },
  DIRECTORY_SEARCH_UNAVAILABLE: {
    kind: 'unavailable',
    message: 'The directory cannot be searched now, nothing was changed: try again later',
  },
})
