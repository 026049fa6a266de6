import { type ChildProcess, spawn } from 'node:child_process'
import { accessSync, existsSync, constants as fsConstants, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ConversionObserver, ConvertInput } from '@mailroom/core'
import { domainError, fail, isDomainError } from '@mailroom/core'
import { normaliseFormat } from '@mailroom/core/internal'
import { looksLikePdf, type OfficeConverter } from './pdf-converter.js'

const SOFFICE_CANDIDATES = [
  '/usr/bin/soffice',
  '/usr/lib/libreoffice/program/soffice',
  '/opt/libreoffice/program/soffice',
  '/Applications/LibreOffice.app/Contents/MacOS/soffice',
]

function isExecutable(path: string): boolean {
  try {
    accessSync(path, fsConstants.X_OK)
    return true
  } catch {
    return false
  }
}

function findOnPath(names: readonly string[]): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue
    for (const name of names) if (isExecutable(join(dir, name))) return join(dir, name)
  }
  return undefined
}

/** Path of LibreOffice's `soffice`: `MAILROOM_SOFFICE`, then PATH, then the usual install places; undefined when absent. */
export function findSoffice(): string | undefined {
  const configured = process.env.MAILROOM_SOFFICE
  if (configured && isExecutable(configured)) return configured
  return findOnPath(['soffice', 'libreoffice']) ?? SOFFICE_CANDIDATES.find(isExecutable)
}

/** Path of `unoconv` (the client of a warm LibreOffice listener), undefined when absent. */
export function findUnoconv(): string | undefined {
  return findOnPath(['unoconv'])
}

/** Settings of {@link LibreOfficeConverter}. */
export interface LibreOfficeConverterOptions {
  /** `soffice` path; {@link findSoffice} by default. */
  readonly sofficePath?: string
  /**
   * LibreOffice user profile directory, reused by every conversion of this converter so only the first one
   * pays for creating it. Never share one between converters that may run at the same time.
   */
  readonly profileDir?: string
  /** Where per-conversion temporary folders are made; the OS temp dir by default. */
  readonly workDir?: string
  /** Time allowed to any conversion (30 s). */
  readonly baseTimeoutMs?: number
  /** Extra time per started 100 KB of input (1 s). */
  readonly timeoutPer100KbMs?: number
  /** Conversions allowed to wait behind the running one (16); more fail with CONVERSION_QUEUE_FULL. */
  readonly maxQueue?: number
  /**
   * `process`: one `soffice --convert-to` per file (cold start each time, ~1 s). `listener`: a LibreOffice
   * kept running and driven by `unoconv` (~0.3 s), restarted after any failure. `auto` (default): listener
   * when `unoconv` is installed.
   */
  readonly mode?: 'process' | 'listener' | 'auto'
  /** `unoconv` path; {@link findUnoconv} by default. */
  readonly unoconvPath?: string
  /** Told when the warm LibreOffice is started again (metrics); nothing by default. */
  readonly observer?: Pick<ConversionObserver, 'libreOfficeRestarted'>
}

interface RunResult {
  code: number | null
  signal: NodeJS.Signals | null
  output: string
  timedOut: boolean
}

const OUTPUT_LIMIT = 8 * 1024

/**
 * Converts office documents (doc/docx/odt/rtf/xls/xlsx/ods/ppt/pptx/odp/html/eml…) to PDF with LibreOffice
 * headless. One conversion at a time (LibreOffice cannot share a profile between processes), a bounded
 * queue, a timeout growing with the file size that kills the whole process group, and temporary files
 * removed whatever happens. Failures are `Conversion error : <detail>`.
 */
export class LibreOfficeConverter implements OfficeConverter {
  readonly #soffice: string | undefined
  readonly #profileDir: string
  readonly #workDir: string
  readonly #baseTimeoutMs: number
  readonly #per100KbMs: number
  readonly #maxQueue: number
  readonly #unoconv: string | undefined
  #pending = 0
  #tail: Promise<unknown> = Promise.resolve()
  #listener: { process: ChildProcess; connection: string } | undefined
  #closed = false
  #listenerFailures = 0
  #listenerStarts = 0
  readonly #observer: Pick<ConversionObserver, 'libreOfficeRestarted'> | undefined

