import { describe, expect, it } from 'vitest'
import { isNoteVisible } from './note.js'
import {
  parseNoteCreateBody,
  parseNoteEntities,
  parseNoteId,
  parseNotesLimit,
  parseNotesResId,
} from './note-request.js'

describe('the body of POST /rest/notes', () => {
  it('checks value before resId, as 20.10', () => {
    expect(() => parseNoteCreateBody({})).toThrow('Body value is empty or not a string')
    expect(() => parseNoteCreateBody({ value: 12, resId: 'abc' })).toThrow('Body value is empty or not a string')
    expect(() => parseNoteCreateBody({ value: 'x', resId: 'abc' })).toThrow('Body resId is empty or not an integer')
    expect(() => parseNoteCreateBody(null)).toThrow('Body value is empty or not a string')
    expect(parseNoteCreateBody({ value: 'x', resId: '22' })).toEqual({ resId: 22, value: 'x', entities: undefined })
  })

  it('takes entities as an array of entity ids, none when absent or empty', () => {
    expect(parseNoteEntities(undefined)).toEqual({ ids: [], impossible: false })
    expect(parseNoteEntities([])).toEqual({ ids: [], impossible: false })
    expect(parseNoteEntities(['PJS', 'DGS', 'PJS'])).toEqual({ ids: ['PJS', 'DGS'], impossible: false })
    expect(parseNoteEntities(['PJS', 3, 'x'.repeat(40)])).toEqual({ ids: ['PJS'], impossible: true })
    expect(() => parseNoteEntities('PJS')).toThrow('Body entities is not an array')
    expect(() => parseNoteEntities({ 0: 'PJS' })).toThrow('Body entities is not an array')
  })

  it("answers the route's own messages for malformed ids and limits", () => {
    expect(() => parseNotesResId('abc')).toThrow('Route resId is not an integer')
    expect(() => parseNoteId('abc')).toThrow('Route id is not an integer')
    expect(() => parseNotesLimit('abc')).toThrow('Query limit is not an int val')
    expect(parseNotesLimit(undefined)).toBeNull()
    expect(parseNotesLimit('0')).toBeNull()
    expect(parseNotesLimit('2')).toBe(2)
  })
})

describe('who sees a note', () => {
  const actor = { id: 3, entities: [{ id: 6, entityId: 'PJS', primary: true }] }
  it('its author, everyone when it names no entity, the members of an entity it names', () => {
    expect(isNoteVisible({ authorId: 3, entityIds: ['DRH'] }, actor)).toBe(true)
    expect(isNoteVisible({ authorId: 2, entityIds: [] }, actor)).toBe(true)
    expect(isNoteVisible({ authorId: 2, entityIds: ['DRH', 'PJS'] }, actor)).toBe(true)
    expect(isNoteVisible({ authorId: 2, entityIds: ['DRH'] }, actor)).toBe(false)
    // Sub-entities do not count: PE is below PJS, but a note for PE is not for PJS's members.
    expect(isNoteVisible({ authorId: 2, entityIds: ['PE'] }, actor)).toBe(false)
  })
})
