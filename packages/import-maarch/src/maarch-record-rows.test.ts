import type { StoredDocument } from '@mailroom/storage'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  dateOf,
  diffusionRows,
  historyRows,
  importHistoryRow,
  integer,
  type MaarchRow,
  recordRow,
  text,
  timestamp,
} from './maarch-record-rows.js'

const CREATED = new Date('2020-03-02T10:00:00Z')

/** A res_letterbox row as node-postgres reads it from Maarch (bigint columns as strings, jsonb parsed). */
const MAARCH_RECORD: MaarchRow = {
  res_id: '12',
  subject: 'Demande de subvention',
  type_id: '103',
  typist: 19,
  creation_date: CREATED,
  modification_date: null,
  status: 'COU',
  destination: 'PJS',
  category_id: 'incoming',
  model_id: 1,
  version: 1,
  alt_identifier: 'MAARCH/2020A/12',
  external_id: { crm: 'A-7' },
  custom_fields: null,
  integrations: { inSignatureBook: true },
  linked_resources: [],
  retention_frozen: false,
  binding: null,
  format: 'PDF',
  docserver_id: 'FASTHD_MAN',
  path: '2020#03#0001#',
  filename: 'a.pdf',
  fingerprint: '0',
}

const DOCUMENT: StoredDocument = {
  key: 'resources/2020/03/0001/x.pdf',
  path: '2020/03/0001/',
  filename: 'x.pdf',
  size: 10,
  sha256: 'ab'.repeat(32),
}

const CLEAN = { original: null, flagged: false, problems: [], replacement: null } as const

describe('the readers of Maarch columns', () => {
  it('keep null and absence, and give text and integer columns their type', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.constant(null), fc.constant(undefined)), (value) => {
        expect(text(value)).toBe(value)
      }),
    )
    fc.assert(
      fc.property(fc.integer(), (n) => {
        expect(integer(String(n))).toBe(n)
        expect(integer(n)).toBe(n)
      }),
    )
    expect([integer(null), integer(undefined)]).toEqual([null, undefined])
  })

  it('keep a timestamp as node-postgres gave it, and read a required date from either form', () => {
    expect(timestamp(CREATED)).toBe(CREATED)
    expect(timestamp('2020-03-02 10:00:00')).toBe('2020-03-02 10:00:00')
    expect(dateOf(CREATED)).toEqual(CREATED)
    expect(dateOf('2020-03-02T10:00:00Z')).toEqual(CREATED)
  })
})

describe('recordRow', () => {
  it('keeps Maarch’s columns, JSON as text, a null JSON column left to its default', () => {
    const row = recordRow(MAARCH_RECORD, CLEAN)
    expect(row).toMatchObject({
      res_id: 12,
      type_id: 103,
      typist: 19,
      creation_date: CREATED,
      // A null the database refuses stays null: the database judges, the importer reports.
      modification_date: null,
      external_id: '{"crm":"A-7"}',
      integrations: '{"inSignatureBook":true}',
      linked_resources: '[]',
      retention_frozen: false,
      binding: null,
      // No original stored: Maarch's format stays, the file columns are empty.
      format: 'PDF',
      docserver_id: null,
      path: null,
      filename: null,
      fingerprint: null,
    })
    expect(row.custom_fields).toBeUndefined()
    // A column Maarch's row does not have is left out: it takes Mailroom's default.
    expect(row.closing_date).toBeUndefined()
  })

  it('points at the stored original, with the format lower-cased as the importer chose it', () => {
    const row = recordRow(MAARCH_RECORD, {
      ...CLEAN,
      original: { area: { docserverId: 'FASTHD_MAN', pathTemplate: 'resources/' }, format: 'pdf', document: DOCUMENT },
    })
    expect(row).toMatchObject({
      format: 'pdf',
      docserver_id: 'FASTHD_MAN',
      path: '2020/03/0001/',
      filename: 'x.pdf',
      filesize: 10,
      fingerprint: 'ab'.repeat(32),
    })
  })

  it('records on the record what did not check out and whose it was, keeping the rest of external_id', () => {
    const row = recordRow(MAARCH_RECORD, {
      ...CLEAN,
      flagged: true,
      problems: ['fingerprint mismatch'],
      replacement: { typist: 19, by: 1 },
    })
    expect(row.typist).toBe(1)
    expect(JSON.parse(String(row.external_id))).toEqual({
      crm: 'A-7',
      maarchImport: { flagged: true, problems: ['fingerprint mismatch'], typist: 19 },
    })
  })
})

describe('lists and history', () => {
  it('reads a diffusion list entry with its optional columns as null', () => {
    expect(
      diffusionRows([{ sequence: '2', item_id: 19, item_type: 'user_id', item_mode: 'dest', viewed: null }]),
    ).toEqual([
      {
        sequence: 2,
        item_id: 19,
        item_type: 'user_id',
        item_mode: 'dest',
        added_by_user: null,
        viewed: null,
        difflist_type: null,
        process_date: null,
        process_comment: null,
        signatory: false,
        requested_signature: false,
        delegate: null,
      },
    ])
  })

  it('puts the import’s own row after Maarch’s history, naming what was repaired', () => {
    const imported = importHistoryRow('20.10.1', ['fingerprint computed'], CREATED)
    const rows = historyRows(
      [{ event_type: 'ADD', user_id: 19, event_date: CREATED, info: null, id_module: null, event_id: null }],
      imported,
    )
    expect(rows.map((h) => [h.event_type, h.id_module, h.info])).toEqual([
      ['ADD', 'admin', null],
      ['IMPORT', 'import', 'Imported from Maarch Courrier 20.10.1: fingerprint computed'],
    ])
  })
})
