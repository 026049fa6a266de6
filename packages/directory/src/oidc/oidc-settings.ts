/** How Mailroom reaches the organisation's OpenID Connect provider (docs/directory-sign-in.md; MAILROOM_OIDC_*). */
export interface OidcSettings {
  /** The provider's issuer (`https://sso.mairie.example/realms/mairie`); its discovery document is read from it. */
  readonly issuer: string
  /** Mailroom's client at the provider (the console's sign-in). */
  readonly clientId: string
  /** The client's secret (a confidential client); absent: a public client, PKCE only. */
  readonly clientSecret?: string
  /** The `aud` the provider's access tokens carry for Mailroom (default: the client id). */
  readonly audience?: string
  /** The claim that holds the Mailroom login (default `preferred_username`). */
  readonly loginClaim?: string
  /** Where the provider sends users back: Mailroom's `/console/oidc/callback` as users reach it; absent: no console sign-in. */
  readonly redirectUrl?: string
  /** The provider's name on the console's sign-in button (default "OpenID Connect"). */
  readonly providerName?: string
  /** Milliseconds the provider has to answer (default 5,000). */
  readonly timeoutMs?: number
}
