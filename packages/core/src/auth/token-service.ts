import type { Actor } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import type { Credentials } from './credentials.js'
import type { Clock, IdGenerator, TokenClaims, TokenSigner, UserCredentials, UserRepository } from './ports.js'

/** Lifetimes of the tokens (AuthSettings' fields of the same names). */
export interface TokenSettings {
  readonly accessTokenSeconds: number
  readonly refreshTokenSeconds: number
  readonly refreshTokensKept: number
}

/** What issuing and checking tokens needs. */
export interface TokenDependencies {
  readonly users: UserRepository
  readonly signer: TokenSigner
  readonly clock: Clock
  readonly ids: IdGenerator
  /** Who a token's user is now (revocation, status, the short-lived user cache). */
  readonly credentials: Credentials
  readonly settings: TokenSettings
}

/** Tokens handed out by POST /rest/authenticate: an access token and the refresh token that renews it. */
export interface SessionTokens {
  readonly token: string
  readonly refreshToken: string
}

/**
 * Access, refresh and service tokens: issued signed with the deployment's secret, checked against the
 * user's current row (a refresh or service token is revoked by forgetting its id). Holds no state.
 */
export class TokenService {
  readonly #deps: TokenDependencies

  constructor(deps: TokenDependencies) {
    this.#deps = deps
  }

  /** Issues an access token and a refresh token to a user who has just logged in. */
  async issueSession(actor: Actor): Promise<SessionTokens> {
    const { signer, ids, users, settings } = this.#deps
    const now = this.#nowSeconds()
    const refreshId = ids.newId()
    await users.addRefreshToken(actor.id, refreshId, settings.refreshTokensKept)
    return {
      token: await this.#accessToken(actor.id),
      refreshToken: signer.sign({
        kind: 'refresh',
        userId: actor.id,
        tokenId: refreshId,
        expiresAt: now + settings.refreshTokenSeconds,
      }),
    }
  }

  /** The actor of an access or service token (Bearer header, SERVICE-AUTH cookie). */
  async authenticate(token: string): Promise<Actor> {
    const claims = this.#deps.signer.verify(token, this.#nowSeconds())
    const user = await this.#claimsUser(claims, ['access', 'service'])
    // An access token's #claimsUser already checked the access version.
    const loaded = await this.#deps.credentials.loadedUser(user.id, { versionChecked: claims?.kind === 'access' })
    return loaded?.actor ?? fail('AUTHENTICATION_FAILED')
  }

  /** A new access token for a valid refresh token. */
  async refresh(refreshToken: string | undefined): Promise<string> {
    if (!refreshToken) fail('REFRESH_TOKEN_EMPTY')
    const user = await this.#claimsUser(this.#deps.signer.verify(refreshToken, this.#nowSeconds()), ['refresh'])
    return this.#accessToken(user.id)
  }

  /** A non-expiring service token for a login, revoking the previous one. */
  async issueServiceToken(login: string): Promise<string> {
    const { signer, ids, users } = this.#deps
    const user = await users.findCredentialsByLogin(login)
    if (!user) fail('AUTHENTICATION_FAILED')
    const tokenId = ids.newId()
    await users.setServiceToken(user.id, tokenId)
    return signer.sign({ kind: 'service', userId: user.id, tokenId })
  }

  /** An access token naming its user as 20.10's client reads it (the loaded user: the cache serves it). */
  async #accessToken(userId: number): Promise<string> {
    const { signer, ids, settings, credentials } = this.#deps
    const loaded = await credentials.loadedUser(userId)
    if (!loaded) fail('AUTHENTICATION_FAILED')
    const { actor } = loaded
    return signer.sign({
      kind: 'access',
      userId,
      tokenId: ids.newId(),
      expiresAt: this.#nowSeconds() + settings.accessTokenSeconds,
      user: {
        firstname: actor.firstname,
        lastname: actor.lastname,
        status: loaded.credentials.status,
        login: actor.login,
      },
    })
  }

  async #claimsUser(claims: TokenClaims | null, kinds: TokenClaims['kind'][]): Promise<UserCredentials> {
    if (!claims || !kinds.includes(claims.kind)) fail('AUTHENTICATION_FAILED')
    const { credentials, users } = this.#deps
    // Refresh and service tokens are checked against fresh rows: revocation must take effect at once.
    const user =
      claims.kind === 'access'
        ? ((await credentials.loadedUser(claims.userId))?.credentials ?? null)
        : await users.findCredentialsById(claims.userId)
    if (!credentials.usable(user)) fail('AUTHENTICATION_FAILED')
    if (claims.kind === 'service' && user.serviceTokenId !== claims.tokenId) fail('AUTHENTICATION_FAILED')
    if (claims.kind === 'refresh' && !user.refreshTokenIds.includes(claims.tokenId)) fail('AUTHENTICATION_FAILED')
    return user
  }

  #nowSeconds(): number {
    return Math.floor(this.#deps.clock.now().getTime() / 1000)
  }
}
