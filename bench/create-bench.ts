/**
 * Create throughput of POST /rest/resources (issue #3): 16 concurrent clients sending a 20 KB PDF over
 * HTTP to a Mailroom on a fresh PostgreSQL database, beside a raw baseline measured in the same run (the
 * same file written durably and the same rows inserted directly in one statement, no HTTP, no validation).
 *
 *   pnpm bench            10 s per phase          node dist/create-bench.js --soak     120 s per phase
 *   BENCH_SECONDS, BENCH_CLIENTS, BENCH_ROUNDS (raw/floor/http rounds, default 3), BENCH_WARMUP_SECONDS (default 5), BENCH_FLOOR (1),
 *   BENCH_RAW_WRITER (plain, or mailroom: the baseline writes its file with Mailroom's DocumentWriter), BENCH_CPU_PROFILE (file),
 *   TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
 *
 * The HTTP clients run in a worker thread (http-load.ts); the baseline runs in this process. On a 2-core box
 * both share the cores with PostgreSQL.
 */

import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import { Session } from 'node:inspector/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp } from '@mailroom/http-koa'
import { createMailroom } from '@mailroom/mailroom'
import { DocserverRoot, DocumentWriter } from '@mailroom/storage'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { CompiledQuery, type Kysely } from 'kysely'
import { BENCH_CREATE_HEADERS, benchCreateBody, median, runPhase } from './bench-kit.js'
import { type LoadRequest, machineCpuMs, postgresCpuMs, processCpuMs, runHttpPhase } from './http-load.js'

const soak = process.argv.includes('--soak')
const seconds = Number(process.env.BENCH_SECONDS ?? (soak ? 120 : 10))
const clients = Number(process.env.BENCH_CLIENTS ?? 16)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5)
/** BENCH_FLOOR=0 leaves out the bare-HTTP floor phase of each round. */
const withFloor = process.env.BENCH_FLOOR !== '0'
/** BENCH_CPU_PROFILE=file writes a V8 CPU profile of the server's event loop during the HTTP phases. */
const cpuProfileFile = process.env.BENCH_CPU_PROFILE
/**
 * How the baseline writes its file, in the folder where Mailroom writes its records' files at that moment
 * (a filesystem allocates a new file's inode near its folder, and its cost depends on that place's history:
 * on this machine's journal-less ext4, inodes deleted in the last minutes are skipped one by one, see
 * docs/benchmarks.md). `plain` (default): the per-file sequence a direct write does, every call through
 * fs/promises and one folder fsync per file. `mailroom`: Mailroom's own DocumentWriter in the records' area
 * (direct calls for small files, folder fsyncs shared between concurrent writes), so the ratio leaves out
 * what the writer gains over a plain write.
 */
const rawWriter = process.env.BENCH_RAW_WRITER === 'mailroom' ? 'mailroom' : 'plain'
/** The docserver area of the records' files (their path template). */
const RECORDS_AREA = 'resources/'

/** Profiles `run` on this thread when BENCH_CPU_PROFILE names a file (one profile, the last phase wins). */
async function profiled<T>(run: () => Promise<T>): Promise<T> {
  if (!cpuProfileFile) return run()
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.start')
  try {
    return await run()
  } finally {
    const { profile } = await session.post('Profiler.stop')
    await writeFile(cpuProfileFile, JSON.stringify(profile))
    session.disconnect()
  }
}

/** A 20 KB PDF-looking file: the sniffer reads the header; the filler makes the size realistic. */
function makePdf(size: number): Uint8Array {
  const head = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%'
  const tail = '\ntrailer << /Root 1 0 R >>\n%%EOF\n'
  const filler = randomBytes(size)
    .toString('base64')
    .slice(0, size - head.length - tail.length)
  return new TextEncoder().encode(head + filler + tail)
}

