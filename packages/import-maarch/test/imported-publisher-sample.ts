import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll } from 'vitest'
import { importCollecting } from './import-helpers.js'
import { createPublisherSource } from './publisher-source.js'
import type { SourceDatabase } from './source-database.js'

/**
 * A test server holding the publisher's sample imported (from its database and docservers under `fixtures`), made
 * before the file's tests and dropped after them; the getter answers it once made.
 */
export function importedPublisherSample(fixtures: string): () => TestServer {
  let s: TestServer | undefined
  let source: SourceDatabase | undefined
  beforeAll(async () => {
    source = await createPublisherSource(fixtures)
    s = await startTestServer({ mailroom: { demo: false } })
    await importCollecting(s.mailroom, { from: source.url, docservers: { root: `${fixtures}/docservers` } })
  }, 300_000)
  afterAll(async () => {
    await s?.close()
    await source?.drop()
  })
  return () =>
    s ??
    (() => {
      throw new Error("the publisher's sample is not imported yet")
    })()
}
