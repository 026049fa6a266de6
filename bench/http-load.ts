/**
 * HTTP load from a worker thread: the clients run on their own event loop (and core), as a load generator
 * on another machine would, so the server's event loop measures only the server. Every HTTP phase of the
 * benchmarks, baselines included, goes through this one client: keep-alive sockets, one request in flight
 * per client, the body read to its end and checked against Content-Length.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { type PhaseResult, runPhase } from './bench-kit.js'

/** One request the clients repeat; `bodies` rotate per request when there are several. */
export interface LoadRequest {
  readonly url: string
  readonly method?: 'GET' | 'POST' | 'PUT'
  readonly headers?: Record<string, string>
  readonly bodies?: readonly string[]
  /** Headers added to `headers`, rotating per request when there are several (other credentials, say). */
  readonly headerVariants?: readonly Record<string, string>[]
  /** Status every response must have (default 200), or the statuses it may have. */
  readonly status?: number | readonly number[]
}

interface LoadJob {
  readonly name: string
  readonly clients: number
  readonly seconds: number
  readonly request: LoadRequest
}

/** An HTTP phase's result, with the CPU the calling thread (the server's event loop) spent per response. */
export interface HttpPhaseResult extends PhaseResult {
  /** Milliseconds of the event loop's CPU per response (Linux; NaN elsewhere). */
  readonly loopCpuMsPerResponse: number
  /** Milliseconds of the whole machine's busy CPU per response (Linux /proc/stat; NaN elsewhere): server, clients, PostgreSQL, kernel. */
  readonly machineCpuMsPerResponse: number
  /** The server's share of it: this process's CPU but the load generator's thread (Linux; NaN elsewhere). */
  readonly serverCpuMsPerResponse: number
  /** PostgreSQL's share: every local process named postgres (Linux; NaN elsewhere, 0 for a remote server). */
  readonly postgresCpuMsPerResponse: number
  /** The load generator thread's share. */
  readonly generatorCpuMsPerResponse: number
  /** The local Ceph test cluster's share (0 when none runs). */
  readonly gatewayCpuMsPerResponse: number
}

/** CPU time (user and system) in milliseconds of every local process named `postgres`, from /proc; NaN elsewhere. */
export function postgresCpuMs(): number {
  return namedProcessesCpuMs(['postgres'])
}

/** CPU time of the local Ceph test cluster's processes (gateway, OSD, monitor), from /proc; NaN elsewhere. */
export function gatewayCpuMs(): number {
  return namedProcessesCpuMs(['radosgw', 'ceph-osd', 'ceph-mon'])
}

/** CPU time (user and system) in milliseconds of every local process whose name is one of `names`, from /proc; NaN elsewhere. */
export function namedProcessesCpuMs(names: readonly string[]): number {
  const wanted = names.map((name) => `(${name})`)
  try {
    let total = 0
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      let stat: string
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      } catch {
        continue // gone meanwhile
      }
      if (!wanted.some((name) => stat.includes(name))) continue
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ')
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
    }
    return total
  } catch {
    return Number.NaN
  }
}

/** CPU time (user and system) of this whole process in milliseconds: every thread. */
export function processCpuMs(): number {
  const usage = process.cpuUsage()
  return (usage.user + usage.system) / 1000
}

/** Busy CPU time of the whole machine in milliseconds (all cores, from /proc/stat); NaN elsewhere. */
export function machineCpuMs(): number {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number)
    // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    const busy = fields.slice(0, 8).reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0)
    return (busy * 1000) / 100
  } catch {
    return Number.NaN
  }
}

/**
 * CPU time of the calling thread in milliseconds, from /proc (Linux): the event loop's own share, which
 * process-wide figures would mix with the load generator's worker and the thread pool. NaN elsewhere.
 */
export function threadCpuMs(): number {
  try {
    const fields = readFileSync('/proc/thread-self/stat', 'utf8').split(') ')[1]?.split(' ') ?? []
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return Number.NaN
  }
}

/** Runs `clients` concurrent loops of `request` for `seconds` in a worker thread; same result shape as runPhase. */
export function runHttpPhase(
  name: string,
  clients: number,
  seconds: number,
  request: LoadRequest,
): Promise<HttpPhaseResult> {
  const job: LoadJob = { name, clients, seconds, request }
  // Resolved beside the bundle that calls it: tsup builds this file as its own entry (dist/http-load.js).
  const worker = new Worker(fileURLToPath(new URL('./http-load.js', import.meta.url)), { workerData: job })
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
  }, 100)
  const cpuBefore = threadCpuMs()
  const machineBefore = machineCpuMs()
  const processBefore = processCpuMs()
  const postgresBefore = postgresCpuMs()
  const gatewayBefore = gatewayCpuMs()
  return new Promise<HttpPhaseResult>((resolve, reject) => {
    worker.once(
      'message',
      ({ generatorCpuMs, ...result }: Omit<PhaseResult, 'peakRssMb'> & { generatorCpuMs: number }) => {
        const per = (ms: number) => ms / Math.max(1, result.count)
        resolve({
          ...result,
          peakRssMb: peakRss / 2 ** 20,
          loopCpuMsPerResponse: per(threadCpuMs() - cpuBefore),
          machineCpuMsPerResponse: per(machineCpuMs() - machineBefore),
          serverCpuMsPerResponse: per(processCpuMs() - processBefore - generatorCpuMs),
          postgresCpuMsPerResponse: per(postgresCpuMs() - postgresBefore),
          generatorCpuMsPerResponse: per(generatorCpuMs),
          gatewayCpuMsPerResponse: per(gatewayCpuMs() - gatewayBefore),
        })
      },
    )
    worker.once('error', reject)
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker exited with ${code}`))
    })
  }).finally(() => clearInterval(sampler))
}

async function generateLoad(job: LoadJob): Promise<Omit<PhaseResult, 'peakRssMb'> & { generatorCpuMs: number }> {
  const cpuBefore = threadCpuMs()
  const { Agent, request } = await import('node:http')
  const agent = new Agent({ keepAlive: true, maxSockets: job.clients })
  const { url, method = 'GET', headers: fixed = {}, bodies = [], headerVariants = [], status = 200 } = job.request
  const statuses = new Set(typeof status === 'number' ? [status] : status)
  const encoded = bodies.map((b) => Buffer.from(b))
  let next = 0
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const turn = next++
      const body = encoded.length > 0 ? encoded[turn % encoded.length] : undefined
      const headers = headerVariants.length > 0 ? { ...fixed, ...headerVariants[turn % headerVariants.length] } : fixed
      const req = request(
        url,
        { agent, method, headers: body ? { ...headers, 'content-length': String(body.length) } : headers },
        (res) => {
          let received = 0
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => {
            received += chunk.length
            if (!statuses.has(res.statusCode ?? 0) && chunks.length < 4) chunks.push(chunk)
          })
          res.on('end', () => {
            const expected = Number(res.headers['content-length'] ?? received)
            if (!statuses.has(res.statusCode ?? 0))
              reject(new Error(`status ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))
            else if (received !== expected) reject(new Error(`short body ${received}/${expected}`))
            else resolve()
          })
          res.on('error', reject)
        },
      )
      req.on('error', reject)
      req.end(body)
    })
  try {
    const { peakRssMb: _, ...result } = await runPhase(job.name, job.clients, job.seconds, once)
    return { ...result, generatorCpuMs: threadCpuMs() - cpuBefore }
  } finally {
    agent.destroy()
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort
  generateLoad(workerData as LoadJob).then(
    (result) => port.postMessage(result),
    (error: unknown) => {
      console.error(error)
      process.exitCode = 1
    },
  )
}
