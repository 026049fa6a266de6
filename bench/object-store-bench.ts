/**
 * Documents on object storage (issue #25): creates (`POST /rest/resources`) and `/originalContent` reads of a
 * 100 KB PDF with the documents in a bucket of the Ceph test gateway, beside the same on the local folder,
 * and beside a raw baseline measured in the same run: plain PUT and GET of objects of the same size with the
 * same client (the AWS SDK, configured as Mailroom's store configures it), no HTTP server, no database.
 *
 *   pnpm --filter @mailroom/bench bench:object-store
 *   BENCH_SECONDS (10), BENCH_CLIENTS (16), BENCH_FILE_BYTES (100000),
 *   BENCH_STORE_LATENCY_MS (0; else the store's answers go through latency-proxy.ts, delayed that long: a remote store),
 *   BENCH_PHASES (all; else a comma list of words naming phases, e.g. `get,originalcontent on s3`: for profiling one path),
 *   TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
 *
 * Starts the gateway with scripts/ceph-test-cluster.sh (and stops it if it started it). The HTTP clients run
 * in a worker thread (http-load.ts); the raw baseline's client runs in this process, as the store's does.
 */
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { S3DocumentStore } from '@mailroom/mailroom'
import {
  createTestDatabase,
  type LoopbackMailroom,
  serveMailroomOnLoopback,
  TEST_PASSWORD_HASHER,
  TEST_SECRET,
} from '@mailroom/testing'
import { makeBenchPdf, runPhase } from './bench-kit.js'
import { gatewayCpuMs, machineCpuMs, processCpuMs, runHttpPhase } from './http-load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const clients = Number(process.env.BENCH_CLIENTS ?? 16)
const fileBytes = Number(process.env.BENCH_FILE_BYTES ?? 100_000)
const storeLatencyMs = Number(process.env.BENCH_STORE_LATENCY_MS ?? 0)
const phases = process.env.BENCH_PHASES?.toLowerCase()
  .split(',')
  .map((word) => word.trim())
  .filter(Boolean)
const runs = (name: string) => !phases || phases.some((word) => name.toLowerCase().includes(word))
/** scripts/ceph-test-cluster.sh, found from this file whether it runs from source or from dist/. */
const script =
  [1, 2]
    .map((up) =>
      join(dirname(fileURLToPath(import.meta.url)), ...Array(up).fill('..'), 'scripts', 'ceph-test-cluster.sh'),
    )
    .find((path) => existsSync(path)) ?? 'scripts/ceph-test-cluster.sh'

function gatewayEnv(): { env: Record<string, string>; started: boolean } | null {
  const running = spawnSync('bash', [script, 'env'], { encoding: 'utf8' })
  // A larger in-memory OSD than the tests': a full one blocks writes, and a run of larger files fills 1 GiB.
  const found =
    running.status === 0
      ? running
      : spawnSync('bash', [script, 'start'], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'inherit'],
          env: { MAILROOM_CEPH_MEMSTORE_BYTES: String(8 * 2 ** 30), ...process.env },
        })
  if (found.status !== 0) return null
  const env = Object.fromEntries(
    found.stdout
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )
  return { env, started: running.status !== 0 }
}

/** A Mailroom of its own on the demo data, served on a loopback port. */
function serve(
  database: string,
  store: { docserverDir?: string; docserverUrl?: string; s3?: object },
): Promise<LoopbackMailroom> {
  return serveMailroomOnLoopback({
    database,
    ...store,
    secret: TEST_SECRET,
    demo: true,
    passwordHasher: TEST_PASSWORD_HASHER,
  })
}

/** latency-proxy.ts in its own process (its CPU is neither Mailroom's nor the raw client's). */
async function startLatencyProxy(targetPort: number, delayMs: number): Promise<{ endpoint: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./latency-proxy.js', import.meta.url)), String(targetPort), String(delayMs)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()))
    child.once('exit', (code) => reject(new Error(`latency proxy exited with ${code}`)))
  })
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => child.kill() }
}

const auth = { authorization: `Basic ${Buffer.from('cchaplin:maarch').toString('base64')}` }

