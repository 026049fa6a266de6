import { describe, expect, expectTypeOf, it } from 'vitest'
import type { ContentBase64Body, OriginalContentBase64Body, VersionContentBody } from '../content/content-services.js'
import type { JournalEnvelope, JournalErrorEnvelope } from '../journal/journal-envelope.js'
import { journalEnvelope, journalErrorEnvelope } from '../journal/journal-envelope.js'
import type { EventInfoItem, LifeCycleEvent } from '../journal/life-cycle-event.js'
import type { RecordHistory } from '../status/record-history.js'
import type { StatusUpdateResult } from '../status/status-services.js'
import type { ContentBase64Response, OriginalContentBase64Response, VersionContentResponse } from './content-schemas.js'
import {
  EventInfoSchema,
  type JournalErrorResponse,
  JournalErrorResponseSchema,
  type JournalEventsResponse,
  JournalEventsResponseSchema,
  LifeCycleEventSchema,
} from './journal-schemas.js'
import { CreateRecordBodySchema, EarlierCreateRecordBodySchema } from './record-schemas.js'
import type { RecordHistoryResponse, StatusUpdateResponse } from './status-schemas.js'

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T

const info: EventInfoItem = {
  eventId: 'e1',
  eventType: 'recordsManagement/deposit',
  timestamp: '2024-03-04T09:31:12+00:00',
  orgRegNumber: '21750001600019',
  orgUnitRegNumber: 'PJS',
  accountId: 'bbain',
  objectId: 'a1',
  resId: '100',
  hashAlgorithm: 'SHA256',
  hash: 'ab'.repeat(32),
  originatorOrgRegNumber: 'PJS',
  depositorOrgRegNumber: '',
  archiverOrgRegNumber: 'VILLE',
  size: 7,
}
const event: LifeCycleEvent = {
  eventId: 'e1',
  eventType: 'recordsManagement/deposit',
  instanceName: 'mailroom',
  timestamp: info.timestamp,
  orgRegNumber: '21750001600019',
  orgUnitRegNumber: 'PJS',
  accountId: 'bbain',
  objectClass: 'recordsManagement/archive',
  objectId: 'a1',
  operationResult: true,
  description: 'Deposit of archive a1',
  eventInfo: [info],
  accountName: 'Barbara BAIN',
}

describe('wire schemas', () => {
  it('describe the same shapes as the capabilities produce (types)', () => {
    expectTypeOf<JournalEnvelope>().toExtend<DeepReadonly<JournalEventsResponse>>()
    expectTypeOf<DeepReadonly<JournalEventsResponse>>().toExtend<JournalEnvelope>()
    expectTypeOf<JournalErrorEnvelope>().toExtend<DeepReadonly<JournalErrorResponse>>()
    expectTypeOf<ContentBase64Body>().toExtend<DeepReadonly<ContentBase64Response>>()
    expectTypeOf<DeepReadonly<ContentBase64Response>>().toExtend<ContentBase64Body>()
    expectTypeOf<OriginalContentBase64Body>().toExtend<DeepReadonly<OriginalContentBase64Response>>()
    expectTypeOf<VersionContentBody>().toExtend<DeepReadonly<VersionContentResponse>>()
    expectTypeOf<RecordHistory>().toExtend<DeepReadonly<RecordHistoryResponse>>()
    expectTypeOf<StatusUpdateResult>().toExtend<DeepReadonly<StatusUpdateResponse>>()
  })

  it('accept what the journal writes', () => {
    const head = { owner: '21750001600019', timestamp: new Date('2024-03-04T10:05:00Z'), accountName: 'Barbara BAIN' }
    expect(JournalEventsResponseSchema.parse(journalEnvelope({ ...head, events: [event] }))).toBeTruthy()
    expect(
      JournalErrorResponseSchema.parse(journalErrorEnvelope({ ...head, message: 'Invalid format date' })),
    ).toBeTruthy()
    expect(LifeCycleEventSchema.safeParse({ ...event, eventInfo: [{ ...info, size: '7' }] }).success).toBe(false)
    expect(EventInfoSchema.safeParse(info).success).toBe(true)
  })

  it('require what the interface requires for creation', () => {
    expect(CreateRecordBodySchema.safeParse({ modelId: 1, status: 'NEW' }).success).toBe(true)
    expect(CreateRecordBodySchema.safeParse({ status: 'NEW' }).success).toBe(false)
    const earlier = { status: 'NEW', format: 'pdf', encodedFile: 'JVBERi0=', type_id: 103, category_id: 'incoming' }
    expect(EarlierCreateRecordBodySchema.safeParse({ ...earlier, nature_id: 'simple_mail', priority: 2 }).success).toBe(
      true,
    )
    for (const field of Object.keys(earlier)) {
      const { [field]: _, ...missing } = earlier as Record<string, unknown>
      expect(EarlierCreateRecordBodySchema.safeParse(missing).success, field).toBe(false)
    }
  })
})
