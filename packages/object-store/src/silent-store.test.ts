import type { AddressInfo } from 'node:net'
import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { S3DocumentStore } from './s3-document-store.js'

/**
 * A store that takes connections and never answers, as the Ceph gateway did while its OSD was full: every
 * request must fail with the catalogue's 503 error once requestTimeoutMs has passed, never wait forever.
 * A silent loopback listener stands for it (a full OSD cannot be made on demand).
 */
let silent: Server
const held = new Set<Socket>()

beforeAll(async () => {
  silent = createServer((socket) => {
    held.add(socket)
    socket.on('close', () => held.delete(socket))
  })
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
})
afterAll(async () => {
  for (const socket of held) socket.destroy()
  await new Promise<void>((resolve) => silent.close(() => resolve()))
})

describe('a store that never answers', () => {
  it('fails reads, writes and the bucket check with DOCUMENT_STORE_UNREACHABLE after the request timeout', async () => {
    const store = new S3DocumentStore({
      url: 's3://silent-bucket/docs',
      endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'silent', secretAccessKey: 'silent-secret' },
      requestTimeoutMs: 300,
      maxAttempts: 1,
    })
    try {
      const started = Date.now()
      await expect(store.ensure()).rejects.toMatchObject({ code: 'DOCUMENT_STORE_UNREACHABLE' })
      await expect(store.size('resources/2026/01/a.pdf')).rejects.toMatchObject({ code: 'DOCUMENT_STORE_UNREACHABLE' })
      await expect(store.write('resources', 'pdf', new Uint8Array([1, 2, 3]), new Date())).rejects.toMatchObject({
        code: 'DOCUMENT_STORE_UNREACHABLE',
      })
      // Three calls of 300 ms each, not a hang: the bound leaves room for a loaded machine.
      expect(Date.now() - started).toBeLessThan(60_000)
    } finally {
      await store.close()
    }
  })
})
