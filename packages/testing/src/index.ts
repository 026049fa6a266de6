/**
 * @module @mailroom/testing
 * Shared test fixtures of the Mailroom workspace (private): databases and Mailroom instances come from
 * `@mailroom/storage/testing`; HTTP servers, sample files and hostile inputs live here.
 */
export * from '@mailroom/storage/testing'
