import { readFile } from 'node:fs/promises'
import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clerksDay } from './examples/clerks-day.js'

const SOURCE = new URL('./examples/clerks-day.ts', import.meta.url)
const GUIDE = new URL('../../../docs/user-guide.md', import.meta.url)

/** The `#region` bodies of the code, dedented to the level the page shows them at. */
function regions(source: string): string[] {
  return [...source.matchAll(/^( *)\/\/ #region \w+\n([\s\S]*?)\n *\/\/ #endregion/gm)].map(([, indent, body]) =>
    body!
      .split('\n')
      .map((line) => (line.startsWith(indent!) ? line.slice(indent!.length) : line))
      .join('\n'),
  )
}

/** The ```ts blocks of the guide's section "A clerk's day with the SDK". */
function sectionBlocks(page: string): string[] {
  const section = page.split("### A clerk's day with the SDK\n")[1]?.split(/^##/m)[0] ?? ''
  return [...section.matchAll(/^```ts\n([\s\S]*?)\n```$/gm)].map(([, body]) => body!)
}

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => {
  await s?.close()
})

describe("docs/user-guide.md: a clerk's day with the SDK", () => {
  it('shows exactly the code that runs', async () => {
    const code = regions(await readFile(SOURCE, 'utf8'))
    expect(code).toHaveLength(4)
    expect(sectionBlocks(await readFile(GUIDE, 'utf8'))).toEqual(code)
  })

  it('runs as written against a server with the demo data: the letter is treated, noted and unlocked', async () => {
    const day = await clerksDay(s.baseUrl)
    expect(day.resId).toBe(day.filed)
    expect(day.count).toBeGreaterThanOrEqual(1)
    expect(day.locked).toEqual({ countLockedResources: 0, lockers: [], resourcesToProcess: [day.resId] })
    expect(day.actions.map((action) => action.label)).toContain('Traiter courrier')
    expect(day.answer).toBeNull()
    const row = await s.mailroom.db
      .selectFrom('res_letterbox')
      .select(['status', 'locker_user_id'])
      .where('res_id', '=', day.resId)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ status: 'COU', locker_user_id: null })
    const notes = await s.mailroom.db
      .selectFrom('notes')
      .select('note_text')
      .where('identifier', '=', day.resId)
      .execute()
    expect(notes).toEqual([{ note_text: 'Rappelée, rendez-vous le 4' }])
  })
})
