import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import type { ContentFile, ContentLookup, ContentReadStore, ContentRecord, ReadTrace } from './content-read-ports.js'
import { createContentReads } from './read-content.js'
import { DEFAULT_WATERMARK_OPTIONS } from './watermark-text.js'

const clerk = {
  id: 19,
  login: 'bbain',
  firstname: null,
  lastname: null,
  email: null,
  mode: 'standard',
  entities: [],
  groups: [],
} as unknown as Actor
const root = { ...clerk, id: 23, login: 'superadmin', mode: 'root_invisible' } as Actor

const BYTES = new TextEncoder().encode('hello\n')
const RECORD: ContentRecord<ContentFile> = {
  resId: 7,
  subject: 'Letter',
  format: 'txt',
  filename: 'x.txt',
  typist: 19,
  version: 1,
  columns: {},
  original: { type: null, filename: 'x.txt' },
}

/** Content reads over a store whose look-up finds `found` (null: no record), recording traces and look-ups. */
function store(found: Partial<ContentLookup<ContentFile>> | null, traces: ReadTrace[] = [], looked: number[] = []) {
  const files: ContentReadStore<ContentFile> = {
    async lookUp(_actor, resId) {
      looked.push(resId)
      return found === null ? null : { record: RECORD, allowed: true, currentPdf: null, ...found }
    },
    versionFile: async (_resId, types) => ({ type: types[0] ?? null, filename: 'x.pdf' }),
    read: async () => ({ bytes: BYTES, digest: { fingerprint: 'f', sha256: 's', size: BYTES.length } }),
    download: async () => ({
      kind: 'verified',
      file: { bytes: BYTES, digest: { fingerprint: 'f', sha256: 's', size: BYTES.length } },
    }),
    storeConversion: async () => fail(),
    signatoryOf: async () => null,
    recordColumns: async () => ({}),
    trace: async (trace) => {
      traces.push(trace)
    },
  }
  return createContentReads({
    files,
    converter: null,
    sniffer: { sniff: async () => 'text/plain' },
    watermarker: { watermark: async (pdf) => pdf },
    watermarks: { get: () => undefined, set: () => {} },
    clock: { now: () => new Date('2026-01-01T00:00:00Z') },
    log: { warn: () => {} },
    settings: { watermark: DEFAULT_WATERMARK_OPTIONS, timeZone: 'UTC' },
  })
}

function fail(): never {
  throw new Error('not expected')
}

describe('content reads, in the reference order', () => {
  it('answers a missing record as out of perimeter to a clerk, and as not found to root users', async () => {
    await expect(store(null).readOriginalContent(clerk, '7', {})).rejects.toMatchObject({ code: 'OUT_OF_PERIMETER' })
    await expect(store(null).readOriginalContent(root, '7', {})).rejects.toMatchObject({ code: 'DOCUMENT_NOT_FOUND' })
    await expect(store({ allowed: false }).readContent(clerk, '7', {})).rejects.toMatchObject({
      code: 'OUT_OF_PERIMETER',
    })
  })

  it('checks the id and the query before looking the record up, and the file after', async () => {
    const looked: number[] = []
    await expect(store({}, [], looked).readOriginalContent(clerk, 'x', {})).rejects.toMatchObject({
      code: 'RES_ID_NOT_POSITIVE',
    })
    await expect(store({}, [], looked).readVersionContent(clerk, '7', '1', { type: 'DOC' })).rejects.toMatchObject({
      kind: 'bad-request',
    })
    expect(looked).toEqual([])
    await expect(
      store({ record: { ...RECORD, filename: null } }).readOriginalContent(clerk, '7', {}),
    ).rejects.toMatchObject({
      code: 'DOCUMENT_HAS_NO_FILE',
    })
  })

  it('leaves the VIEW history row of content and originalContent, none for a version, with the caller address', async () => {
    const traces: ReadTrace[] = []
    const reads = store({ currentPdf: { type: 'PDF', filename: 'x.pdf' } }, traces)
    await reads.readOriginalContent(clerk, '7', {}, { remoteIp: '10.0.0.9' })
    await reads.readVersionContent(clerk, '7', '1', { type: 'PDF' })
    expect(traces.map((t) => [t.resId, t.history?.info ?? null, t.history?.eventId ?? null, t.remoteIp])).toEqual([
      [7, 'Viewing document : 7', 'resview', '10.0.0.9'],
      [7, null, null, undefined],
    ])
  })
})