interface PhaseResult {
  readonly name: string
  readonly creates: number
  readonly errors: number
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  readonly peakRssMb: number
  /** HTTP phases: the server's event-loop CPU per response. */
  readonly loopCpuMsPerResponse?: number
  /** The machine's busy CPU per create (all cores: server, clients, PostgreSQL, kernel). */
  readonly machineCpuMsPerResponse?: number
  /** Its split: this process but the load generator (the server, or the raw baseline), PostgreSQL, the load generator. */
  readonly serverCpuMsPerResponse?: number
  readonly postgresCpuMsPerResponse?: number
  readonly generatorCpuMsPerResponse?: number
}

/** Runs `operation` from the concurrent clients for the phase length (shared loop in bench-kit). */
async function phase(name: string, operation: () => Promise<void>): Promise<PhaseResult> {
  const [machineBefore, processBefore, postgresBefore] = [machineCpuMs(), processCpuMs(), postgresCpuMs()]
  const result = await runPhase(name, clients, seconds, operation)
  const per = (ms: number) => ms / Math.max(1, result.count)
  return {
    ...result,
    creates: result.count,
    machineCpuMsPerResponse: per(machineCpuMs() - machineBefore),
    serverCpuMsPerResponse: per(processCpuMs() - processBefore),
    postgresCpuMsPerResponse: per(postgresCpuMs() - postgresBefore),
    generatorCpuMsPerResponse: 0,
  }
}

/** The journal event Mailroom wrote for a record, as the template of the baseline's pending rows. */
type EventTemplate = Record<string, unknown> & { safe: string }

async function depositTemplate(db: Kysely<any>, resId: number): Promise<EventTemplate> {
  const archive = await db
    .selectFrom('journal_archives')
    .select(['archive_id', 'safe'])
    .where('res_id', '=', resId)
    .executeTakeFirstOrThrow()
  const event = await db
    .selectFrom('journal_events')
    .select([
      'safe',
      'event_type',
      'timestamp',
      'instance_name',
      'org_reg_number',
      'org_unit_reg_number',
      'account_id',
      'account_name',
      'object_class',
      'object_id',
      'operation_result',
      'description',
      'info',
    ])
    .where('object_id', '=', archive.archive_id)
    .executeTakeFirstOrThrow()
  return { ...event, info: JSON.stringify(event.info) } as EventTemplate
}

/** The pending event's columns the baseline copies from Mailroom's own deposit event ($7 onwards). */
const PENDING_TEMPLATE_COLUMNS = [
  'event_type',
  'instance_name',
  'org_reg_number',
  'org_unit_reg_number',
  'account_id',
  'account_name',
  'object_class',
  'operation_result',
  'description',
  'info',
] as const

/**
 * The baseline's statement: the rows a Mailroom create of the benchmark's body inserts, one constant text
 * with the body's fixed values as literals (the leanest direct insert: prepared once per connection, nothing
 * built per create). $1-$4 the file, $5 the archive id, $6 the safe, $7-$16 the journal event's template.
 */
const RAW_INSERT_SQL = `with record as (
  insert into res_letterbox (model_id, category_id, type_id, subject, typist, status, destination, confidentiality, format, docserver_id, path, filename, filesize, fingerprint)
  values (1, 'incoming', 101, 'Bench', 2, 'NEW', 'COU', 'N', 'pdf', 'FASTHD_MAN', $1, $2, $3, $4)
  returning res_id
), creation as (
  insert into history (table_name, record_id, event_type, user_id, info, id_module, event_id)
  select 'res_letterbox', res_id::text, 'ADD', 2, 'Document added', 'resource', 'resourceCreation' from record
), sender as (
  insert into resource_contacts (res_id, item_id, type, mode) select res_id, 1, 'contact', 'sender' from record
), archive as (
  insert into journal_archives (archive_id, safe, res_id, created_at) select $5, $6, res_id, now() from record
), deposit as (
  insert into journal_pending (safe, event_id, object_id, timestamp, ${PENDING_TEMPLATE_COLUMNS.join(', ')})
  values ($6, $5, $5, now(), ${PENDING_TEMPLATE_COLUMNS.map((column, index) => `$${index + 7}${column === 'info' ? '::jsonb' : ''}`).join(', ')})
)
select res_id from record`

