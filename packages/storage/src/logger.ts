/** The structural logger storage writes to (pino satisfies it; storage does not depend on pino). */
export interface Logger {
  info(object: object, message?: string): void
  warn(object: object, message?: string): void
  error(object: object, message?: string): void
}

/** A logger that drops everything. */
export const SILENT_LOGGER: Logger = { info: () => {}, warn: () => {}, error: () => {} }
