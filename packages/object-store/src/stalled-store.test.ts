import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { patternBytes } from '../../testing/src/fixtures/pattern-bytes.js'
import { cephGateway, testBucketUrl, testS3Store } from '../../testing/src/object-store/ceph-gateway.js'
import { type StallingProxy, startStallingProxy } from '../../testing/src/object-store/stalling-proxy.js'
import { S3DocumentStore, type S3StoreOptions } from './index.js'

/**
 * A store that hangs (accepts connections, reads, never answers), made by a TCP proxy in front of the Ceph
 * test gateway (skipped with a message where none runs): every call fails within its bounds with the
 * catalogue's 503, never hangs, and leaves no object.
 */
const gateway = cephGateway()
const MiB = 1024 * 1024

/** How long `work` took, and how it ended: its value or the catalogue code it failed with. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; outcome: T | string }> {
  const started = performance.now()
  const outcome = await work().catch((error: { code?: string }) => `failed ${error.code}`)
  return { ms: performance.now() - started, outcome }
}

async function drain(stream: AsyncIterable<Uint8Array>): Promise<{ bytes: number; error?: string }> {
  let bytes = 0
  try {
    for await (const chunk of stream) bytes += chunk.length
    return { bytes }
  } catch (error) {
    return { bytes, error: (error as { code?: string }).code ?? String(error) }
  }
}

describe.skipIf(gateway === null)('an object store that hangs', () => {
  const url = testBucketUrl('stalled')
  let direct: S3DocumentStore
  let proxy: StallingProxy
  const throughProxy = (options: Partial<S3StoreOptions>) =>
    new S3DocumentStore({ ...gateway!, url, endpoint: proxy.endpoint, ...options })
  const keys = async () => {
    const listed: string[] = []
    for await (const document of direct.list()) listed.push(document.key)
    return listed.sort()
  }
  /** The bucket's keys once they are `expected`, or after 10 s: removals a failure started run in the background. */
  const settledKeys = async (expected: string[]) => {
    let listed = await keys()
    for (let waited = 0; listed.join() !== expected.join() && waited < 10_000; waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      listed = await keys()
    }
    return listed
  }

  beforeAll(async () => {
    direct = await testS3Store(gateway!, url)
    proxy = await startStallingProxy(gateway!.endpoint)
  })
  afterEach(() => proxy.release())
  afterAll(async () => {
    await proxy?.close()
    await direct?.close()
  })

  it('fails a call on a silent socket after requestTimeoutMs per attempt (the SDK alone only warns)', async () => {
    const written = await direct.write('bounds', 'txt', Buffer.from('present\n'), new Date())
    const store = throughProxy({ requestTimeoutMs: 500, callTimeoutMs: 90_000, maxAttempts: 2 })
    try {
      proxy.stall()
      const head = await timed(() => store.size(written.key))
      expect(head.outcome).toBe('failed DOCUMENT_STORE_UNREACHABLE')
      // Two attempts of 500 ms of silence, and the backoff between them.
      expect(head.ms).toBeGreaterThanOrEqual(900)
      // Far below the call's cap (90 s): the per-attempt timeout ended it, on a loaded machine too.
      expect(head.ms).toBeLessThan(30_000)
      proxy.release()
      expect(await store.size(written.key)).toBe(8)
    } finally {
      await store.close()
    }
  })

  it('caps a call, all its retries included, at callTimeoutMs', async () => {
    const written = await direct.write('bounds', 'txt', Buffer.from('present\n'), new Date())
    // Alone, three attempts of 60 s of silence would hold each call 3 min.
    const store = throughProxy({ requestTimeoutMs: 60_000, callTimeoutMs: 1_200, maxAttempts: 3 })
    try {
      proxy.stall()
      const calls: (() => Promise<unknown>)[] = [
        () => store.size(written.key),
        () => store.read(written.key),
        () => store.write('bounds', 'txt', Buffer.from('new\n'), new Date()),
      ]
      for (const call of calls) {
        const { ms, outcome } = await timed(call)
        expect(outcome).toBe('failed DOCUMENT_STORE_UNREACHABLE')
        expect(ms).toBeGreaterThanOrEqual(1_100)
        expect(ms).toBeLessThan(30_000)
      }
      const probe = await timed(() => store.acceptsWrites())
      expect(probe.outcome).toBe(false)
      expect(probe.ms).toBeLessThan(30_000)
    } finally {
      await store.close()
    }
  })

  it('fails a read whose body stops in the middle, after the bytes that came, instead of holding it', async () => {
    const bytes = patternBytes(2 * MiB, 7)
    const written = await direct.write('bounds', 'bin', bytes, new Date())
    const store = throughProxy({ requestTimeoutMs: 800, callTimeoutMs: 90_000, maxAttempts: 2 })
    try {
      proxy.stall({ responseBytes: 256 * 1024 })
      const started = performance.now()
      const stream = await store.read(written.key)
      const read = await drain(stream)
      expect(read.error).toBe('DOCUMENT_STORE_UNREACHABLE')
      expect(read.bytes).toBeGreaterThan(0)
      expect(read.bytes).toBeLessThan(bytes.length)
      expect(performance.now() - started).toBeLessThan(30_000)
      proxy.release()
      expect(await drain(await store.read(written.key))).toEqual({ bytes: bytes.length })
    } finally {
      await store.close()
    }
  })

  it('leaves no object when a write is stored but its answer never comes, nor when nothing arrives', async () => {
    const before = await keys()
    const store = throughProxy({ requestTimeoutMs: 600, callTimeoutMs: 2_000, maxAttempts: 2 })
    try {
      // The store gets the PUT (and the removal that follows the failure) but its answers are held.
      proxy.stall({ responseBytes: 0 })
      const answerLost = await timed(() =>
        store.write('bounds', 'txt', Buffer.from('stored, answer lost\n'), new Date()),
      )
      expect(answerLost.outcome).toBe('failed DOCUMENT_STORE_UNREACHABLE')
      expect(answerLost.ms).toBeLessThan(30_000)
      expect(await settledKeys(before)).toEqual(before)
      // Everything held, a multipart upload too (two 5 MiB parts).
      proxy.release()
      proxy.stall()
      const multipartStore = throughProxy({
        requestTimeoutMs: 600,
        callTimeoutMs: 2_000,
        maxAttempts: 2,
        partSizeBytes: 5 * MiB,
      })
      try {
        const multipart = await timed(() => multipartStore.write('bounds', 'bin', patternBytes(6 * MiB, 3), new Date()))
        expect(multipart.outcome).toBe('failed DOCUMENT_STORE_UNREACHABLE')
        // Its deadline: one call for starting and completing it, one per round of parts.
        expect(multipart.ms).toBeLessThan(30_000)
      } finally {
        proxy.release()
        await multipartStore.close()
      }
      expect(await settledKeys(before)).toEqual(before)
    } finally {
      await store.close()
    }
  })
})
