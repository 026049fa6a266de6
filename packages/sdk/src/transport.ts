import { MailroomApiError, MailroomNetworkError, MailroomTimeoutError } from './errors.js'

/**
 * Bytes the client returns: backed by a plain ArrayBuffer (never a SharedArrayBuffer), so they go into
 * `new Blob([bytes])`, `crypto.subtle.digest` or `Response` without a cast.
 */
export type Bytes = Uint8Array<ArrayBuffer>

/** How the client authenticates: Basic credentials, a bearer token, or none. */
export type ClientAuth = { readonly login: string; readonly password: string } | { readonly token: string } | null

/** Client settings. */
export interface ClientOptions {
  /** Server root, e.g. `http://127.0.0.1:8080` (with or without a trailing slash). */
  readonly baseUrl: string
  readonly auth?: ClientAuth
  /** Per-request timeout in milliseconds (default 30 s): until the whole answer is read, or its headers for streams. */
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

/** Query parameters of a request; undefined values are left out. */
export type QueryValues = Readonly<Record<string, string | number | boolean | undefined>>

/** What one request sends and how it is retried. */
export interface TransportRequest extends CallOptions {
  readonly body?: unknown
  readonly query?: QueryValues
  readonly headers?: Readonly<Record<string, string>>
  /** Retry on network errors and 502/503/504 (default: true for GET only). */
  readonly idempotent?: boolean
  /** Send the client's credentials (default true). */
  readonly auth?: boolean
}

const RETRYABLE = new Set([502, 503, 504])

function basic(login: string, password: string): string {
  const bytes = new TextEncoder().encode(`${login}:${password}`)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return `Basic ${btoa(binary)}`
}

function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)))
}

/** The message of an error answer: `errors` on /rest, `message` in the digital-safe envelope, else the text. */
async function apiError(response: Response): Promise<MailroomApiError> {
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = JSON.parse(text)
  } catch {}
  const fields =
    typeof parsed === 'object' && parsed !== null ? (parsed as { errors?: unknown; message?: unknown }) : {}
  const message =
    typeof fields.errors === 'string'
      ? fields.errors
      : typeof fields.message === 'string'
        ? fields.message
        : text || response.statusText
  return new MailroomApiError(response.status, message, parsed)
}

/** Low-level request plumbing shared by every method: URL, credentials, timeout, abort, retries, errors. */
export class Transport {
  readonly #options: ClientOptions & { readonly timeoutMs: number; readonly retries: number }
  #auth: ClientAuth

  constructor(options: ClientOptions) {
    this.#options = { ...options, timeoutMs: options.timeoutMs ?? 30_000, retries: options.retries ?? 2 }
    this.#auth = options.auth ?? null
  }

  /** The credentials used by later calls. */
  get auth(): ClientAuth {
    return this.#auth
  }

  /** Replaces the credentials used by later calls. */
  setAuth(auth: ClientAuth): void {
    this.#auth = auth
  }

  /** The absolute URL of a path relative to the base URL. */
  url(path: string, query: QueryValues = {}): URL {
    const base = this.#options.baseUrl.endsWith('/') ? this.#options.baseUrl : `${this.#options.baseUrl}/`
    const url = new URL(path.replace(/^\/+/, ''), base)
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value))
    return url
  }

  /**
   * Sends a request and hands a 2xx response to `read`, within the timeout; any other status becomes a
   * MailroomApiError, a failed, timed-out or aborted exchange a MailroomNetworkError. With `stream`, the
   * timeout stops once the headers are in, so a long download is limited by the caller's signal only.
   */
  async request<T>(
    method: string,
    path: string,
    init: TransportRequest,
    read: (response: Response) => Promise<T>,
    stream = false,
  ): Promise<T> {
    const url = this.url(path, init.query)
    const headers: Record<string, string> = { accept: 'application/json', ...init.headers }
    if (init.auth !== false && this.#auth)
      headers.authorization =
        'token' in this.#auth ? `Bearer ${this.#auth.token}` : basic(this.#auth.login, this.#auth.password)
    let body: string | undefined
    if (init.body !== undefined) {
      body = JSON.stringify(init.body)
      headers['content-type'] ??= 'application/json'
    }
    const attempts = (init.idempotent ?? method === 'GET') ? this.#options.retries + 1 : 1
    const timeoutMs = init.timeoutMs ?? this.#options.timeoutMs
    const doFetch = this.#options.fetch ?? globalThis.fetch
    for (let attempt = 1; ; attempt++) {
      const timeout = new AbortController()
      const timer = setTimeout(
        () => timeout.abort(new MailroomTimeoutError(`${method} ${url.pathname} timed out after ${timeoutMs} ms`)),
        timeoutMs,
      )
      const signal = init.signal ? AbortSignal.any([init.signal, timeout.signal]) : timeout.signal
      const failure = (error: unknown) => {
        if (timeout.signal.aborted) return timeout.signal.reason as MailroomTimeoutError
        return new MailroomNetworkError(
          `${method} ${url.pathname} failed: ${(error as Error)?.message ?? String(error)}`,
          { cause: error },
        )
      }
      try {
        let response: Response
        try {
          response = await doFetch(url, { method, headers, signal, ...(body === undefined ? {} : { body }) })
        } catch (error) {
          if (init.signal?.aborted || attempt >= attempts) throw failure(error)
          await backoff(attempt)
          continue
        }
        if (!response.ok) {
          if (RETRYABLE.has(response.status) && attempt < attempts) {
            await response.body?.cancel()
            await backoff(attempt)
            continue
          }
          throw await apiError(response).catch((error: unknown) => {
            throw failure(error)
          })
        }
        if (stream) clearTimeout(timer)
        try {
          return await read(response)
        } catch (error) {
          throw error instanceof MailroomApiError ? error : failure(error)
        }
      } finally {
        clearTimeout(timer)
      }
    }
  }

  /** Sends a request and parses its JSON answer. */
  json<T>(method: string, path: string, init: TransportRequest = {}): Promise<T> {
    return this.request(method, path, init, async (response) => (await response.json()) as T)
  }

  /** Sends a request answered either 204 without a body (null) or with JSON (a route that says more only when it must). */
  jsonOrNull<T>(method: string, path: string, init: TransportRequest = {}): Promise<T | null> {
    return this.request(method, path, init, async (response) => {
      if (response.status !== 204) return (await response.json()) as T
      await response.body?.cancel()
      return null
    })
  }

  /** Sends a request and reads its whole answer as bytes. */
  bytes(method: string, path: string, init: TransportRequest = {}): Promise<Bytes> {
    return this.request(
      method,
      path,
      { ...init, headers: { accept: '*/*', ...init.headers } },
      async (response) => new Uint8Array(await response.arrayBuffer()),
    )
  }

  /** Sends a request and returns its answer as a stream of bytes (read it, or cancel it). */
  stream(method: string, path: string, init: TransportRequest = {}): Promise<ReadableStream<Bytes>> {
    return this.request(
      method,
      path,
      { ...init, headers: { accept: '*/*', ...init.headers } },
      async (response) => response.body ?? new ReadableStream<Bytes>({ start: (controller) => controller.close() }),
      true,
    )
  }

  /** Sends a request whose answer has no body (204). */
  empty(method: string, path: string, init: TransportRequest = {}): Promise<Response> {
    return this.request(method, path, init, async (response) => {
      await response.body?.cancel()
      return response
    })
  }
}
