import { describe, expect, it } from 'vitest'
import type { StoredResource } from './ports.js'
import { phpJsonObject, resourceDetail } from './resource-detail.js'

const STORED: StoredResource = {
  resId: 24,
  modelId: 1,
  categoryId: 'incoming',
  chrono: null,
  status: 'NEW',
  closingDate: null,
  creationDate: '2026-12-01 22:53:41.768918',
  modificationDate: '2026-12-01 22:53:41.768918',
  retentionFrozen: false,
  binding: null,
  integrations: {},
  subject: 'Objet',
  processLimitDate: null,
  priority: 'urgent',
  doctype: 102,
  typist: 2,
  confidentiality: 'Y',
  documentDate: null,
  arrivalDate: null,
  departureDate: null,
  barcode: null,
  customFields: {},
  destination: { entityId: 'PJS', entity: { id: 6, label: 'Pôle Jeunesse et Sport' } },
  initiator: { entityId: 'GONE', entity: null },
  statusInfo: { label: 'Nouveau courrier', alterable: true },
  priorityInfo: { label: 'Urgent', color: '#ffa500' },
  modelFields: ['subject', 'priority', 'destination', 'initiator', 'senders'],
  senders: [{ id: 13, type: 'contact' }],
  recipients: [{ id: 3, type: 'user' }],
}
const AROUND = { folders: [7], tags: [2], followed: true }

describe("20.10's shape of a record", () => {
  it('keeps only the fields of the model, names entities by serial id, and adds the whole answer’s lists', () => {
    expect(resourceDetail(STORED, false, AROUND)).toEqual({
      resId: 24,
      modelId: 1,
      categoryId: 'incoming',
      chrono: null,
      status: 'NEW',
      closingDate: null,
      creationDate: '2026-12-01 22:53:41.768918',
      modificationDate: '2026-12-01 22:53:41.768918',
      retentionFrozen: false,
      binding: null,
      integrations: [],
      subject: 'Objet',
      priority: 'urgent',
      destination: 6,
      initiator: null,
      destinationLabel: 'Pôle Jeunesse et Sport',
      initiatorLabel: null,
      statusLabel: 'Nouveau courrier',
      statusAlterable: true,
      priorityLabel: 'Urgent',
      priorityColor: '#ffa500',
      senders: [{ id: 13, type: 'contact' }],
      customFields: [],
      folders: [7],
      tags: [2],
    })
  })

  it('answers light with fewer fields, whether the actor follows, and no registered mail', () => {
    const light = resourceDetail(STORED, true, AROUND)
    expect(light).not.toHaveProperty('destination')
    expect(light).not.toHaveProperty('folders')
    expect(light).toMatchObject({ followed: true, registeredMail_deposit_id: null, subject: 'Objet' })
  })

  it('prints JSON objects as PHP does: an empty one is []', () => {
    expect(phpJsonObject({})).toEqual([])
    expect(phpJsonObject({ a: 1 })).toEqual({ a: 1 })
    expect(phpJsonObject(null)).toBeNull()
    expect(phpJsonObject([])).toEqual([])
    expect(phpJsonObject('text')).toBeNull()
  })
})

describe('resourceDetail: integrations as 20.10 prints the column', () => {
  it('answers [] for an empty column, as PHP prints an empty decoded array', () => {
    expect(resourceDetail(STORED, false, AROUND).integrations).toEqual([])
    expect(resourceDetail({ ...STORED, integrations: null }, true, AROUND).integrations).toEqual([])
  })

  it('answers the STORED flags as they are, without adding the missing one', () => {
    const detail = resourceDetail({ ...STORED, integrations: { inSignatureBook: true } }, false, AROUND)
    expect(detail.integrations).toEqual({ inSignatureBook: true })
    const both = { inSignatureBook: false, inShipping: false }
    expect(resourceDetail({ ...STORED, integrations: both }, true, AROUND).integrations).toEqual(both)
  })
})
