import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import { newVersionHistory, placeVersion } from './create-version.js'

describe('placeVersion', () => {
  it('makes a new original version n+1 and keeps the stored one as version n', () => {
    expect(placeVersion('DOC', { version: 3, hasFile: true, stored: true })).toEqual({ version: 4, keepPrevious: true })
  })

  it('makes a new original version n when the record has no stored file', () => {
    expect(placeVersion('DOC', { version: 1, hasFile: false, stored: false })).toEqual({
      version: 1,
      keepPrevious: false,
    })
    expect(placeVersion('DOC', { version: 2, hasFile: true, stored: false })).toEqual({
      version: 2,
      keepPrevious: false,
    })
  })

  it.each(['SIGN', 'NOTE'] as const)('attaches a %s PDF to the current version, which must have a file', (kind) => {
    expect(placeVersion(kind, { version: 2, hasFile: true, stored: true })).toEqual({ version: 2, keepPrevious: false })
    try {
      placeVersion(kind, { version: 2, hasFile: false, stored: false })
      expect.unreachable()
    } catch (error) {
      expect(isDomainError(error) && error.code).toBe('DOCUMENT_HAS_NO_FILE')
    }
  })
})

describe('newVersionHistory', () => {
  it('words a new original and a signed or annotated file as 20.10 does', () => {
    expect(newVersionHistory(12, 'DOC', 2)).toEqual({
      tableName: 'res_letterbox',
      recordId: 12,
      eventType: 'UP',
      eventId: 'resup',
      module: 'resource',
      info: 'New version of document : 12 (version 2)',
    })
    expect(newVersionHistory(12, 'SIGN', 1)).toMatchObject({
      eventId: 'resupfile',
      info: 'SIGN file of document : 12 (version 1)',
    })
  })
})
