import type { ExtractedText, ExtractionInput, TextExtractor } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestMailroom,
  TEST_SECRET,
  type TestMailroom,
  testDatabaseKind,
} from '../../../testing/src/databases/test-database.js'
import { createMailroom } from '../../../testing/src/storage-test-kit.js'

/** Files in the queue: enough for three servers to interleave, few enough for a test (bench/ runs 1,000). */
const FILES = 90

/** An extractor that counts the files it is given per text and takes a few milliseconds each. */
class CountingExtractor implements TextExtractor {
  readonly calls = new Map<string, number>()
  hangAfter = Number.POSITIVE_INFINITY
  /** The files it was extracting when it "died" (one per worker that reached the limit). */
  readonly hungOn = new Set<string>()

  constructor(private readonly all: Map<string, number>) {}

  async extract(input: ExtractionInput): Promise<ExtractedText> {
    const text = new TextDecoder().decode(input.bytes)
    this.calls.set(text, (this.calls.get(text) ?? 0) + 1)
    this.all.set(text, (this.all.get(text) ?? 0) + 1)
    if (this.calls.size > this.hangAfter) {
      // A server that dies mid-extraction: this promise never settles, its lease is never renewed again.
      this.hungOn.add(text)
      return new Promise<never>(() => {})
    }
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 15))
    return { text, method: 'plain', ocrPages: 0 }
  }
}

describe.runIf(testDatabaseKind() === 'postgres')('three servers on one database', () => {
  let t: TestMailroom
  const texts: string[] = []

  beforeAll(async () => {
    t = await createTestMailroom({ fulltext: { workers: 0 } })
    const cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
    for (let i = 0; i < FILES; i++) {
      const text = `courrier numéro ${i}`
      texts.push(text)
      await t.mailroom.records.create(cchaplin, {
        modelId: 1,
        status: 'NEW',
        format: 'txt',
        encodedFile: Buffer.from(text).toString('base64'),
      })
    }
  }, 120_000)
  afterAll(async () => t?.cleanup())

  it('drain the queue with each file extracted once; one killed midway loses nothing', async () => {
    const all = new Map<string, number>()
    const extractors = [new CountingExtractor(all), new CountingExtractor(all), new CountingExtractor(all)]
    extractors[2]!.hangAfter = 10
    const servers = await Promise.all(
      extractors.map((extractor, index) =>
        createMailroom({
          database: t.database.target,
          ...t.storeOptions,
          secret: TEST_SECRET,
          fulltext: { workers: 2, pollMs: 20, leaseMs: 600, extractor, serverName: `server-${index}` },
        }),
      ),
    )
    const [, , doomed] = servers
    try {
      // Kill the third server once it hangs: its pool closes under it, as a crashed process's connections do.
      while (extractors[2]!.hungOn.size === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      await doomed!.database.close()
      const deadline = Date.now() + 60_000
      for (;;) {
        const status = await t.mailroom.fulltext.status()
        if (status.indexed === FILES && status.pending === 0 && status.running === 0) break
        if (Date.now() > deadline) throw new Error(`queue not drained: ${JSON.stringify(status)}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      expect(await t.mailroom.fulltext.status()).toMatchObject({ failed: 0, indexed: FILES })
      // Every file was extracted once, but for the files the dead server held, taken over after their lease.
      const hung = extractors[2]!.hungOn
      for (const text of texts) expect(all.get(text), text).toBe(hung.has(text) ? 2 : 1)
      // Each server did a share of the work.
      for (const extractor of extractors) expect(extractor.calls.size).toBeGreaterThan(0)
      const rows = await t.mailroom.db.selectFrom('fulltext_texts').select('content').execute()
      expect(rows.map((row) => row.content).sort()).toEqual([...texts].sort())
    } finally {
      await Promise.all(servers.slice(0, 2).map((server) => server.close()))
      await doomed!.fulltext.stop().catch(() => {})
    }
  }, 120_000)
})
