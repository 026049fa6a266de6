import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Node's built-ins only: apps/server/vitest.config.ts loads this file before any workspace package resolves.

/**
 * Where the real capture client's class is looked for: `MAILROOM_OPEN_CAPTURE`, else
 * `../shared/reference/open-capture` beside the repository. It is GPL test material, never copied into the project.
 */
export const OPEN_CAPTURE_VARIABLE = 'MAILROOM_OPEN_CAPTURE'
/** The virtual environment scripts/install-capture-python.sh installs (its MAILROOM_CAPTURE_VENV). */
export const CAPTURE_VENV_VARIABLE = 'MAILROOM_CAPTURE_VENV'

const root = fileURLToPath(new URL('../../../../', import.meta.url))
const DRIVER = fileURLToPath(new URL('./drive_capture.py', import.meta.url))

export function openCaptureLocation(): string {
  return process.env[OPEN_CAPTURE_VARIABLE] || join(root, '..', 'shared', 'reference', 'open-capture')
}

function capturePython(): string {
  return join(process.env[CAPTURE_VENV_VARIABLE] || join(root, '.cache', 'capture-python'), 'bin', 'python')
}

/**
 * What this machine lacks to run the capture client, in one line, or null when it has everything: the class beside
 * the repository, and the Python that scripts/install-capture-python.sh installs (requests, holidays.FR).
 */
export function captureClientMissing(): string | null {
  const memo = globalThis as { mailroomCaptureClientMissing?: string | null }
  if (memo.mailroomCaptureClientMissing !== undefined) return memo.mailroomCaptureClientMissing
  const location = openCaptureLocation()
  const python = capturePython()
  // The call the class makes to compute a process limit date, not just the imports.
  const probe = "import requests, holidays; holidays.FR(prov='Métropole', years=2026)"
  memo.mailroomCaptureClientMissing = !existsSync(join(location, 'WebServices.py'))
    ? `the capture client's class is not at ${location}/WebServices.py (set ${OPEN_CAPTURE_VARIABLE}, or put it at ../shared/reference/open-capture beside the repository)`
    : spawnSync(python, ['-c', probe], { stdio: 'ignore', timeout: 30_000 }).status !== 0
      ? `${python} cannot import requests and holidays.FR (run bash scripts/install-capture-python.sh)`
      : null
  return memo.mailroomCaptureClientMissing
}

/**
 * For a vitest configuration: says once, in one line, that the capture-client test is skipped when something it
 * needs is missing, or, with CI=true, stops the run naming it (CI never passes by skipping it).
 */
export function announceCaptureClient(): void {
  const missing = captureClientMissing()
  if (missing === null) return
  if (process.env.CI === 'true' || process.env.CI === '1') throw new Error(`CI must run every test: ${missing}`)
  const memo = globalThis as { mailroomCaptureClientAnnounced?: boolean }
  if (memo.mailroomCaptureClientAnnounced) return
  memo.mailroomCaptureClientAnnounced = true
  process.stderr.write(`the capture-client test is skipped: ${missing}\n`)
}

/** One request a step sent, with Mailroom's answer (base64 files shortened, long bodies cut). */
export interface CaptureExchange {
  readonly request: string
  readonly body: string | null
  readonly status: number
  readonly answer: string | null
}

/** One line of the driver: a step of the workflow, whether the client got what it expects, and why not. */
export interface CaptureStep {
  readonly step: string
  readonly ok: boolean
  readonly detail: string
  readonly exchanges: readonly CaptureExchange[]
}

/** The driver's steps, in the order it runs them (capture-workflow.json's order, then the read-backs). */
export const CAPTURE_STEPS = [
  'connect',
  'retrieve_entities',
  'retrieve_doctypes',
  'retrieve_users',
  'retrieve_custom_fields',
  'create_contact',
  'retrieve_contact_by_id',
  'update_contact_external_id',
  'retrieve_doctype',
  'retrieve_workings_days',
  'calcul_process_limit_date',
  'insert_with_args',
  'read_letter_chrono',
  'insert_note',
  'insert_attachment_response_project',
  'insert_attachment_simple_attachment',
  'link_documents',
  'retrieve_res_id_master_by_chrono',
  'retrieve_listinstance',
  'change_status',
  'read_back_record',
  'read_back_file',
  'read_back_contact',
  'read_back_notes',
  'read_back_attachments',
  'read_back_links',
  'read_back_sender',
] as const

/** Runs drive_capture.py against the server at `url` (cchaplin), linking the new letter to `linkTo`; its steps. */
export async function driveCaptureClient(url: string, linkTo: number): Promise<CaptureStep[]> {
  const child = spawn(
    capturePython(),
    [DRIVER, '--open-capture', openCaptureLocation(), '--url', url, '--link-to', String(linkTo)],
    {
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONIOENCODING: 'utf-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
  if (code !== 0) throw new Error(`the capture driver exited with ${code}:\n${stderr}${stdout}`)
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as CaptureStep)
}

const MESSAGE_BODY_LIMIT = 800

/** A failed step for the test's message: what the client expected and got, then each request with its answer. */
export function describeStep(step: CaptureStep): string {
  const exchanges = step.exchanges.map(
    (e) =>
      `\n  ${e.request}${e.body ? ` ${e.body.slice(0, MESSAGE_BODY_LIMIT)}` : ''}\n    → ${e.status} ${e.answer ?? ''}`,
  )
  return `${step.step}: ${step.detail}${exchanges.join('')}`
}

/** A request as its route: the method and the path under /rest with ids as `{id}`, query kept. */
export function routeOf(method: string, pathAndQuery: string): string {
  return `${method} ${pathAndQuery.replace(/^\/rest/, '').replace(/\/\d+(?=\/|\?|$)/g, '/{id}')}`
}

/** The top-level keys of a JSON object body, sorted ([] for none). */
export function bodyKeys(body: unknown): string[] {
  return body !== null && typeof body === 'object' ? Object.keys(body).sort() : []
}

/** The routes the client's own steps (not the read-backs) called, each with the keys of the body it sent. */
export function clientRequests(steps: readonly CaptureStep[]): Map<string, string[]> {
  const sent = new Map<string, string[]>()
  for (const step of steps) {
    if (step.step.startsWith('read_')) continue
    for (const exchange of step.exchanges) {
      const [method, path] = exchange.request.split(' ') as [string, string]
      sent.set(routeOf(method, path), bodyKeys(exchange.body === null ? null : JSON.parse(exchange.body)))
    }
  }
  return sent
}
