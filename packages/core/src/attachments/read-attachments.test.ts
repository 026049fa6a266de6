import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import type { AttachmentReadDependencies, StoredAttachmentListItem } from './read-attachments.js'
import { createAttachmentReads } from './read-attachments.js'

const created = '2026-01-02 10:00:00.123456'
const item = (resId: number, modificationDate: string | null): StoredAttachmentListItem => ({
  resId,
  chrono: null,
  title: `attachment ${resId}`,
  typist: 1,
  modifiedBy: '',
  creationDate: created,
  modificationDate,
  relation: 1,
  status: 'A_TRA',
  type: 'response_project',
  inSignatureBook: false,
  inSendAttach: false,
  typistLabel: 'Barbara BAIN',
  typeLabel: 'Projet de réponse',
  format: 'pdf',
})

function readsOver(rows: StoredAttachmentListItem[]) {
  const deps = {
    attachments: {
      recordExists: async () => true,
      listOf: async () => rows,
      describe: async (id: number) => {
        const { format, ...row } = rows.find((r) => r.resId === id)!
        return { ...row, format, resIdMaster: 5, recipientId: null, recipientType: null, originId: null }
      },
      otherVersions: async () => [],
      servable: async () => null,
    },
    perimeter: { allows: async () => true },
  } as unknown as AttachmentReadDependencies<never>
  return createAttachmentReads(deps)
}
const actor = { serialId: 1, login: 'bbain' } as unknown as Actor

describe('attachment reads: modificationDate as 20.10 answers it', () => {
  const reads = readsOver([item(1, created), item(2, '2026-01-03 09:00:00.000001'), item(3, null)])

  it('is null in the list for an attachment never modified (its modification date is its creation date)', async () => {
    const list = await reads.listOfRecord(actor, '5', {})
    expect(list.attachments.map((a) => [a.resId, a.modificationDate])).toEqual([
      [1, null],
      [2, '2026-01-03 09:00:00.000001'],
      [3, null],
    ])
  })

  it('is null when one attachment never modified is read', async () => {
    expect((await reads.read(actor, '1')).modificationDate).toBeNull()
    expect((await reads.read(actor, '2')).modificationDate).toBe('2026-01-03 09:00:00.000001')
  })
})
