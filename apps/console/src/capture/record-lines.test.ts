import { maarchExchange } from '@mailroom/testing'
import { describe, expect, it } from 'vitest'
import type { AttachmentRow, LinkedRecord, NoteRow } from './capture-api.js'
import {
  attachmentName,
  entityIds,
  linkedRecordLine,
  maarchMoment,
  noteAuthor,
  noteRestriction,
  parseRecordNumbers,
} from './record-lines.js'

function answer<T>(file: string, name: string): T {
  return maarchExchange(file, name).response.body as T
}

describe('the lines of a record page', () => {
  it('names a note’s author and the entities it is kept for', () => {
    const [note] = answer<{ notes: NoteRow[] }>('notes-read.json', 'notes of record 1 as bbain (PJS)').notes
    expect(noteAuthor(note!)).toBe('Barbara BAIN (Pôle Jeunesse et Sport)')
    expect(noteRestriction(note!)).toBe('PTE')
    const [open] = answer<{ notes: NoteRow[] }>('notes-read.json', 'notes with limit 1').notes
    expect(noteRestriction(open!)).toBeNull()
  })

  it('names an attachment by title, chrono and version', () => {
    const [attachment] = answer<{ attachments: AttachmentRow[] }>(
      'attachments-read.json',
      'attachments of record 1 as bbain',
    ).attachments
    expect(attachmentName(attachment!)).toBe('ar_derogation — MAARCH/2020D/1')
    expect(attachmentName({ ...attachment!, title: '', chrono: null, relation: 2 })).toBe('Projet de réponse (v2)')
  })

  it('shows a linked record’s chrono, subject and status', () => {
    const [record] = answer<{ linkedResources: LinkedRecord[] }>(
      'linked-resources.json',
      'read back after unlink',
    ).linkedResources
    expect(linkedRecordLine(record!)).toBe(
      'MAARCH/2020A/1 — Demande de dérogation carte scolaire (En attente tablette (MP))',
    )
    expect(linkedRecordLine({ resId: 9, chrono: null, subject: 'Sans chrono', status: 'NEW' })).toBe(
      'Sans chrono (NEW)',
    )
  })

  it('shows a moment in Maarch’s form to the minute, an ISO one in the reader’s language', () => {
    expect(maarchMoment('2026-11-26 21:04:29.080000', 'en')).toBe('2026-11-26 21:04')
    expect(maarchMoment('2026-11-26 21:04:29', 'fr')).toBe('2026-11-26 21:04')
    expect(maarchMoment('2026-11-26T20:04:29.000Z', 'en')).toMatch(/^26\/11\/2026, \d{2}:04:29$/)
    expect(maarchMoment(null, 'en')).toBe('')
  })

  it('reads the entity ids a note is kept for', () => {
    expect(entityIds(' PJS, DGS  PJS;PE ')).toEqual(['PJS', 'DGS', 'PE'])
    expect(entityIds('  ')).toEqual([])
  })

  it('reads the record numbers typed in the link form', () => {
    expect(parseRecordNumbers('12, 14 15;12')).toEqual([12, 14, 15])
    expect(parseRecordNumbers(' 3 ')).toEqual([3])
    expect(parseRecordNumbers('')).toBeNull()
    expect(parseRecordNumbers('12 abc')).toBeNull()
    expect(parseRecordNumbers('0')).toBeNull()
    expect(parseRecordNumbers('-4')).toBeNull()
  })
})
