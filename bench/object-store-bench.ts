/**
 * Documents on object storage (issue #25): creates (`POST /rest/resources`) and `/originalContent` reads of a
 * 100 KB PDF with the documents in a bucket of the Ceph test gateway, beside the same on the local folder,
 * and beside a raw baseline measured in the same run: plain PUT and GET of objects of the same size with the
 * same client (the AWS SDK, configured as Mailroom's store configures it), no HTTP server, no database.
 *
 *   pnpm --filter @mailroom/bench bench:object-store
 *   BENCH_SECONDS (10), BENCH_CLIENTS (16), BENCH_FILE_BYTES (100000),
 *   TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
 *
 * Starts the gateway with scripts/ceph-test-cluster.sh (and stops it if it started it). The HTTP clients run
 * in a worker thread (http-load.ts); the raw baseline's client runs in this process, as the store's does.
 */
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { serveOnLoopback } from '@mailroom/http-koa/testing'
import { createMailroom, type Mailroom, S3DocumentStore } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { makeBenchPdf, runPhase } from './bench-kit.js'
import { runHttpPhase, threadCpuMs } from './http-load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const clients = Number(process.env.BENCH_CLIENTS ?? 16)
const fileBytes = Number(process.env.BENCH_FILE_BYTES ?? 100_000)
/** scripts/ceph-test-cluster.sh, found from this file whether it runs from source or from dist/. */
const script = [1, 2].map((up) => join(dirname(fileURLToPath(import.meta.url)), ...Array(up).fill('..'), 'scripts', 'ceph-test-cluster.sh')).find((path) => existsSync(path)) ?? 'scripts/ceph-test-cluster.sh'

function gatewayEnv(): { env: Record<string, string>; started: boolean } | null {
  const running = spawnSync('bash', [script, 'env'], { encoding: 'utf8' })
  const found = running.status === 0 ? running : spawnSync('bash', [script, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
  if (found.status !== 0) return null
  const env = Object.fromEntries(found.stdout.trim().split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]))
  return { env, started: running.status !== 0 }
}

interface Served {
  readonly url: string
  readonly mailroom: Mailroom
  close(): Promise<void>
}

async function serve(database: string, store: { docserverDir?: string; docserverUrl?: string; s3?: object }): Promise<Served> {
  const mailroom = await createMailroom({ database, ...store, secret: TEST_SECRET, demo: true, passwordHasher: TEST_PASSWORD_HASHER })
  const served = await serveOnLoopback(mailroom)
  return {
    url: served.baseUrl,
    mailroom,
    async close() {
      await served.close()
      await mailroom.close()
    },
  }
}

const auth = { authorization: `Basic ${Buffer.from('cchaplin:maarch').toString('base64')}` }

