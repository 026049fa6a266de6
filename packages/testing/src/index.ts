/**
 * @module @mailroom/testing
 * Shared test helpers and fixtures of the Mailroom workspace (private, never published): isolated databases
 * on PGlite or PostgreSQL and a ready Mailroom with the demo dataset, records and datasets inserted for
 * tests, sample and office files, hostile inputs, fast-check arbitraries, and a Mailroom served over HTTP on a
 * loopback port (`startTestServer`).
 *
 * Packages that this one depends on (core, storage, documents, mailroom, http-koa) reach these files by relative
 * path from their tests, never through a dependency, so the package graph keeps no cycle. The clause arbitraries
 * and `test-core-internals.ts` read core's sources (the clause language's tables, parsers that only tests call
 * outside a use case): tests reach them by path, and they are left out of this package's build.
 */

export {
  badCriteriaBodyArbitrary,
  criteriaBodyArbitrary,
  criterionArbitrary,
  criterionTextArbitrary,
} from './arbitraries/criteria-arbitrary.js'
export type { ChromiumOptions, TestBrowser } from './browser/chromium.js'
export { CHROMIUM_PATH, chromiumMissing, launchChromium } from './browser/chromium.js'
export type { TestDatabase, TestDatabaseKind, TestMailroom, TestStoreKind } from './databases/test-database.js'
export {
  copyDemoDatabaseTo,
  createTestDatabase,
  createTestMailroom,
  postgresAdminUrl,
  TEST_PASSWORD_HASHER,
  TEST_SECRET,
  testDatabaseKind,
  testStoreKind,
} from './databases/test-database.js'
export type { DirectoryGroup, DirectoryPerson, TestDirectory } from './directory/slapd-server.js'
export { SLAPD_PATH, slapdMissing, startTestDirectory } from './directory/slapd-server.js'
export { rememberEnv } from './environment/remembered-env.js'
export type { TestRecord, TestRecordInput } from './fixtures/insert-test-record.js'
export {
  insertTestAdr,
  insertTestRecord,
  putStoredFile,
  putZeroFile,
  readStoredFile,
  storedKey,
  storedKeys,
} from './fixtures/insert-test-record.js'
export { addModelCustomField } from './fixtures/model-custom-field.js'
export { patternBytes } from './fixtures/pattern-bytes.js'
export { NO_REFERENCES } from './fixtures/reference-queries.js'
export type { SeededRecord } from './fixtures/search-test-dataset.js'
export { DEMO_USERS, naiveVisible, seedSearchDataset } from './fixtures/search-test-dataset.js'
export type { TestBasket } from './fixtures/seed-baskets.js'
export { giveBasketsToGroupMembers, seedBaskets } from './fixtures/seed-baskets.js'
export { MemoryFullTextIndex } from './fulltext/memory-fulltext-index.js'
export { providerTokens } from './identity/code-flow.js'
export type { IdentityProviderOptions, TestIdentityProvider } from './identity/oidc-provider-server.js'
export { startTestIdentityProvider } from './identity/oidc-provider-server.js'
export type { MaarchIdMapping } from './maarch-answers/id-mapping.js'
export { replayWithMailroomIds, withMailroomIds } from './maarch-answers/id-mapping.js'
export type { MaarchExchange, MaarchLetterRows } from './maarch-answers/maarch-exchanges.js'
export {
  maarchCredentials,
  maarchExchange,
  maarchRequestPath,
  readMaarchBasketIds,
  readMaarchExchanges,
} from './maarch-answers/maarch-exchanges.js'
export { replayMaarchRequest } from './maarch-answers/replay.js'
export type { ComparedResponse, ShapeOptions } from './maarch-answers/same-shape.js'
export { answerDifferences, expectSameShape, jsonType, shapeDifferences } from './maarch-answers/same-shape.js'
export { insertStandInRecord } from './maarch-answers/stand-in-records.js'
export type { WebClientJourney } from './maarch-answers/web-client-journey.js'
export { WEB_CLIENT_JOURNEY, webClientJourney } from './maarch-answers/web-client-journey.js'
export { findImportCycles, importGraph, relativeSpecifiers } from './module-graph/import-graph.js'
export type { GatewaySettings } from './object-store/ceph-gateway.js'
export { cephGateway, cephGatewayUser, testBucketUrl, testS3Store } from './object-store/ceph-gateway.js'
export type { StallingProxy } from './object-store/stalling-proxy.js'
export { startStallingProxy } from './object-store/stalling-proxy.js'
export { recordPerimeterOver } from './servers/record-perimeter.js'
export type {
  CallOptions,
  LoopbackMailroom,
  LoopbackServer,
  TestResponse,
  TestServer,
} from './servers/test-server.js'
export {
  demoAuth,
  freeLoopbackPort,
  serveMailroomOnLoopback,
  serveOnLoopback,
  startTestServer,
} from './servers/test-server.js'