  constructor(options: LibreOfficeConverterOptions = {}) {
    this.#soffice = options.sofficePath ?? findSoffice()
    this.#workDir = options.workDir ?? tmpdir()
    this.#profileDir =
      options.profileDir ??
      join(this.#workDir, `mailroom-libreoffice-profile-${process.pid}-${Math.random().toString(36).slice(2, 10)}`)
    this.#baseTimeoutMs = options.baseTimeoutMs ?? 30_000
    this.#per100KbMs = options.timeoutPer100KbMs ?? 1_000
    this.#maxQueue = options.maxQueue ?? 16
    this.#observer = options.observer
    const mode = options.mode ?? 'auto'
    this.#unoconv = mode === 'process' ? undefined : (options.unoconvPath ?? findUnoconv())
    if (mode === 'listener' && !this.#unoconv) throw new Error('LibreOfficeConverter: listener mode needs unoconv')
  }

  /** True when LibreOffice was found. */
  get available(): boolean {
    return this.#soffice !== undefined
  }

  /** `listener` when conversions go through a warm LibreOffice, else `process`. */
  get mode(): 'process' | 'listener' {
    return this.#useListener() ? 'listener' : 'process'
  }

  // Two failures in a row mean unoconv cannot drive this LibreOffice (missing python3-uno, …): stop trying.
  #useListener(): boolean {
    return this.#unoconv !== undefined && this.#listenerFailures < 2
  }

  /** Conversions running or waiting. */
  get pending(): number {
    return this.#pending
  }

  /** Time allowed to convert a file of `size` bytes. */
  timeoutFor(size: number): number {
    return this.#baseTimeoutMs + Math.ceil(size / 102_400) * this.#per100KbMs
  }

  /** Converts one file; queued behind the running conversion, refused when the queue is full. */
  convert(input: ConvertInput): Promise<Uint8Array> {
    if (this.#closed) return Promise.reject(domainError('CONVERSION_FAILED', { detail: 'converter is closed' }))
    if (!this.#soffice) {
      return Promise.reject(
        domainError('CONVERSION_FAILED', {
          detail: 'LibreOffice is not installed, office documents cannot be converted',
        }),
      )
    }
    if (this.#pending > this.#maxQueue) return Promise.reject(domainError('CONVERSION_QUEUE_FULL'))
    this.#pending++
    const run = this.#tail.then(() => this.#convertNow(input))
    this.#tail = run.catch(() => undefined)
    return run.finally(() => {
      this.#pending--
    })
  }

  /** Stops the warm LibreOffice (if any) and removes the profile. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#tail
    this.#stopListener()
    await rm(this.#profileDir, { recursive: true, force: true })
  }

  async #convertNow(input: ConvertInput): Promise<Uint8Array> {
    const extension = normaliseFormat(input.format).replace(/[^a-z0-9]/g, '') || 'bin'
    await mkdir(this.#workDir, { recursive: true })
    const dir = await mkdtemp(join(this.#workDir, 'mailroom-convert-'))
    try {
      const source = join(dir, `document.${extension}`)
      const target = join(dir, 'document.pdf')
      await writeFile(source, input.bytes)
      const timeoutMs = this.timeoutFor(input.bytes.length)
      let result: RunResult
      if (this.#useListener()) {
        result = await this.#viaListener(source, target, timeoutMs).catch(
          (error: unknown): RunResult => ({ code: null, signal: null, output: String(error), timedOut: false }),
        )
        // A dead or wedged listener must not make every later conversion fail: retry once the cold way.
        if (!result.timedOut && !(await pdfReady(target))) {
          this.#stopListener()
          this.#listenerFailures++
          result = await this.#viaProcess(source, dir, timeoutMs)
        } else if (!result.timedOut) {
          this.#listenerFailures = 0
        }
      } else {
        result = await this.#viaProcess(source, dir, timeoutMs)
      }
      if (result.timedOut)
        fail('CONVERSION_FAILED', { detail: `LibreOffice did not finish within ${timeoutMs} ms and was stopped` })
      const pdf = existsSync(target) ? new Uint8Array(await readFile(target)) : undefined
      if (!pdf || pdf.length === 0 || !looksLikePdf(pdf)) {
        const why = result.output.trim().split('\n').slice(-3).join(' ').slice(0, 500)
        fail('CONVERSION_FAILED', {
          detail: `LibreOffice produced no PDF (exit ${result.code ?? result.signal})${why ? `: ${why}` : ''}`,
        })
      }
      return pdf
    } catch (error) {
      if (isDomainError(error)) throw error
      throw domainError('CONVERSION_FAILED', { detail: error instanceof Error ? error.message : String(error) })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }

  #profileArg(): string {
    return `-env:UserInstallation=${pathToFileURL(this.#profileDir).href}`
  }

  #viaProcess(source: string, outDir: string, timeoutMs: number): Promise<RunResult> {
    const args = [
      '--headless',
      '--invisible',
      '--norestore',
      '--nolockcheck',
      '--nodefault',
      '--nologo',
      this.#profileArg(),
    ]
    // HTML opens in Writer/Web by default, whose PDF export drops the body: open it as a Writer document.
    const html = /\.html?$/.test(source)
      ? ['--infilter=HTML (StarWriter)', '--convert-to', 'pdf:writer_pdf_Export']
      : ['--convert-to', 'pdf']
    return run(this.#soffice as string, [...args, ...html, '--outdir', outDir, source], timeoutMs)
  }

  async #viaListener(source: string, target: string, timeoutMs: number): Promise<RunResult> {
    const listener = await this.#startListener()
    const unoconv = this.#unoconv as string
    const python = isPythonScript(unoconv) && existsSync('/usr/bin/python3') ? '/usr/bin/python3' : undefined
    // unoconv's own -T is how long it waits for the listener to accept; the first call also waits for startup.
    const args = ['--connection', listener.connection, '--no-launch', '-T', '20', '-f', 'pdf', '-o', target, source]
    const result = python ? await run(python, [unoconv, ...args], timeoutMs) : await run(unoconv, args, timeoutMs)
    if (result.timedOut) this.#stopListener()
    return result
  }

  async #startListener(): Promise<{ process: ChildProcess; connection: string }> {
    if (this.#listener && this.#listener.process.exitCode === null && this.#listener.process.signalCode === null)
      return this.#listener
    // Every start after the first replaces a listener that died, hung or failed a conversion.
    if (this.#listenerStarts++ > 0) this.#observer?.libreOfficeRestarted()
    const port = await freePort()
    const connection = `socket,host=127.0.0.1,port=${port};urp;StarOffice.ComponentContext`
    const child = spawn(
      this.#soffice as string,
      [
        '--headless',
        '--invisible',
        '--norestore',
        '--nolockcheck',
        '--nodefault',
        '--nologo',
        this.#profileArg(),
        `--accept=${connection}`,
      ],
      { detached: true, stdio: 'ignore' },
    )
    child.unref()
    child.on('error', () => undefined)
    LIVE_LISTENERS.add(child)
    child.once('exit', () => LIVE_LISTENERS.delete(child))
    const listener = { process: child, connection }
    this.#listener = listener
    // unoconv --no-launch gives up at once when nothing listens yet: wait for the socket (cold start ~1–3 s).
    if (!(await waitForPort(port, 20_000, child))) {
      this.#stopListener()
      throw new Error('LibreOffice listener did not start')
    }
    return listener
  }

  #stopListener(): void {
    const listener = this.#listener
    this.#listener = undefined
    if (listener) killGroup(listener.process)
  }
}

// unoconv says `#!/usr/bin/env python3`, which may find a python (pyenv, venv) without LibreOffice's `uno`
// module; Debian's python3-uno belongs to the system interpreter.
function isPythonScript(path: string): boolean {
  try {
    return readFileSync(path, { encoding: 'latin1' }).slice(0, 100).split('\n', 1)[0]?.includes('python') ?? false
  } catch {
    return false
  }
}

// Listeners run in their own process group and would outlive a crashed or exiting server: kill them on exit.
const LIVE_LISTENERS = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of LIVE_LISTENERS) killGroup(child)
})

async function pdfReady(path: string): Promise<boolean> {
  try {
    return looksLikePdf(new Uint8Array(await readFile(path)))
  } catch {
    return false
  }
}

async function waitForPort(port: number, timeoutMs: number, child: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return true
    await new Promise((r) => setTimeout(r, 100))
  }
  return false
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return
  try {
    // Negative pid: the whole group, so soffice.bin (started by the soffice wrapper) dies too.
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    try {
      child.kill('SIGKILL')
    } catch {}
  }
}

/** Runs a command in its own process group with a timeout that kills the group; keeps the output tail. */
function run(command: string, args: readonly string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    let output = ''
    let timedOut = false
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT)
    }
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOME: process.env.HOME ?? tmpdir() },
    })
    child.stdout?.on('data', keep)
    child.stderr?.on('data', keep)
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child)
    }, timeoutMs)
    child.on('error', (error) => {
      clearTimeout(timer)
      resolve({ code: null, signal: null, output: error.message, timedOut })
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, output, timedOut })
    })
  })
}
