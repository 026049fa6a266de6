/**
 * HTTP load from a worker thread: the clients run on their own event loop (and core), as a load generator
 * on another machine would, so the server's event loop measures only the server. Every HTTP phase of the
 * benchmarks, baselines included, goes through this one client: keep-alive sockets, one request in flight
 * per client, the body read to its end and checked against Content-Length.
 */
import { fileURLToPath } from 'node:url'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'
import { type PhaseResult, runPhase } from './bench-kit.js'

/** One request the clients repeat; `bodies` rotate per request when there are several. */
export interface LoadRequest {
  readonly url: string
  readonly method?: 'GET' | 'POST' | 'PUT'
  readonly headers?: Record<string, string>
  readonly bodies?: readonly string[]
  /** Status every response must have (default 200). */
  readonly status?: number
}

interface LoadJob {
  readonly name: string
  readonly clients: number
  readonly seconds: number
  readonly request: LoadRequest
}

/** Runs `clients` concurrent loops of `request` for `seconds` in a worker thread; same result shape as runPhase. */
export function runHttpPhase(name: string, clients: number, seconds: number, request: LoadRequest): Promise<PhaseResult> {
  const job: LoadJob = { name, clients, seconds, request }
  // Resolved beside the bundle that calls it: tsup builds this file as its own entry (dist/http-load.js).
  const worker = new Worker(fileURLToPath(new URL('./http-load.js', import.meta.url)), { workerData: job })
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
  }, 100)
  return new Promise<PhaseResult>((resolve, reject) => {
    worker.once('message', (result: Omit<PhaseResult, 'peakRssMb'>) => resolve({ ...result, peakRssMb: peakRss / 2 ** 20 }))
    worker.once('error', reject)
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker exited with ${code}`))
    })
  }).finally(() => clearInterval(sampler))
}

async function generateLoad(job: LoadJob): Promise<Omit<PhaseResult, 'peakRssMb'>> {
  const { Agent, request } = await import('node:http')
  const agent = new Agent({ keepAlive: true, maxSockets: job.clients })
  const { url, method = 'GET', headers = {}, bodies = [], status = 200 } = job.request
  const encoded = bodies.map((b) => Buffer.from(b))
  let next = 0
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const body = encoded.length > 0 ? encoded[next++ % encoded.length] : undefined
      const req = request(url, { agent, method, headers: body ? { ...headers, 'content-length': String(body.length) } : headers }, (res) => {
        let received = 0
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => {
          received += chunk.length
          if (res.statusCode !== status && chunks.length < 4) chunks.push(chunk)
        })
        res.on('end', () => {
          const expected = Number(res.headers['content-length'] ?? received)
          if (res.statusCode !== status) reject(new Error(`status ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`))
          else if (received !== expected) reject(new Error(`short body ${received}/${expected}`))
          else resolve()
        })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end(body)
    })
  try {
    const { peakRssMb: _, ...result } = await runPhase(job.name, job.clients, job.seconds, once)
    return result
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
