/**
 * What kind of failure an error is. The HTTP adapter maps kinds to status codes in one table;
 * the core never speaks HTTP.
 */
export type ErrorKind =
  | 'bad-request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'payload-too-large'
  | 'too-many-requests'
  | 'request-timeout'
  | 'timeout'
  | 'unavailable'
  | 'not-implemented'
  | 'internal'

/** One entry of the error catalogue: its kind and its exact message (a template when it has arguments). */
export interface ErrorDefinition {
  readonly kind: ErrorKind
  readonly message: string | ((args: any) => string)
}

/** Helper that keeps literal types of a catalogue section while checking its shape. */
export function defineErrors<const T extends Record<string, ErrorDefinition>>(errors: T): T {
  return errors
}
