import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readSearchFile, type SearchFile, type SearchHits, streamSearchResult, toJsonValue } from './search-result.js'

async function text(result: SearchHits): Promise<string> {
  let out = ''
  for await (const chunk of streamSearchResult(result)) out += chunk
  return out
}

function fileOf(chunks: string[] | null): SearchFile {
  return {
    open: async () =>
      chunks === null
        ? null
        : (async function* () {
            yield* chunks
          })(),
  }
}

describe('toJsonValue', () => {
  it('writes timestamps as ISO 8601 UTC with milliseconds and keeps JSON-native values', () => {
    expect(toJsonValue(new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 6)))).toBe('2025-01-02T03:04:05.006Z')
    expect(toJsonValue(12)).toBe(12)
    expect(toJsonValue(12n)).toBe(12)
    expect(toJsonValue(2n ** 60n)).toBe('1152921504606846976')
    expect(toJsonValue(true)).toBe(true)
    expect(toJsonValue(undefined)).toBeNull()
    expect(toJsonValue({ a: [1, new Date(0)], b: null })).toEqual({ a: [1, '1970-01-01T00:00:00.000Z'], b: null })
    expect(toJsonValue(Number.NaN)).toBe('NaN')
  })
})

describe('streamSearchResult', () => {
  it('streams the JSON of { resources, count } without files', async () => {
    const json = await text({
      withFile: false,
      hits: [{ record: { res_id: 1 } }, { record: { res_id: 2, subject: 'é"' } }],
    })
    expect(JSON.parse(json)).toEqual({ resources: [{ res_id: 1 }, { res_id: 2, subject: 'é"' }], count: 2 })
    expect(await text({ withFile: false, hits: [] })).toBe('{"resources":[],"count":0}')
  })

  it('puts fileBase64Content last, null when the file opens to null (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer(), fc.option(fc.array(fc.base64String(), { maxLength: 4 }))), { maxLength: 6 }),
        async (rows) => {
          const hits = rows.map(([id, chunks]) => ({ record: { res_id: id }, file: fileOf(chunks) }))
          const parsed = JSON.parse(await text({ withFile: true, hits }))
          expect(parsed).toEqual({
            resources: rows.map(([id, chunks]) => ({
              res_id: id,
              fileBase64Content: chunks === null ? null : chunks.join(''),
            })),
            count: rows.length,
          })
          for (const resource of parsed.resources)
            expect(Object.keys(resource)).toEqual(['res_id', 'fileBase64Content'])
        },
      ),
      { numRuns: 100, seed: 3 },
    )
  })

  it('reads one file at a time: a file is opened only after the previous one is fully written', async () => {
    const log: string[] = []
    const tracked = (name: string): SearchFile => ({
      open: async () => {
        log.push(`open ${name}`)
        return (async function* () {
          yield 'QUJD'
          log.push(`end ${name}`)
        })()
      },
    })
    await text({
      withFile: true,
      hits: [
        { record: { res_id: 1 }, file: tracked('a') },
        { record: { res_id: 2 }, file: tracked('b') },
      ],
    })
    expect(log).toEqual(['open a', 'end a', 'open b', 'end b'])
  })
})

describe('readSearchFile', () => {
  it('joins the chunks, or gives null', async () => {
    expect(await readSearchFile(fileOf(['QU', 'JD']))).toBe('QUJD')
    expect(await readSearchFile(fileOf(null))).toBeNull()
    expect(await readSearchFile(undefined)).toBeNull()
  })
})
