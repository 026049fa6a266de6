/**
 * @module @mailroom/sdk
 * A typed client for Mailroom servers, for browsers and Node (fetch only).
 */
export { createClient, Transport } from './client.js'
export type { CallOptions, ClientAuth, ClientOptions, MailroomClient, Tokens } from './client.js'
export { MailroomApiError, MailroomNetworkError } from './errors.js'
