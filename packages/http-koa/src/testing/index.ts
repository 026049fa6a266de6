/**
 * @module @mailroom/http-koa/testing
 * A Mailroom HTTP server on a loopback port for tests, with the demo data and helper calls.
 */

export type { CallOptions, LoopbackMailroom, LoopbackServer, TestResponse, TestServer } from './test-server.js'
export { DEMO_PASSWORDS, demoAuth, serveMailroomOnLoopback, serveOnLoopback, startTestServer } from './test-server.js'