/**
 * The raw baseline: the file written durably (created under its name, fsync, fsync dir: plainly, or by Mailroom's
 * writer, see BENCH_RAW_WRITER), then the rows a Mailroom create of the same body inserts (record, history,
 * sender, journal archive and pending event) in one statement, as Mailroom does, so the ratio is the cost
 * of everything else: HTTP, parsing, validation, the reference lookup. The pending events are sealed by the
 * server's background sweep, as Mailroom's own are. `follow` moves the plain writes to the folder of
 * Mailroom's latest record: call it before each baseline phase.
 */
function rawCreate(
  db: Kysely<any>,
  root: string,
  template: EventTemplate,
): { create(pdf: Uint8Array): Promise<number>; follow(): Promise<void> } {
  const writer = new DocumentWriter(new DocserverRoot(root))
  let path = ''
  const writePlainly = async (pdf: Uint8Array): Promise<{ path: string; filename: string }> => {
    const folder = join(root, RECORDS_AREA, path)
    const filename = `${randomBytes(16).toString('hex')}.pdf`
    const file = await open(join(folder, filename), 'wx')
    await file.writeFile(pdf)
    await file.sync()
    await file.close()
    const dir = await open(folder, 'r')
    await dir.sync()
    await dir.close()
    return { path, filename }
  }
  return {
    async follow() {
      const latest = await db
        .selectFrom('res_letterbox')
        .select('path')
        .where('path', 'is not', null)
        .orderBy('res_id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow()
      path = latest.path as string
    },
    async create(pdf) {
      const { path: stored, filename } =
        rawWriter === 'mailroom' ? await writer.write(RECORDS_AREA, 'pdf', pdf, new Date()) : await writePlainly(pdf)
      const fingerprint = createHash('sha256').update(pdf).digest('hex')
      const archiveId = `bench_${randomBytes(12).toString('hex')}`
      const parameters = [
        stored,
        filename,
        pdf.length,
        fingerprint,
        archiveId,
        template.safe,
        ...PENDING_TEMPLATE_COLUMNS.map((column) => template[column]),
      ]
      const inserted = (await db.executeQuery(CompiledQuery.raw(RAW_INSERT_SQL, parameters))).rows[0] as {
        res_id: number | string
      }
      return Number(inserted.res_id)
    },
  }
}

/**
 * The HTTP floor: a bare node:http server in front of the raw baseline: it reads the JSON body, decodes the
 * base64 file and answers `{"resId": n}`, with no authentication, validation, lookup or sniffing. What any
 * HTTP service of this interface pays on the machine before doing its own work.
 */
function floorServer(write: (pdf: Uint8Array) => Promise<number>): ReturnType<typeof createServer> {
  return createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { encodedFile: string }
        const resId = await write(new Uint8Array(Buffer.from(body.encodedFile, 'base64')))
        const answer = JSON.stringify({ resId })
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) })
          .end(answer)
      })().catch((error: unknown) => {
        res.writeHead(500).end(String(error))
      })
    })
  })
}