async function main(): Promise<void> {
  const gateway = gatewayEnv()
  if (!gateway) {
    console.log('object-store bench skipped: no Ceph gateway could be started (scripts/ceph-test-cluster.sh)')
    return
  }
  const proxy =
    storeLatencyMs > 0
      ? await startLatencyProxy(Number(new URL(gateway.env.MAILROOM_S3_ENDPOINT as string).port), storeLatencyMs)
      : null
  const s3 = {
    endpoint: proxy?.endpoint ?? (gateway.env.MAILROOM_S3_ENDPOINT as string),
    forcePathStyle: true,
    credentials: {
      accessKeyId: gateway.env.AWS_ACCESS_KEY_ID as string,
      secretAccessKey: gateway.env.AWS_SECRET_ACCESS_KEY as string,
    },
  }
  const pdf = makeBenchPdf(2, fileBytes)
  const body = JSON.stringify({
    modelId: 1,
    status: 'NEW',
    subject: 'bench',
    format: 'pdf',
    encodedFile: Buffer.from(pdf).toString('base64'),
    destination: 6,
  })
  const bucket = `s3://mailroom-bench-${randomBytes(4).toString('hex')}/docs`
  const raw = new S3DocumentStore({ ...s3, url: bucket })
  await raw.ensure()
  const folder = await mkdtemp(join(tmpdir(), 'mailroom-bench-folder-'))
  const databases = [await createTestDatabase('postgres'), await createTestDatabase('postgres')]
  const onS3 = await serve(databases[0]!.url!, { docserverUrl: bucket, s3 })
  const onFolder = await serve(databases[1]!.url!, { docserverDir: folder })
  const results: Record<string, number> = {}
  /** CPU per response, in ms: the whole machine, and its parts (this process, PostgreSQL, the Ceph cluster, the load generator). */
  interface Costs {
    readonly machine: number
    readonly mailroom: number
    readonly postgres: number
    readonly gateway: number
    readonly generator: number
  }
  const costs: Record<string, Costs> = {}
  const line = (
    name: string,
    r: { count: number; errors: number; perSecond: number; p50: number; p99: number },
    cost: Costs,
  ) => {
    results[name] = r.perSecond
    costs[name] = cost
    const ms = (value: number) => value.toFixed(2).padStart(5)
    console.log(
      `${name.padEnd(26)} ${r.perSecond.toFixed(0).padStart(5)}/s  p50 ${r.p50.toFixed(1).padStart(5)} ms  p99 ${r.p99.toFixed(1).padStart(5)} ms  (${r.count} ok, ${r.errors} errors)` +
        `  CPU ms/op: machine ${ms(cost.machine)} = Mailroom/client ${ms(cost.mailroom)} + PostgreSQL ${ms(cost.postgres)} + Ceph ${ms(cost.gateway)} + load ${ms(cost.generator)} + other`,
    )
  }
  const http = async (name: string, request: Parameters<typeof runHttpPhase>[3]) => {
    if (!runs(name)) return
    const r = await runHttpPhase(name, clients, seconds, request)
    line(name, r, {
      machine: r.machineCpuMsPerResponse,
      mailroom: r.serverCpuMsPerResponse,
      postgres: r.postgresCpuMsPerResponse,
      gateway: r.gatewayCpuMsPerResponse,
      generator: r.generatorCpuMsPerResponse,
    })
  }
  /** A raw phase: the SDK in this process, no HTTP server, no database. */
  const rawPhase = async (name: string, operation: () => Promise<void>) => {
    if (!runs(name)) return
    const before = { machine: machineCpuMs(), process: processCpuMs(), gateway: gatewayCpuMs() }
    const r = await runPhase(name, clients, seconds, operation)
    const per = (ms: number) => ms / Math.max(1, r.count)
    line(name, r, {
      machine: per(machineCpuMs() - before.machine),
      mailroom: per(processCpuMs() - before.process),
      postgres: 0,
      gateway: per(gatewayCpuMs() - before.gateway),
      generator: 0,
    })
  }
  try {
    console.log(
      `object storage: ${clients} clients, ${seconds} s per phase, ${pdf.length}-byte PDF, gateway ${s3.endpoint}${proxy ? ` (answers delayed ${storeLatencyMs} ms)` : ''}`,
    )
    // Warm-up (JIT, connections, the bucket's first objects), not measured.
    await runHttpPhase('warm-up', clients, 3, {
      url: `${onS3.baseUrl}/rest/resources`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      bodies: [body],
    })
    await runHttpPhase('warm-up', 1, 0.1, {
      url: `${onFolder.baseUrl}/rest/resources`,
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      bodies: [body],
    })
    await raw.client.send(
      new PutObjectCommand({
        Bucket: raw.location.bucket,
        Key: `${raw.location.prefix}raw/0.pdf`,
        Body: pdf,
        ContentLength: pdf.length,
      }),
    )
    let n = 0
    await rawPhase('raw PUT (SDK)', async () => {
      await raw.client.send(
        new PutObjectCommand({
          Bucket: raw.location.bucket,
          Key: `${raw.location.prefix}raw/${n++ % 256}.pdf`,
          Body: pdf,
          ContentLength: pdf.length,
        }),
      )
    })
    const create = { method: 'POST' as const, headers: { ...auth, 'content-type': 'application/json' }, bodies: [body] }
    await http('creates on S3', { url: `${onS3.baseUrl}/rest/resources`, ...create })
    await http('creates on folder', { url: `${onFolder.baseUrl}/rest/resources`, ...create })

    await rawPhase('raw GET (SDK)', async () => {
      const answer = await raw.client.send(
        new GetObjectCommand({ Bucket: raw.location.bucket, Key: `${raw.location.prefix}raw/0.pdf` }),
      )
      for await (const _ of answer.Body as AsyncIterable<Uint8Array>) {
        // drained
      }
    })
    const resIdOf = async (served: LoopbackMailroom) =>
      Number(
        (
          await served.mailroom.db
            .selectFrom('res_letterbox')
            .select('res_id')
            .where('subject', '=', 'bench')
            .orderBy('res_id')
            .executeTakeFirstOrThrow()
        ).res_id,
      )
    await http('originalContent on S3', {
      url: `${onS3.baseUrl}/rest/resources/${await resIdOf(onS3)}/originalContent`,
      headers: auth,
    })
    await http('originalContent on folder', {
      url: `${onFolder.baseUrl}/rest/resources/${await resIdOf(onFolder)}/originalContent`,
      headers: auth,
    })

    const pct = (a: string, b: string) =>
      results[a] === undefined || results[b] === undefined
        ? 'not run'
        : `${((results[a] / results[b]) * 100).toFixed(0)} %`
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
    proxy?.stop()
    if (gateway.started) spawnSync('bash', [script, 'stop'], { stdio: 'inherit' })
  }
}

await main()
