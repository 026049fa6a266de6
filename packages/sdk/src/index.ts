/**
 * @module @mailroom/sdk
 * A typed client for Mailroom servers, for browsers and Node (fetch only; core is a type-only dependency).
 */

export type { MailroomAdminClient, OrganisationApplyCallOptions } from './admin-client.js'
export { decodeBase64, encodeBase64 } from './base64.js'
export type {
  BasketAddress,
  BasketListParams,
  Bytes,
  CallOptions,
  ChainVerificationParams,
  ClientAuth,
  ClientOptions,
  ContactCreateParams,
  ContactListParams,
  CriteriaSearchParams,
  HistoryPageParams,
  JournalCallOptions,
  MailroomClient,
  OpenApiJson,
  QueryValues,
  RawContentParams,
  RawOriginalContentParams,
  StreamOption,
  Tokens,
  TransportRequest,
} from './client.js'
export { createClient, Transport } from './client.js'
export { MailroomApiError, MailroomNetworkError, MailroomTimeoutError } from './errors.js'
export type { ReferenceDataClient } from './reference-client.js'
