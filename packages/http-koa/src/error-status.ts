import type { ErrorKind } from '@mailroom/core'

/** The one table from error kinds to HTTP statuses. */
export const STATUS_BY_KIND: Readonly<Record<ErrorKind, number>> = {
  'bad-request': 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'payload-too-large': 413,
  'too-many-requests': 429,
  'request-timeout': 408,
  timeout: 503,
  unavailable: 503,
  'not-implemented': 501,
  internal: 500,
}
