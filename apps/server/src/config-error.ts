/** A setting that makes start-up impossible; the CLI prints its message and exits 1. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError'
}