function print(result: PhaseResult): void {
  console.log(
    `${result.name.padEnd(8)} ${result.perSecond.toFixed(0).padStart(6)} creates/s  ${String(result.creates).padStart(7)} creates  ` +
      `p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  peak RSS ${result.peakRssMb.toFixed(0)} MB  errors ${result.errors}` +
      (result.loopCpuMsPerResponse === undefined
        ? ''
        : `  loop CPU ${result.loopCpuMsPerResponse.toFixed(2)} ms/create`) +
      (result.machineCpuMsPerResponse === undefined
        ? ''
        : `  machine CPU ${result.machineCpuMsPerResponse.toFixed(2)} ms/create`) +
      (result.serverCpuMsPerResponse === undefined
        ? ''
        : ` (server ${result.serverCpuMsPerResponse.toFixed(2)}, PostgreSQL ${result.postgresCpuMsPerResponse?.toFixed(2)}, load generator ${result.generatorCpuMsPerResponse?.toFixed(2)})`),
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
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/resources`
  const pdf = makePdf(20 * 1024)
  const body = benchCreateBody(pdf)
  const headers = BENCH_CREATE_HEADERS
  const httpCreate = async () => {
    const response = await fetch(url, { method: 'POST', headers, body })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text}`)
    return text
  }
  // The measured HTTP clients run in a worker thread (http-load.ts), as a separate load generator would.
  const httpLoad: LoadRequest = { url, method: 'POST', headers, bodies: [body] }
  let floor: ReturnType<typeof createServer> | undefined
  try {
    console.log(
      `Mailroom create benchmark: ${clients} clients, ${pdf.length} B PDF, ${seconds} s per phase, baseline file writes: ${rawWriter}, ` +
        `PostgreSQL ${database.url?.replace(/\/\/[^@]*@/, '//')}`,
    )
    // Warm-up (authentication cache, connections), and the journal event the baseline copies.
    const warmUp = JSON.parse(await httpCreate()) as { resId: number }
    await mailroom.journalFlush()
    const template = await depositTemplate(mailroom.db, warmUp.resId)
    // Alternating rounds: the tables grow and PostgreSQL checkpoints as the run goes on, which moves both
    // phases; comparing each HTTP phase with the baseline just before it keeps that drift out of the ratio.
    const baseline = rawCreate(mailroom.db, docserverDir, template)
    const raw = async () => {
      await baseline.create(pdf)
    }
    const bare = floorServer((bytes) => baseline.create(bytes))
    floor = bare
    bare.keepAliveTimeout = 60_000
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve))
    const floorLoad: LoadRequest = {
      url: `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`,
      method: 'POST',
      headers,
      bodies: [body],
    }
    await baseline.follow()
    if (warmUpSeconds > 0 && withFloor) await runHttpPhase('warm-up floor', clients, warmUpSeconds, floorLoad)
    // Unmeasured warm-up of both sides (JIT, prepared statements on every pooled connection, the fresh
    // tables' first pages and checkpoint): the first measured round otherwise ran on a cold process.
    if (warmUpSeconds > 0) {
      await runPhase('warm-up raw', clients, warmUpSeconds, raw)
      await runHttpPhase('warm-up http', clients, warmUpSeconds, httpLoad)
    }
    const ratios: number[] = []
    const floorRatios: number[] = []
    // Each measured phase starts with every journal event sealed: none seals another's backlog (the raw
    // inserts' pending events are otherwise sealed by the 1.5 s sweep, partly in the next phase).
    const settled = () => mailroom.journalFlush()
    for (let round = 1; round <= rounds; round++) {
      await settled()
      await baseline.follow()
      const rawResult = await phase(`raw #${round}`, raw)
      print(rawResult)
      await settled()
      if (withFloor) {
        const bareHttp = await runHttpPhase(`floor #${round}`, clients, seconds, floorLoad).then((r) => ({
          ...r,
          creates: r.count,
        }))
        print(bareHttp)
        floorRatios.push(bareHttp.perSecond / rawResult.perSecond)
        await settled()
      }
      const http = await profiled(() => runHttpPhase(`http #${round}`, clients, seconds, httpLoad)).then((r) => ({
        ...r,
        creates: r.count,
      }))
      print(http)
      ratios.push(http.perSecond / rawResult.perSecond)
    }
    const percents = (values: number[]) =>
      `${values.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}; median ${(median(values) * 100).toFixed(0)}%`
    if (withFloor)
      console.log(`ratio floor/raw per round (bare node:http, JSON and base64 only): ${percents(floorRatios)}`)
    console.log(`ratio http/raw per round: ${percents(ratios)}  (targets: >= 50% and >= 500 creates/s)`)
    console.log(`process peak RSS: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`)
  } finally {
    for (const open of [server, floor]) {
      if (!open) continue
      open.closeAllConnections()
      await new Promise<void>((resolve) => open.close(() => resolve()))
    }
    await mailroom.close()
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
