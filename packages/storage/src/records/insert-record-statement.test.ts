import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { insertRecordQuery, type RecordColumnValues, type RecordRows } from './insert-record-statement.js'

const RECORD: RecordColumnValues = {
  model_id: 1,
  category_id: 'incoming',
  type_id: 101,
  subject: 'Letter',
  alt_identifier: null,
  typist: 19,
  status: 'NEW',
  destination: 'COU',
  initiator: null,
  dest_user: null,
  confidentiality: 'N',
  doc_date: null,
  admission_date: null,
  departure_date: null,
  process_limit_date: null,
  priority: null,
  barcode: null,
  external_id: '{}',
  custom_fields: '{}',
  integrations: null,
  creation_date: new Date('2026-11-24T10:00:00Z'),
  modification_date: new Date('2026-11-24T10:00:00Z'),
  version: 1,
  format: null,
  docserver_id: null,
  path: null,
  filename: null,
  filesize: null,
  fingerprint: null,
}

const BARE: RecordRows = {
  resId: null,
  record: RECORD,
  history: { userId: 19, date: new Date('2026-11-24T10:00:00Z'), info: 'Document added' },
  diffusion: [],
  contacts: [],
  folderIds: [],
  tagIds: [],
  followerId: null,
  deposit: null,
}

const FULL: RecordRows = {
  ...BARE,
  resId: 42,
  diffusion: [
    { id: 19, type: 'user_id', mode: 'dest' },
    { id: 13, type: 'entity_id', mode: 'cc' },
  ],
  contacts: [
    { id: 1, type: 'contact', mode: 'sender' },
    { id: 4, type: 'user', mode: 'recipient' },
  ],
  folderIds: [2],
  tagIds: [1, 3],
  followerId: 19,
  deposit: {
    archive: { archive_id: 'a1', safe: 'MAARCH', created_at: new Date('2026-11-24T10:00:00Z') },
    pending: {
      safe: 'MAARCH',
      event_id: 'a1',
      event_type: 'deposit',
      timestamp: new Date('2026-11-24T10:00:00Z'),
      instance_name: 'mailroom',
      org_reg_number: 'ORG',
      org_unit_reg_number: 'COU',
      account_id: 'bbain',
      account_name: 'Barbara BAIN',
      object_class: 'archive',
      object_id: 'a1',
      operation_result: true,
      description: 'Deposit',
      info: '{}',
    },
  },
}

/** The highest `$n` of a statement's text. */
function highestPlaceholder(text: string): number {
  return Math.max(...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])))
}

/** The same shape as `rows` (the same parts present), with other values. */
function otherValues(rows: RecordRows): RecordRows {
  return {
    ...rows,
    resId: rows.resId === null ? null : rows.resId + 1,
    record: { ...rows.record, subject: 'Another', typist: 4 },
    diffusion: rows.diffusion.map((item) => ({ ...item, id: item.id + 1 })),
    contacts: rows.contacts.slice(0, 1),
    tagIds: rows.tagIds.slice(0, 1),
    followerId: rows.followerId === null ? null : rows.followerId + 1,
  }
}

describe('insertRecordQuery', () => {
  it('sends one constant text per shape, whatever the values, numbering exactly its parameters', () => {
    for (const rows of [BARE, FULL]) {
      const query = insertRecordQuery(rows)
      expect(insertRecordQuery(otherValues(rows)).sql).toBe(query.sql)
      expect(highestPlaceholder(query.sql)).toBe(query.parameters.length)
    }
    expect(insertRecordQuery(FULL).sql).not.toBe(insertRecordQuery(BARE).sql)
  })

  it('leaves out the parts a create has no rows for', () => {
    const bare = insertRecordQuery(BARE).sql
    for (const table of [
      'listinstance',
      'resource_contacts',
      'resources_folders',
      'resources_tags',
      'users_followed_resources',
      'journal_archives',
      'journal_pending',
    ]) {
      expect(bare).not.toContain(table)
      expect(insertRecordQuery(FULL).sql).toContain(table)
    }
    expect(bare).toContain('insert into res_letterbox')
    expect(bare).toContain('insert into history')
    expect(insertRecordQuery({ ...BARE, contacts: FULL.contacts }).sql).toContain('resource_contacts')
  })

  it('passes lists as parallel arrays', () => {
    const full = insertRecordQuery(FULL).parameters
    expect(full).toEqual(
      expect.arrayContaining([
        [19, 13],
        ['user_id', 'entity_id'],
        ['dest', 'cc'],
        [1, 4],
        ['sender', 'recipient'],
        [2],
        [1, 3],
        42,
        'a1',
        'MAARCH',
      ]),
    )
    const bare = insertRecordQuery(BARE).parameters
    expect(bare.filter((p) => Array.isArray(p))).toEqual([])
    expect(bare.slice(0, 1)).toEqual([null])
  })

  it('never puts caller text in the SQL: any subject, barcode or contact mode travels as a parameter', () => {
    const text = insertRecordQuery(FULL).sql
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (subject, barcode, type) => {
        const query = insertRecordQuery({
          ...FULL,
          record: { ...RECORD, subject, barcode },
          contacts: [{ id: 1, type, mode: 'sender' }],
        })
        expect(query.sql).toBe(text)
        expect(query.parameters).toContain(subject)
        expect(query.parameters).toContain(barcode)
        expect(query.parameters).toContainEqual([type])
      }),
    )
  })
})
