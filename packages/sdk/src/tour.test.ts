import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '@mailroom/http-koa/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../testing/src/fixtures/files/index.js'
import { tour } from './examples/tour.js'

const TOUR_SOURCE = new URL('./examples/tour.ts', import.meta.url)
const TOUR_PAGE = new URL('../../../docs/tour.md', import.meta.url)

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
    expect(result.deposit).toMatchObject({ eventType: 'recordsManagement/deposit', objectClass: 'recordsManagement/archive' })
    expect(result.deposit?.eventInfo[0]).toMatchObject({ resId: String(result.resId), hashAlgorithm: 'SHA256', size: letter.length })
  })
})
