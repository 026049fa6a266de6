/**
 * @module @mailroom/server
 * Configuration, wiring and the `mailroom` command line.
 */
export { ConfigError, embeddedSecret, loadConfig } from './config.js'
export type { ServerConfig } from './config.js'
export { startServer } from './serve.js'
export type { RunningServer } from './serve.js'
export { runCli } from './cli.js'
