/**
 * @module @mailroom/server
 * Configuration, wiring and the `mailroom` command line.
 */

export { runCli } from './cli.js'
export type { ServerConfig } from './config.js'
export { ConfigError, embeddedSecret, loadConfig } from './config.js'
export type { RunningServer } from './serve.js'
export { startServer } from './serve.js'
