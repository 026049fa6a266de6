import { ERROR_CATALOGUE } from './catalogue/index.js'
import type { ErrorKind } from './error-definition.js'

type Catalogue = typeof ERROR_CATALOGUE

/** Every error code Mailroom can produce. */
export type ErrorCode = keyof Catalogue

/** Arguments a code's message template needs (none for a fixed message). */
export type ErrorArgs<C extends ErrorCode> = Catalogue[C]['message'] extends (args: infer A) => string ? [args: A] : []

/**
 * A failure the domain expects and describes: a code from the catalogue, its kind and its exact message.
 * Adapters turn it into a response; anything that is not a DomainError is an internal error.
 */
export class DomainError extends Error {
  readonly code: ErrorCode
  readonly kind: ErrorKind
  /** Extra machine-readable facts (never shown to callers unless an adapter chooses to). */
  readonly details: Readonly<Record<string, unknown>> | undefined

  constructor(
    code: ErrorCode,
    message: string,
    kind: ErrorKind,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'DomainError'
    this.code = code
    this.kind = kind
    this.details = options?.details
  }
}

/** Builds the DomainError of a catalogue code, rendering its message. */
export function domainError<C extends ErrorCode>(code: C, ...args: ErrorArgs<C>): DomainError {
  const definition = ERROR_CATALOGUE[code]
  const template = definition.message as string | ((a: unknown) => string)
  const message = typeof template === 'function' ? template(args[0]) : template
  return new DomainError(code, message, definition.kind)
}

/** Throws the DomainError of a catalogue code. */
export function fail<C extends ErrorCode>(code: C, ...args: ErrorArgs<C>): never {
  throw domainError(code, ...args)
}

/** The message a code renders to, for tests and documentation. */
export function errorMessage<C extends ErrorCode>(code: C, ...args: ErrorArgs<C>): string {
  return domainError(code, ...args).message
}

/** True when `value` is a DomainError (also across package copies). */
export function isDomainError(value: unknown): value is DomainError {
  return (
    value instanceof DomainError ||
    (value instanceof Error && value.name === 'DomainError' && 'code' in value && 'kind' in value)
  )
}
