import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../testing/src/fixtures/files/index.js'
import { tour } from './examples/tour.js'

const TOUR_SOURCE = new URL('./examples/tour.ts', import.meta.url)
const TOUR_PAGE = new URL('../../../docs/tour.md', import.meta.url)
const SDK_DIR = fileURLToPath(new URL('..', import.meta.url))
const BIN = fileURLToPath(new URL('../../../node_modules/.bin/', import.meta.url))
const run = promisify(execFile)

/** The `#region` bodies of the tour's code, dedented to the level the page shows them at. */
function regions(source: string): string[] {
  return [...source.matchAll(/^( *)\/\/ #region \w+\n([\s\S]*?)\n *\/\/ #endregion/gm)].map(([, indent, body]) =>
    body!
      .split('\n')
      .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
      .join('\n'),
  )
}

/** The ```ts blocks of the page. */
function tsBlocks(page: string): string[] {
  return [...page.matchAll(/^```ts\n([\s\S]*?)\n```$/gm)].map(([, body]) => body!)
}

let s: TestServer
let dir: string
beforeAll(async () => {
  s = await startTestServer()
  dir = await mkdtemp(join(tmpdir(), 'mailroom-tour-'))
})
afterAll(async () => {
  await s?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('docs/tour.md', () => {
  it('shows exactly the code that runs', async () => {
    const code = regions(await readFile(TOUR_SOURCE, 'utf8'))
    const [setup, ...shown] = tsBlocks(await readFile(TOUR_PAGE, 'utf8'))
    expect(code).toHaveLength(6)
    expect(shown).toEqual(code)
    // The first block sets up what the tour function receives.
    for (const name of ['baseUrl', 'letter', 'downloadTo']) expect(setup).toMatch(new RegExp(`^const ${name} = `, 'm'))
    expect(setup).toContain("from '@mailroom/sdk'")
  })

  it('runs as written against a real server', async () => {
    const letter = makePdf({ pages: 2 })
    const downloadTo = join(dir, 'courrier.pdf')
    const result = await tour({ baseUrl: s.baseUrl, letter, downloadTo })
    expect(result.count).toBeGreaterThanOrEqual(1)
    expect(result.chrono).toMatch(/^MAARCH\/\d{4}A\/\d+$/)
    expect(new TextDecoder().decode(result.pdf.subarray(0, 5))).toBe('%PDF-')
    expect(new Uint8Array(await readFile(downloadTo))).toEqual(result.pdf)
    expect(result.history[0]).toMatchObject({ eventType: 'UP', info: 'Pris en charge par le service', login: 'bbain' })
    expect(result.deposit).toMatchObject({
      eventType: 'recordsManagement/deposit',
      objectClass: 'recordsManagement/archive',
    })
    expect(result.deposit?.eventInfo[0]).toMatchObject({
      resId: String(result.resId),
      hashAlgorithm: 'SHA256',
      size: letter.length,
    })
    expect(result.chain).toMatchObject({ safe: '21750001600019', verified: true, pendingEvents: 0, firstBreak: null })
  })

  it('compiles and runs when its blocks are pasted in order into one file', async () => {
    await writeFile(join(dir, 'letter.pdf'), makePdf({ pages: 1 }))
    const pasted = tsBlocks(await readFile(TOUR_PAGE, 'utf8'))
      .join('\n\n')
      .replace("'http://127.0.0.1:8080'", JSON.stringify(s.baseUrl))
      .replace("'letter.pdf'", JSON.stringify(join(dir, 'letter.pdf')))
      .replace("'courrier.pdf'", JSON.stringify(join(dir, 'courrier.pdf')))
    // Inside the SDK package, so `@mailroom/sdk` resolves to the package itself, as it would once installed.
    const work = await mkdtemp(join(SDK_DIR, '.tmp-tour-'))
    try {
      await writeFile(
        join(work, 'tour.ts'),
        `${pasted}\nconsole.log(JSON.stringify({ resId, count, chrono, history: history.length }))\n`,
      )
      await writeFile(
        join(work, 'tsconfig.json'),
        JSON.stringify({
          extends: '../../../tsconfig.base.json',
          compilerOptions: { noEmit: true, module: 'nodenext' },
          files: ['tour.ts'],
        }),
      )
      await run(join(BIN, 'tsc'), ['-p', join(work, 'tsconfig.json')], { cwd: work })
      const { stdout } = await run(
        process.execPath,
        ['--conditions=source', '--no-deprecation', '--import', 'tsx', join(work, 'tour.ts')],
        { cwd: work },
      )
      const out = JSON.parse(stdout.trim().split('\n').pop()!)
      expect(out.resId).toBeGreaterThan(0)
      expect(out.chrono).toMatch(/^MAARCH\/\d{4}A\/\d+$/)
      expect(out.history).toBeGreaterThanOrEqual(1)
      expect(new TextDecoder().decode((await readFile(join(dir, 'courrier.pdf'))).subarray(0, 5))).toBe('%PDF-')
    } finally {
      await rm(work, { recursive: true, force: true })
    }
  }, 120_000)
})
