import { type DomainError, domainError, isDomainError } from '@mailroom/core'
import type { Context, Next } from 'koa'
import type { AppState, ErrorBodyRenderer } from '../app-state.js'
import { STATUS_BY_KIND } from '../error-status.js'
import { isPageRequest } from './page-request.js'

const restErrorBody: ErrorBodyRenderer = (_ctx, error) => ({ errors: error.message })

/**
 * Turns every failure into a JSON error response: DomainErrors with their kind's status and exact message,
 * body-parser and http errors into their catalogue equivalents, anything else into a generic 500 whose
 * detail goes to the log only.
 */
export function errorHandler(
  options: { renderers?: readonly (readonly [prefix: string, render: ErrorBodyRenderer])[] } = {},
) {
  return async (ctx: Context & { state: AppState }, next: Next) => {
    try {
      await next()
      if (ctx.status === 404 && ctx.body === undefined) throw domainError('ROUTE_NOT_FOUND')
      if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === 'string'))
        throw domainError('METHOD_NOT_ALLOWED')
    } catch (caught) {
      const error = toDomainError(caught)
      const status = STATUS_BY_KIND[error.kind]
      if (status === 503) ctx.set('Retry-After', '5')
      const retryAfter = error.details?.retryAfterSeconds
      if (typeof retryAfter === 'number') ctx.set('Retry-After', String(retryAfter))
      logAuthenticationRefusal(ctx, error)
      if (status >= 500 && !isDomainError(caught)) ctx.state.log?.error({ err: caught }, 'request failed')
      else if (status >= 500) ctx.state.log?.warn({ code: error.code, err: caught }, error.message)
      const render =
        ctx.state.renderError ??
        options.renderers?.find(([prefix]) => ctx.path.startsWith(prefix))?.[1] ??
        restErrorBody
      ctx.status = status
      ctx.state.errorCode = error.code
      ctx.type = 'application/json'
      ctx.body = render(ctx, error, status)
      if (status === 401 && ctx.path.startsWith('/rest')) ctx.set('WWW-Authenticate', challenge(ctx))
    }
  }
}

/**
 * The 401 challenge: Bearer (RFC 6750) when a bearer token failed, so a browser does not open its login
 * box over a script's expired token, on the token routes, whose login and refresh token travel in the
 * body or query (a Basic challenge there made browsers open their login box over a web page's sign-in
 * form, or fail the request when they could not), and on any request a page's script sent (isPageRequest);
 * Basic otherwise, for the clients that log in with a password.
 */
function challenge(ctx: Context & { state: AppState }): string {
  const scheme = ctx.state.authScheme
  if (scheme === 'bearer') return 'Bearer realm="mailroom", error="invalid_token"'
  if (scheme === 'token' || isPageRequest(ctx)) return 'Bearer realm="mailroom"'
  return 'Basic realm="mailroom", charset="UTF-8"'
}

/**
 * Every refused authentication goes to the log with its login, address and reason (what the auth service
 * put in the error's details; the password never is there), and a lock with its end.
 */
function logAuthenticationRefusal(ctx: Context & { state: AppState }, error: DomainError): void {
  const facts = error.details?.authentication
  if (typeof facts !== 'object' || facts === null) return
  const locked = 'lockedUntil' in facts
  ctx.state.log?.warn(
    { authentication: facts, code: error.code },
    locked ? 'authentication failed: account locked' : 'authentication refused',
  )
}

/** Network errors and SQLSTATE classes that mean "the database is not reachable right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
])

/** True when a failure comes from a lost or refused database connection (so the answer is 503, not 500). */
export function isUnavailable(caught: unknown): boolean {
  if (typeof caught !== 'object' || caught === null) return false
  const { code, message } = caught as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true
  const text = typeof message === 'string' ? message : ''
  if (
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed/i.test(
      text,
    )
  )
    return true
  const errors = (caught as { errors?: unknown }).errors
  return Array.isArray(errors) && errors.some(isUnavailable)
}

/** SQLSTATE 54001 (either engine): the request's value or statement recursed past the database's stack. */
function isTooComplex(caught: unknown): boolean {
  return typeof caught === 'object' && caught !== null && (caught as { code?: unknown }).code === '54001'
}

function toDomainError(caught: unknown): DomainError {
  // A use case may wrap a lost connection in its own internal error: the caller should still hear 503.
  if (isDomainError(caught) && caught.kind === 'internal') {
    if (isUnavailable(caught.cause)) return domainError('SERVICE_UNAVAILABLE')
    if (isDomainError(caught.cause) && caught.cause.kind === 'unavailable') return caught.cause
    if (isTooComplex(caught.cause)) return domainError('STATEMENT_TOO_COMPLEX')
  }
  if (isDomainError(caught)) return caught
  if (isUnavailable(caught)) return domainError('SERVICE_UNAVAILABLE')
  if (isTooComplex(caught)) return domainError('STATEMENT_TOO_COMPLEX')
  const status =
    typeof caught === 'object' && caught !== null
      ? ((caught as { status?: number }).status ?? (caught as { statusCode?: number }).statusCode)
      : undefined
  if (status === 413) return domainError('PAYLOAD_TOO_LARGE')
  if (status === 400) return domainError('MALFORMED_JSON')
  if (status === 404) return domainError('ROUTE_NOT_FOUND')
  if (status === 405) return domainError('METHOD_NOT_ALLOWED')
  return domainError('INTERNAL')
}
