/**
 * @module @mailroom/storage/testing
 * Test fixtures for Mailroom and for services that embed it: isolated databases on PGlite or PostgreSQL
 * and a ready Mailroom with the demo dataset.
 */
export { TEST_PASSWORD_HASHER, TEST_SECRET, createTestDatabase, createTestMailroom, postgresAdminUrl, testDatabaseKind } from './test-database.js'
export type { TestDatabase, TestDatabaseKind, TestMailroom } from './test-database.js'
export { patternBytes } from './pattern-bytes.js'
