/**
 * @module @mailroom/http-koa/testing
 * A Mailroom HTTP server on a loopback port for tests, with the demo data and helper calls.
 */
export { DEMO_PASSWORDS, demoAuth, startTestServer } from './test-server.js'
export type { CallOptions, TestResponse, TestServer } from './test-server.js'
