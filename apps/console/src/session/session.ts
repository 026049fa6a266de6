import { createClient, MailroomApiError, type MailroomClient } from '@mailroom/sdk'

/** A signed-in user: the client that carries the bearer token, and what refreshes it. */
export interface Session {
  readonly login: string
  readonly client: MailroomClient
}

interface StoredSession {
  readonly login: string
  readonly token: string
  readonly refreshToken: string
}

const STORAGE_KEY = 'mailroom.session'
/** Bearer tokens live 30 minutes: renew well before. */
const REFRESH_EVERY_MS = 20 * 60 * 1000
/** The digital safe reads its token from this cookie; a script cannot send Cookie itself (runtime contract). */
const SERVICE_AUTH_COOKIE = 'SERVICE-AUTH'

/** The server the console talks to: the page's <meta name="mailroom-server">, else the page's origin. */
export function serverUrl(): string {
  const configured = document.querySelector<HTMLMetaElement>('meta[name="mailroom-server"]')?.content.trim()
  return configured || window.location.origin
}

function newClient(token?: string): MailroomClient {
  return createClient({ baseUrl: serverUrl(), ...(token ? { auth: { token } } : {}), retries: 1 })
}

/** The cookie of the journal read, for the console's origin only (same-origin deployments). */
function setServiceAuthCookie(token: string | null): void {
  const path = new URL('digitalSafe/', `${serverUrl()}/`).pathname
  const secure = window.location.protocol === 'https:' ? '; Secure' : ''
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from some browsers the console supports
  document.cookie =
    token === null
      ? `${SERVICE_AUTH_COOKIE}=; Path=${path}; Max-Age=0; SameSite=Strict${secure}`
      : `${SERVICE_AUTH_COOKIE}=${encodeURIComponent(token)}; Path=${path}; SameSite=Strict${secure}`
}

/**
 * Keeps the session of one browser tab: tokens in sessionStorage (gone with the tab), renewed with the
 * refresh token every 20 minutes and after a 401; signing out forgets them.
 */
export class SessionKeeper {
  #stored: StoredSession | null = null
  #client: MailroomClient | null = null
  #timer: ReturnType<typeof setInterval> | undefined
  readonly #onChange: (session: Session | null, expired: boolean) => void

  constructor(onChange: (session: Session | null, expired: boolean) => void) {
    this.#onChange = onChange
  }

  /**
   * The session kept in this tab, if any; or the one the identity provider's sign-in just handed over in
   * the page's fragment (`#signed-in&login=…&token=…&refreshToken=…`), taken out of the address bar and the
   * history at once.
   */
  restore(): Session | null {
    const handed = window.location.hash.startsWith('#signed-in&')
      ? new URLSearchParams(window.location.hash.slice('#signed-in&'.length))
      : null
    if (handed) {
      history.replaceState(null, '', window.location.pathname + window.location.search)
      const [login, token, refreshToken] = ['login', 'token', 'refreshToken'].map((name) => handed.get(name))
      if (login && token && refreshToken) {
        this.#start({ login, token, refreshToken })
        return this.current()
      }
    }
    try {
      const raw = sessionStorage.getItem(STORAGE_KEY)
      if (raw) this.#start(JSON.parse(raw) as StoredSession)
    } catch {
      sessionStorage.removeItem(STORAGE_KEY)
    }
    return this.current()
  }

  current(): Session | null {
    return this.#stored && this.#client ? { login: this.#stored.login, client: this.#client } : null
  }

  /** POST /rest/authenticate; rejects with the server's message on wrong credentials. */
  async signIn(login: string, password: string): Promise<Session> {
    const tokens = await newClient().authenticate(login, password)
    this.#start({ login, token: tokens.token, refreshToken: tokens.refreshToken })
    const session = this.current()!
    this.#onChange(session, false)
    return session
  }

  signOut(expired = false): void {
    clearInterval(this.#timer)
    this.#stored = null
    this.#client = null
    sessionStorage.removeItem(STORAGE_KEY)
    setServiceAuthCookie(null)
    this.#onChange(null, expired)
  }

  /** Exchanges the refresh token for a new bearer token; signs out when that fails. */
  async refresh(): Promise<boolean> {
    const stored = this.#stored
    if (!stored) return false
    try {
      const token = await newClient().refreshToken(stored.refreshToken)
      this.#start({ ...stored, token })
      return true
    } catch (error) {
      if (error instanceof MailroomApiError) this.signOut(true)
      return false
    }
  }

  /** Runs a call; after a 401 renews the token once and runs it again. */
  async call<T>(run: (client: MailroomClient) => Promise<T>): Promise<T> {
    const client = this.#client
    if (!client) throw new MailroomApiError(401, 'Authentication Failed', null)
    try {
      return await run(client)
    } catch (error) {
      if (error instanceof MailroomApiError && error.status === 401 && (await this.refresh())) return run(this.#client!)
      throw error
    }
  }

  /**
   * Sets the SERVICE-AUTH cookie to this tab's token right before a journal read: the cookie is shared by
   * every tab of the origin, and another tab may have signed in as someone else since.
   */
  armServiceAuth(): void {
    if (this.#stored) setServiceAuthCookie(this.#stored.token)
  }

  #start(stored: StoredSession): void {
    this.#stored = stored
    if (this.#client) this.#client.useToken(stored.token)
    else this.#client = newClient(stored.token)
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(stored))
    setServiceAuthCookie(stored.token)
    clearInterval(this.#timer)
    this.#timer = setInterval(() => void this.refresh(), REFRESH_EVERY_MS)
  }
}

/** The identity provider the server offers for signing in, if any (GET /rest/authenticate/oidc). */
export interface ProviderSignIn {
  readonly providerName: string
  /** Where the browser goes to sign in there (a full page navigation). */
  readonly url: string
}

export async function providerSignIn(): Promise<ProviderSignIn | null> {
  try {
    const response = await fetch(`${serverUrl()}/rest/authenticate/oidc`, { headers: { accept: 'application/json' } })
    if (!response.ok) return null
    const offer = (await response.json()) as { providerName?: unknown; signInPath?: unknown }
    if (typeof offer.providerName !== 'string' || typeof offer.signInPath !== 'string') return null
    return { providerName: offer.providerName, url: `${serverUrl()}${offer.signInPath}` }
  } catch {
    return null
  }
}

/** The message of a sign-in through the identity provider that failed (`#sign-in-error=…`), taken out of the address bar. */
export function providerSignInError(): string | null {
  if (!window.location.hash.startsWith('#sign-in-error=')) return null
  const message = decodeURIComponent(window.location.hash.slice('#sign-in-error='.length))
  history.replaceState(null, '', window.location.pathname + window.location.search)
  return message
}
