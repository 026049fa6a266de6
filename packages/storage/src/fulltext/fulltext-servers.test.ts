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

/**
 * An extractor that counts the files it is given per text. `gate`: each extraction waits for it (the live
 * servers hold their first jobs until the doomed one has died). `dieAfter`: once more files than that were
 * given to it, it "dies": every extraction not yet returned, and every later one, never settles.
 */
class CountingExtractor implements TextExtractor {
  readonly calls = new Map<string, number>()
  dieAfter = Number.POSITIVE_INFINITY
  /** The files it was extracting when it died (one per worker). */
  readonly hungOn = new Set<string>()
  #dead = false

  constructor(
    private readonly all: Map<string, number>,
    private readonly gate: Promise<void> = Promise.resolve(),
  ) {}

  async extract(input: ExtractionInput): Promise<ExtractedText> {
    const text = new TextDecoder().decode(input.bytes)
    this.calls.set(text, (this.calls.get(text) ?? 0) + 1)
    this.all.set(text, (this.all.get(text) ?? 0) + 1)
    if (this.calls.size > this.dieAfter) this.#dead = true
    await this.gate
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 5))
    if (this.#dead) {
      // A server that dies mid-extraction: this promise never settles, its lease is never renewed again.
      this.hungOn.add(text)
      return new Promise<never>(() => {})
    }
    return { text, method: 'plain', ocrPages: 0 }
  }
}

/** A lease far longer than the test: no live server's job can be taken over, however loaded the machine. */
const LEASE_MS = 600_000

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
    let open!: () => void
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    const extractors = [new CountingExtractor(all, gate), new CountingExtractor(all, gate), new CountingExtractor(all)]
    const doomedExtractor = extractors[2]!
    doomedExtractor.dieAfter = 10
    const servers = await Promise.all(
      extractors.map((extractor, index) =>
        createMailroom({
          database: t.database.target,
          ...t.storeOptions,
          secret: TEST_SECRET,
          fulltext: { workers: 2, pollMs: 20, leaseMs: LEASE_MS, extractor, serverName: `server-${index}` },
        }),
      ),
    )
    const [, , doomed] = servers
    const wait = async (what: string, done: () => boolean | Promise<boolean>) => {
      // Guards against hanging only: every step below happens whatever the machine's speed.
      const deadline = Date.now() + 90_000
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`still waiting: ${what}`)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    }
    try {
      // The two live servers hold a job per worker at the gate; the third extracts until it dies holding two.
      await wait('the third server dies', () => doomedExtractor.hungOn.size === 2)
      // Its pool closes under it, as a crashed process's connections do: no more renewals.
      await doomed!.database.close()
      // Its leases run out (set back in the database rather than waited for: the test depends on no clock).
      const expired = await t.mailroom.db
        .updateTable('fulltext_jobs')
        .set({ lease_until: new Date(Date.now() - 60_000) })
        .where('leased_by', '=', 'server-2')
        .where('state', '=', 'running')
        .returning('res_id')
        .execute()
      expect(expired).toHaveLength(2)
      open()
      await wait('the queue drained', async () => {
        const status = await t.mailroom.fulltext.status()
        return status.indexed === FILES && status.pending === 0 && status.running === 0
      })
      expect(await t.mailroom.fulltext.status()).toMatchObject({ failed: 0, indexed: FILES })
      // Every file was extracted once, but for the two the dead server held, taken over once its lease ran out.
      const hung = doomedExtractor.hungOn
      for (const text of texts) expect(all.get(text), text).toBe(hung.has(text) ? 2 : 1)
      // Each server did a share of the work; the dead one's finished files stayed done.
      for (const extractor of extractors) expect(extractor.calls.size).toBeGreaterThan(0)
      const rows = await t.mailroom.db.selectFrom('fulltext_texts').select('content').execute()
      expect(rows.map((row) => row.content).sort()).toEqual([...texts].sort())
      const takenOver = await t.mailroom.db
        .selectFrom('fulltext_jobs')
        .select(['attempts', 'leased_by', 'state'])
        .where(
          'res_id',
          'in',
          expired.map((row) => row.res_id),
        )
        .execute()
      for (const job of takenOver)
        expect(job).toMatchObject({ attempts: 2, state: 'done', leased_by: expect.stringMatching(/^server-[01]$/) })
    } finally {
      open()
      await Promise.all(servers.slice(0, 2).map((server) => server.close()))
      await doomed!.fulltext.stop().catch(() => {})
    }
  }, 120_000)
})