async function main(): Promise<void> {
  const gateway = gatewayEnv()
  if (!gateway) {
    console.log('object-store bench skipped: no Ceph gateway could be started (scripts/ceph-test-cluster.sh)')
    return
  }
  const s3 = {
    endpoint: gateway.env.MAILROOM_S3_ENDPOINT as string,
    forcePathStyle: true,
    credentials: { accessKeyId: gateway.env.AWS_ACCESS_KEY_ID as string, secretAccessKey: gateway.env.AWS_SECRET_ACCESS_KEY as string },
  }
  const pdf = makeBenchPdf(2, fileBytes)
  const body = JSON.stringify({ modelId: 1, status: 'NEW', subject: 'bench', format: 'pdf', encodedFile: Buffer.from(pdf).toString('base64'), destination: 6 })
  const bucket = `s3://mailroom-bench-${randomBytes(4).toString('hex')}/docs`
  const raw = new S3DocumentStore({ ...s3, url: bucket })
  await raw.ensure()
  const folder = await mkdtemp(join(tmpdir(), 'mailroom-bench-folder-'))
  const databases = [await createTestDatabase('postgres'), await createTestDatabase('postgres')]
  const onS3 = await serve(databases[0]!.url!, { docserverUrl: bucket, s3 })
  const onFolder = await serve(databases[1]!.url!, { docserverDir: folder })
  const results: Record<string, number> = {}
  const line = (name: string, r: { count: number; errors: number; perSecond: number; p50: number; p99: number; loopCpuMsPerResponse?: number }) => {
    results[name] = r.perSecond
    const cpu = r.loopCpuMsPerResponse === undefined ? '' : `  server loop CPU ${r.loopCpuMsPerResponse.toFixed(2)} ms/response`
    console.log(`${name.padEnd(28)} ${r.perSecond.toFixed(0).padStart(6)}/s  p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  (${r.count} ok, ${r.errors} errors)${cpu}`)
  }
  try {
    console.log(`object storage: ${clients} clients, ${seconds} s per phase, ${pdf.length}-byte PDF, gateway ${s3.endpoint}`)
    // Warm-up (JIT, connections, the bucket's first objects), not measured.
    await runHttpPhase('warm-up', clients, 3, { url: `${onS3.url}/rest/resources`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, bodies: [body] })
    let n = 0
    /** A raw phase, with the CPU this thread (the SDK's) spent per request, as the HTTP phases report the server's. */
    const rawPhase = async (name: string, operation: () => Promise<void>) => {
      const before = threadCpuMs()
      const result = await runPhase(name, clients, seconds, operation)
      return { ...result, loopCpuMsPerResponse: (threadCpuMs() - before) / Math.max(1, result.count) }
    }
    line('raw PUT (SDK)', await rawPhase('raw PUT', async () => {
      await raw.client.send(new PutObjectCommand({ Bucket: raw.location.bucket, Key: `${raw.location.prefix}raw/${n++}.pdf`, Body: pdf, ContentLength: pdf.length }))
    }))
    const create = { method: 'POST' as const, headers: { ...auth, 'content-type': 'application/json' }, bodies: [body] }
    line('creates on S3', await runHttpPhase('creates s3', clients, seconds, { url: `${onS3.url}/rest/resources`, ...create }))
    line('creates on folder', await runHttpPhase('creates folder', clients, seconds, { url: `${onFolder.url}/rest/resources`, ...create }))

    line('raw GET (SDK)', await rawPhase('raw GET', async () => {
      const answer = await raw.client.send(new GetObjectCommand({ Bucket: raw.location.bucket, Key: `${raw.location.prefix}raw/0.pdf` }))
      for await (const _ of answer.Body as AsyncIterable<Uint8Array>) {
        // drained
      }
    }))
    const resIdOf = async (served: Served) =>
      Number((await served.mailroom.db.selectFrom('res_letterbox').select('res_id').where('subject', '=', 'bench').orderBy('res_id').executeTakeFirstOrThrow()).res_id)
    line('originalContent on S3', await runHttpPhase('read s3', clients, seconds, { url: `${onS3.url}/rest/resources/${await resIdOf(onS3)}/originalContent`, headers: auth }))
    line('originalContent on folder', await runHttpPhase('read folder', clients, seconds, { url: `${onFolder.url}/rest/resources/${await resIdOf(onFolder)}/originalContent`, headers: auth }))

    const pct = (a: string, b: string) => `${(((results[a] ?? 0) / (results[b] ?? 1)) * 100).toFixed(0)} %`
    console.log(`\ncreates on S3 / raw PUT:           ${pct('creates on S3', 'raw PUT (SDK)')}`)
    console.log(`creates on S3 / creates on folder:  ${pct('creates on S3', 'creates on folder')}`)
    console.log(`reads on S3 / raw GET:              ${pct('originalContent on S3', 'raw GET (SDK)')}`)
    console.log(`reads on S3 / reads on folder:      ${pct('originalContent on S3', 'originalContent on folder')}`)
  } finally {
    await onS3.close()
    await onFolder.close()
    for await (const file of raw.list()) await raw.remove(file.key)
    await raw.close()
    for (const database of databases) await database.drop()
    await rm(folder, { recursive: true, force: true })
    if (gateway.started) spawnSync('bash', [script, 'stop'], { stdio: 'inherit' })
  }
}

await main()
