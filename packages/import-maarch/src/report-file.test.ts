import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AttachmentEntry, JsonReportFile, type MaarchImportSummary, type RecordEntry } from './index.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mailroom-report-file-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const summary = (counts: Partial<MaarchImportSummary['counts']> = {}): MaarchImportSummary => ({
  sourceVersion: '20.10.16',
  dryRun: false,
  organisation: {
    applied: true,
    lines: ['entities: +1 ~0 -0'],
    notes: [{ section: 'groups', id: 'G', message: 'clause "a\nb" not understood' }],
  },
  interrupted: false,
  resumed: null,
  counts: { imported: 0, repaired: 0, flagged: 0, skipped: 0, attachmentsNotImported: 0, ...counts },
  chronoCounters: [{ counter: 'chrono_incoming_2020', value: 12 }],
  bytes: 42,
})

const text = fc.string({ unit: 'grapheme', maxLength: 12 })
const entry: fc.Arbitrary<RecordEntry> = fc.oneof(
  fc.record({ outcome: fc.constant('skipped' as const), resId: fc.nat(), reason: text }),
  fc.record({
    outcome: fc.constantFrom('imported' as const, 'repaired' as const, 'flagged' as const),
    resId: fc.nat(),
    chrono: fc.option(text, { nil: null }),
    problems: fc.array(text, { maxLength: 2 }),
  }),
)
const attachment: fc.Arbitrary<AttachmentEntry> = fc.record({
  resId: fc.nat(),
  resIdMaster: fc.option(fc.nat(), { nil: null }),
  title: fc.option(text, { nil: null }),
})

let n = 0
async function write(pages: RecordEntry[][], attachments: AttachmentEntry[][]): Promise<string> {
  const path = join(dir, `report-${n++}.json`)
  const file = await JsonReportFile.create(path)
  const whole = summary()
  await file.begin(whole)
  for (const page of pages) await file.records(page)
  for (const page of attachments) await file.attachments(page)
  await file.finish(whole)
  await file.close()
  return path
}

describe('the JSON report written as the import goes', () => {
  it('is one valid JSON document holding every page of records and attachments in order, and the summary', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(entry, { maxLength: 4 }), { maxLength: 4 }),
        fc.array(fc.array(attachment, { maxLength: 3 }), { maxLength: 3 }),
        async (pages, attachments) => {
          const path = await write(pages, attachments)
          const parsed = JSON.parse(await readFile(path, 'utf8'))
          expect(parsed).toEqual({
            ...summary(),
            records: pages.flat(),
            notImported: { attachments: attachments.flat() },
          })
          await rm(path)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('puts one record per line, so a report too large to parse whole can be read line by line', async () => {
    const records: RecordEntry[] = [
      { outcome: 'repaired', resId: 1, chrono: 'MAARCH/2020A/1' },
      { outcome: 'skipped', resId: 2, reason: 'already imported' },
    ]
    const lines = (await readFile(await write([records], []), 'utf8')).split('\n')
    expect(lines.filter((l) => l.startsWith('    {')).map((l) => JSON.parse(l.replace(/,$/, '')))).toEqual(records)
  })

  it('is only named FILE once whole: a run that stops before the end leaves FILE.partial, one that never began leaves nothing', async () => {
    const crashed = join(dir, 'crashed.json')
    const file = await JsonReportFile.create(crashed)
    await file.begin(summary())
    await file.records([{ outcome: 'imported', resId: 1, chrono: null }])
    await file.close()
    expect((await readdir(dir)).filter((f) => f.startsWith('crashed'))).toEqual(['crashed.json.partial'])
    expect(await readFile(`${crashed}.partial`, 'utf8')).toContain('{"outcome":"imported","resId":1,"chrono":null}')

    const refused = join(dir, 'refused.json')
    await (await JsonReportFile.create(refused)).close()
    expect((await readdir(dir)).filter((f) => f.startsWith('refused'))).toEqual([])
  })
})
