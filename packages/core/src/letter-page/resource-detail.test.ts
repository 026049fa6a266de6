import { describe, expect, it } from 'vitest'
import type { StoredResource } from './ports.js'
import { resourceDetail } from './resource-detail.js'

const stored: StoredResource = {
  resId: 7,
  modelId: 1,
  categoryId: 'incoming',
  chrono: 'MAARCH/2026A/7',
  status: 'NEW',
  closingDate: null,
  creationDate: '2026-01-02 10:00:00.000000',
  modificationDate: '2026-01-02 10:00:00.000000',
  retentionFrozen: false,
  binding: null,
  integrations: {},
  subject: 'Subject',
  processLimitDate: null,
  priority: null,
  doctype: null,
  typist: null,
  confidentiality: null,
  documentDate: null,
  arrivalDate: null,
  departureDate: null,
  barcode: null,
  customFields: {},
  destination: null,
  initiator: null,
  statusInfo: null,
  priorityInfo: null,
  modelFields: ['subject'],
  senders: [],
  recipients: [],
}
const surroundings = { folders: [], tags: [], followed: false }

describe('resourceDetail: integrations as 20.10 prints the column', () => {
  it('answers [] for an empty column, as PHP prints an empty decoded array', () => {
    expect(resourceDetail(stored, false, surroundings).integrations).toEqual([])
    expect(resourceDetail({ ...stored, integrations: null }, true, surroundings).integrations).toEqual([])
  })

  it('answers the stored flags as they are, without adding the missing one', () => {
    const detail = resourceDetail({ ...stored, integrations: { inSignatureBook: true } }, false, surroundings)
    expect(detail.integrations).toEqual({ inSignatureBook: true })
    const both = { inSignatureBook: false, inShipping: false }
    expect(resourceDetail({ ...stored, integrations: both }, true, surroundings).integrations).toEqual(both)
  })
})
