import type { Entity } from '@mailroom/core'
import { MailroomApiError, MailroomNetworkError } from './errors.js'

/** How the client authenticates: Basic credentials, a bearer token, or none. */
export type ClientAuth = { readonly login: string; readonly password: string } | { readonly token: string } | null

/** Client settings. */
export interface ClientOptions {
  /** Server root, e.g. `http://127.0.0.1:8080` (with or without a trailing slash). */
  readonly baseUrl: string
  readonly auth?: ClientAuth
  /** Per-request timeout in milliseconds (default 30 s). */
  readonly timeoutMs?: number
  /** Extra attempts for idempotent reads on network errors and 502/503/504 (default 2). */
  readonly retries?: number
  /** A fetch implementation (default: the global one). */
  readonly fetch?: typeof fetch
}

/** Per-call options. */
export interface CallOptions {
  readonly signal?: AbortSignal
  readonly timeoutMs?: number
}

/** Tokens returned by `authenticate`. */
export interface Tokens {
  readonly token: string
  readonly refreshToken: string
}

const RETRYABLE = new Set([502, 503, 504])

function basic(login: string, password: string): string {
  const bytes = new TextEncoder().encode(`${login}:${password}`)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `Basic ${btoa(binary)}`
}

/** Low-level request plumbing shared by every method. */
export class Transport {
  readonly #options: Required<Pick<ClientOptions, 'timeoutMs' | 'retries'>> & ClientOptions
  #auth: ClientAuth

  constructor(options: ClientOptions) {
    this.#options = { timeoutMs: 30_000, retries: 2, ...options }
    this.#auth = options.auth ?? null
  }

  /** Replaces the credentials used by later calls. */
  setAuth(auth: ClientAuth): void {
    this.#auth = auth
  }

  /** Sends a request and returns the raw response when its status is 2xx; throws typed errors otherwise. */
  async send(
    method: string,
    path: string,
    init: { body?: unknown; query?: Record<string, string | number | boolean | undefined>; headers?: Record<string, string>; idempotent?: boolean; auth?: boolean } & CallOptions = {},
  ): Promise<Response> {
    const url = new URL(path.replace(/^\//, ''), this.#options.baseUrl.endsWith('/') ? this.#options.baseUrl : `${this.#options.baseUrl}/`)
    for (const [key, value] of Object.entries(init.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value))
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers }
    if (init.auth !== false && this.#auth) headers.authorization = 'token' in this.#auth ? `Bearer ${this.#auth.token}` : basic(this.#auth.login, this.#auth.password)
    let body: string | undefined
    if (init.body !== undefined) {
      body = JSON.stringify(init.body)
      headers['content-type'] = 'application/json'
    }
    const attempts = init.idempotent ?? method === 'GET' ? this.#options.retries + 1 : 1
    const doFetch = this.#options.fetch ?? globalThis.fetch
    for (let attempt = 1; ; attempt++) {
      const timeout = AbortSignal.timeout(init.timeoutMs ?? this.#options.timeoutMs)
      const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout
      let response: Response
      try {
        response = await doFetch(url, { method, headers, signal, ...(body === undefined ? {} : { body }) })
      } catch (error) {
        if (init.signal?.aborted || attempt >= attempts) throw new MailroomNetworkError(`${method} ${url.pathname} failed: ${(error as Error).message}`, { cause: error })
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)))
        continue
      }
      if (response.ok) return response
      if (RETRYABLE.has(response.status) && attempt < attempts) {
        await response.body?.cancel()
        await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)))
        continue
      }
      const text = await response.text()
      let parsed: unknown = text
      try {
        parsed = JSON.parse(text)
      } catch {}
      const message =
        typeof parsed === 'object' && parsed !== null
          ? String((parsed as { errors?: unknown }).errors ?? (parsed as { message?: unknown }).message ?? response.statusText)
          : text || response.statusText
      throw new MailroomApiError(response.status, message, parsed)
    }
  }

  /** Sends a request and parses its JSON answer. */
  async json<T>(method: string, path: string, init: Parameters<Transport['send']>[2] = {}): Promise<T> {
    const response = await this.send(method, path, init)
    return (await response.json()) as T
  }
}

/** A typed Mailroom client: one method per operation. */
export interface MailroomClient {
  readonly transport: Transport
  /** POST /rest/authenticate: returns the tokens; the client keeps using its own credentials. */
  authenticate(login: string, password: string, options?: CallOptions): Promise<Tokens>
  /** GET /rest/authenticate/token: a new access token from a refresh token. */
  refreshToken(refreshToken: string, options?: CallOptions): Promise<string>
  /** GET /rest/entities/{id}. */
  getEntity(id: string | number, options?: CallOptions): Promise<Entity>
  /** GET /healthz. */
  health(options?: CallOptions): Promise<{ status: string; database: boolean; storage: boolean }>
}

/**
 * Creates a client for a Mailroom server.
 * @example
 * const mailroom = createClient({ baseUrl: 'http://127.0.0.1:8080', auth: { login: 'bbain', password: 'maarch' } })
 * const { entity_label } = await mailroom.getEntity('PJS')
 */
export function createClient(options: ClientOptions): MailroomClient {
  const transport = new Transport(options)
  return {
    transport,
    async authenticate(login, password, call = {}) {
      const response = await transport.send('POST', 'rest/authenticate', { body: { login, password }, auth: false, ...call })
      return { token: response.headers.get('token') ?? '', refreshToken: response.headers.get('refresh-token') ?? '' }
    },
    async refreshToken(refreshToken, call = {}) {
      return (await transport.json<{ token: string }>('GET', 'rest/authenticate/token', { query: { refreshToken }, auth: false, ...call })).token
    },
    async getEntity(id, call = {}) {
      return (await transport.json<{ entity: Entity }>('GET', `rest/entities/${encodeURIComponent(String(id))}`, call)).entity
    },
    health(call = {}) {
      return transport.json('GET', 'healthz', { auth: false, ...call })
    },
  }
}
