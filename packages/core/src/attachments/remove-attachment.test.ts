import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import {
  type AttachmentToRemove,
  checkAttachmentRemoval,
  parseAttachmentRemovalId,
  removedVersionsRoot,
} from './remove-attachment.js'

const clerk = (id: number, privileges: string[]): Actor => ({
  id,
  login: `user${id}`,
  firstname: null,
  lastname: null,
  email: null,
  mode: 'standard',
  entities: [],
  groups: [
    {
      id: 1,
      groupId: 'G',
      canIndex: false,
      securityClause: '1=1',
      indexingEntities: [],
      indexingKeywords: [],
      privileges,
    },
  ],
})
const typistId = 2
const attachment: AttachmentToRemove = {
  resId: 12,
  resIdMaster: 1,
  originId: null,
  typist: typistId,
  status: 'A_TRA',
  type: 'simple_attachment',
  title: 'Pièce',
}
const refusal = (run: () => void) => {
  try {
    run()
    return null
  } catch (error) {
    return (error as { code?: string }).code
  }
}

describe('checkAttachmentRemoval', () => {
  it("lets the typist and a holder of manage_attachments through, and refuses anyone else (20.10's rule)", () => {
    expect(refusal(() => checkAttachmentRemoval(clerk(typistId, []), attachment, true))).toBeNull()
    expect(refusal(() => checkAttachmentRemoval(clerk(9, ['manage_attachments']), attachment, true))).toBeNull()
    expect(refusal(() => checkAttachmentRemoval(clerk(9, ['add_links']), attachment, true))).toBe(
      'ATTACHMENT_NOT_MANAGEABLE',
    )
  })

  it("checks in 20.10's order: existence, records management type, perimeter, then the right", () => {
    const nobody = clerk(9, [])
    expect(refusal(() => checkAttachmentRemoval(nobody, null, false))).toBe('ATTACHMENT_DOES_NOT_EXIST')
    expect(refusal(() => checkAttachmentRemoval(nobody, { ...attachment, status: 'DEL' }, false))).toBe(
      'ATTACHMENT_DOES_NOT_EXIST',
    )
    const recordManagement = { ...attachment, type: 'reply_record_management' }
    expect(refusal(() => checkAttachmentRemoval(nobody, recordManagement, false))).toBe('ATTACHMENT_RECORD_MANAGEMENT')
    expect(refusal(() => checkAttachmentRemoval(clerk(typistId, []), attachment, false))).toBe('OUT_OF_PERIMETER')
    // A superseded version may be removed (with the others), as in 20.10.
    expect(
      refusal(() => checkAttachmentRemoval(clerk(typistId, []), { ...attachment, status: 'OBS' }, true)),
    ).toBeNull()
  })

  it('removes from the original: a version names it, an original is its own', () => {
    expect(removedVersionsRoot(attachment)).toBe(12)
    expect(removedVersionsRoot({ ...attachment, resId: 13, originId: 12 })).toBe(12)
  })
})

describe('parseAttachmentRemovalId', () => {
  it('reads ids, names nothing for integers no attachment has, and refuses the rest', () => {
    expect(parseAttachmentRemovalId('12')).toBe(12)
    expect(parseAttachmentRemovalId('-3')).toBeNull()
    expect(parseAttachmentRemovalId('9'.repeat(30))).toBeNull()
    for (const bad of [undefined, '', '0', '-0', 'abc', '1e3', '1.5', ' 1', '1\u0000'])
      expect(refusal(() => parseAttachmentRemovalId(bad))).toBe('ATTACHMENT_ROUTE_ID_INVALID')
  })

  it('answers an id, null or the 400 for any text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const code = refusal(() => parseAttachmentRemovalId(text))
        if (code !== null) expect(code).toBe('ATTACHMENT_ROUTE_ID_INVALID')
        else {
          const id = parseAttachmentRemovalId(text)
          if (id !== null) expect(Number.isSafeInteger(id) && id >= 1).toBe(true)
        }
      }),
    )
  })
})
