/**
 * Attachment creates beside record creates (issue 32): POST /rest/attachments and POST /rest/resources over
 * HTTP, the same clients and the same 20 KB PDF, on one Mailroom on a fresh PostgreSQL database, in
 * alternating rounds so the tables' growth and the checkpoints weigh on both alike. Target: attachments at
 * least 70 % of records per second (both write a file durably, its row, its journal event and a history row).
 *
 *   pnpm --filter @mailroom/bench bench:attachments     BENCH_SECONDS (10), BENCH_CLIENTS (16), BENCH_ROUNDS (3),
 *   BENCH_WARMUP_SECONDS (5), TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
 */

import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp } from '@mailroom/http-koa'
import { createMailroom } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { BENCH_CREATE_HEADERS, benchCreateBody, makeBenchPdf, median } from './bench-kit.js'
import { type HttpPhaseResult, type LoadRequest, runHttpPhase } from './http-load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const clients = Number(process.env.BENCH_CLIENTS ?? 16)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5)

function print(result: HttpPhaseResult): void {
  console.log(
    `${result.name.padEnd(16)} ${result.perSecond.toFixed(0).padStart(6)} creates/s  p50 ${result.p50.toFixed(1)} ms  ` +
      `p99 ${result.p99.toFixed(1)} ms  errors ${result.errors}`,
  )
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres')
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-bench-'))
  const mailroom = await createMailroom({
    database: { ...(database.target as { kind: 'postgres'; url: string }), poolSize: 20 },
    docserverDir,
    secret: TEST_SECRET,
    demo: true,
    passwordHasher: TEST_PASSWORD_HASHER,
    throttle: false,
  })
  const server = createServer(createHttpApp({ services: mailroom }).callback())
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest`
  const pdf = makeBenchPdf(1, 20 * 1024)
  const encodedFile = Buffer.from(pdf).toString('base64')
  const headers = BENCH_CREATE_HEADERS
  const recordBody = benchCreateBody(pdf)
  try {
    const master = await fetch(`${base}/resources`, { method: 'POST', headers, body: recordBody })
    const { resId } = (await master.json()) as { resId: number }
    const attachmentBody = JSON.stringify({
      resIdMaster: resId,
      type: 'simple_attachment',
      title: 'Bench',
      status: 'A_TRA',
      format: 'pdf',
      encodedFile,
    })
    const records: LoadRequest = { url: `${base}/resources`, method: 'POST', headers, bodies: [recordBody] }
    const attachments: LoadRequest = { url: `${base}/attachments`, method: 'POST', headers, bodies: [attachmentBody] }
    console.log(
      `Mailroom attachment create benchmark: ${clients} clients, ${encodedFile.length} B base64 PDF, ${seconds} s per phase`,
    )
    if (warmUpSeconds > 0) {
      await runHttpPhase('warm-up records', clients, warmUpSeconds, records)
      await runHttpPhase('warm-up attach.', clients, warmUpSeconds, attachments)
    }
    const ratios: number[] = []
    for (let round = 1; round <= rounds; round++) {
      await mailroom.journalFlush()
      const recordPhase = await runHttpPhase(`records #${round}`, clients, seconds, records)
      print(recordPhase)
      await mailroom.journalFlush()
      const attachmentPhase = await runHttpPhase(`attachments #${round}`, clients, seconds, attachments)
      print(attachmentPhase)
      ratios.push(attachmentPhase.perSecond / recordPhase.perSecond)
    }
    console.log(
      `ratio attachments/records per round: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}; ` +
        `median ${(median(ratios) * 100).toFixed(0)}%  (target: >= 70%)`,
    )
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await mailroom.close()
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
