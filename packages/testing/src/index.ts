/**
 * @module @mailroom/testing
 * Shared test fixtures of the Mailroom workspace (private, no workspace dependency): sample files and
 * hostile inputs. Databases come from `@mailroom/storage/testing`, servers from `@mailroom/http-koa/testing`.
 */
export {}
