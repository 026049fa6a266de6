/**
 * @module @mailroom/server
 * Configuration, wiring and the `mailroom` command line.
 */

export { runCli } from './cli.js'
export type { ServerConfig } from './config.js'
export { embeddedSecret, loadConfig } from './config.js'
export { ConfigError } from './config-error.js'
export type { RunningServer } from './serve.js'
export { startServer } from './serve.js'
