import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTestDatabase } from '@mailroom/testing'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../packages/testing/src/fixtures/files/index.js'
import { loadConfig } from '../src/config.js'
import { type RunningServer, startServer } from '../src/serve.js'

type TestDatabase = Awaited<ReturnType<typeof createTestDatabase>>

/**
 * Every shell command of the documentation runs here, as written, against a served Mailroom with the demo
 * data: the ```sh blocks of a page run in order in one bash session (so a variable set by one block serves
 * the next), with `set -euo pipefail` and curl failing on any HTTP error. A block that cannot run (one that
 * starts a server until stopped, a synopsis) says why in an HTML comment `<!-- not run: … -->` right above
 * it; any other block of any page must belong to a page run here.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url))
const MAIN = join(root, 'apps/server/dist/main.js')
/** In this order: the user guide registers record 1, which its later commands read. */
const RUN_PAGES = ['docs/user-guide.md', 'docs/tour.md', 'README.md', 'docs/operator-guide.md']
const DOCUMENTED_URL = 'http://127.0.0.1:8080'

interface ShellBlock {
  readonly code: string
  readonly notRun: string | undefined
}

function shellBlocks(markdown: string): ShellBlock[] {
  return [...markdown.matchAll(/(?:<!-- not run: ([^>]*?) -->\n)?^```sh\n([\s\S]*?)^```$/gm)].map(
    ([, notRun, code]) => ({ code: code!, notRun }),
  )
}

async function pagesWithShell(): Promise<string[]> {
  const docs = (await readdir(join(root, 'docs'))).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)
  return ['README.md', ...docs]
}

describe('documentation commands', () => {
  it('belong to a page this test runs, or say why they are not run', async () => {
    const unrun: string[] = []
    for (const page of await pagesWithShell()) {
      const blocks = shellBlocks(await readFile(join(root, page), 'utf8'))
      if (RUN_PAGES.includes(page)) continue
      for (const block of blocks) if (!block.notRun) unrun.push(`${page}: ${block.code.split('\n')[0]}`)
    }
    expect(unrun).toEqual([])
  })
})

// The commands share one PostgreSQL database between the server and the command line (PGlite is one process's).
describe.runIf(process.env.MAILROOM_TEST_DB === 'postgres')('documentation commands, run', () => {
  let running: RunningServer
  let database: TestDatabase
  let restore: TestDatabase
  let work: string
  let env: Record<string, string>

  beforeAll(async () => {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (pnpm build), as npm test does`)
    database = await createTestDatabase('postgres', { withDemo: true })
    restore = await createTestDatabase()
    work = await mkdtemp(join(tmpdir(), 'mailroom-docs-'))
    env = {
      DATABASE_URL: database.url!,
      MAILROOM_SECRET: 'docs-commands-secret-0123456789',
      MAILROOM_DATA_DIR: join(work, 'data'),
      MAILROOM_DOCSERVER_DIR: join(work, 'docservers'),
      MAILROOM_DEMO: '1',
      PORT: '0',
    }
    running = await startServer(loadConfig(env), pino({ level: 'silent' }))
    await writeFile(join(work, 'letter.pdf'), makePdf({ pages: 1 }))
  }, 120_000)
  afterAll(async () => {
    await running?.stop()
    await database?.drop()
    await restore?.drop()
    if (work) await rm(work, { recursive: true, force: true })
  })

  it.each(RUN_PAGES)(
    '%s: every command succeeds as written',
    async (page) => {
      const blocks = shellBlocks(await readFile(join(root, page), 'utf8')).filter((block) => !block.notRun)
      expect(blocks.length).toBeGreaterThan(0)
      const script = [
        'set -euo pipefail',
        `mailroom() { node ${JSON.stringify(MAIN)} "$@"; }`,
        'curl() { command curl --silent --show-error --fail-with-body "$@"; }',
        ...blocks.map(
          (block, index) => `echo "--- block ${index + 1}" >&2\n${block.code.replaceAll(DOCUMENTED_URL, running.url)}`,
        ),
      ].join('\n')
      const result = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile(
          'bash',
          ['-c', script],
          {
            cwd: work,
            env: { ...process.env, ...env, RESTORE_URL: restore.url!, RESTORE_DIR: join(work, 'restored-docservers') },
            maxBuffer: 64 * 1024 * 1024,
            timeout: 120_000,
          },
          (error, stdout, stderr) =>
            resolve({
              code: error ? Number((error as { code?: number }).code ?? 1) : 0,
              output: `${stdout.slice(-3000)}\n${stderr.slice(-3000)}`,
            }),
        )
      })
      expect(result, result.output).toMatchObject({ code: 0 })
    },
    180_000,
  )
})
