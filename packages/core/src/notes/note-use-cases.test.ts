import { describe, expect, it } from 'vitest'
import { noteHistory } from './note-use-cases.js'

describe('noteHistory', () => {
  it('writes a row under the note, naming it, and one under its record, as 20.10 does', () => {
    expect(noteHistory(42, 7)).toEqual([
      {
        tableName: 'notes',
        recordId: 7,
        eventType: 'ADD',
        eventId: 'noteadd',
        module: 'notes',
        info: 'Annotation ajoutée (7)',
      },
      {
        tableName: 'res_letterbox',
        recordId: 42,
        eventType: 'ADD',
        eventId: 'resourceModification',
        module: 'resource',
        info: 'Annotation ajoutée',
      },
    ])
  })
})
