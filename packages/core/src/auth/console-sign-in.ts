import type { SessionTokens } from './token-service.js'

/**
 * The console's sign-in through the organisation's OpenID Connect provider (authorization code with PKCE):
 * the adapter redirects the browser to `authorizationUrl`, keeps `sealedChecks` in a short-lived HttpOnly
 * cookie, and hands both back at the callback. The checks are sealed (signed, timed) by the service: a
 * cookie of another sign-in, a changed or an old one is refused.
 */
export interface ConsoleSignInService {
  /** The provider's name on the console's sign-in button. */
  readonly providerName: string
  begin(): Promise<{ readonly authorizationUrl: string; readonly sealedChecks: string }>
  /**
   * The session of the user the provider sent back to the callback with `callbackQuery` (the code and state):
   * IDENTITY_PROVIDER_SIGN_IN_FAILED when the provider refused, the checks do not match, or the user does not
   * sign in through the provider.
   */
  complete(callbackQuery: string, sealedChecks: string | undefined): Promise<SessionTokens & { readonly login: string }>
}
