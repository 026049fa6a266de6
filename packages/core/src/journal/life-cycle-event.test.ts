import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  buildConsultationEvent,
  buildDepositEvent,
  buildIntegrityCheckEvent,
  buildJournalReadEvent,
  chainPositionAfter,
  type JournalBuilderDeps,
} from './build-journal-event.js'
import {
  envelopeHead,
  envelopeTail,
  journalEnvelope,
  journalErrorEnvelope,
  renderLifeCycleEvent,
  streamJournalEnvelope,
} from './journal-envelope.js'
import type { JournalEvent } from './journal-event.js'
import { formatJournalTimestamp, type LifeCycleEvent, toLifeCycleEvent } from './life-cycle-event.js'

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex')
const SAFE = '21750001600019'
const fileHash = sha256Hex('bytes')

function journal(): JournalEvent[] {
  let n = 0
  const deps: JournalBuilderDeps = { sha256Hex, newEventId: () => `mailroom_e${++n}` }
  const events: JournalEvent[] = []
  const position = () => chainPositionAfter(SAFE, events.at(-1) ?? null)
  const resource = { resId: '17', hash: fileHash, size: 1234 }
  events.push(
    buildDepositEvent(deps, {
      position: position(),
      actor: { accountId: 'cchaplin', accountName: 'Charlie', orgUnitRegNumber: 'VILLE' },
      timestamp: new Date('2024-03-04T05:06:07.890Z'),
      archiveId: 'mailroom_arch',
      resource,
      originatorOrgRegNumber: 'PJS',
      depositorOrgRegNumber: 'VILLE',
      archiverOrgRegNumber: 'VILLE',
      originatorArchiveId: '17',
    }),
  )
  events.push(
    buildConsultationEvent(deps, {
      position: position(),
      actor: { accountId: 'bbain', accountName: 'Barbara', orgUnitRegNumber: 'PJS' },
      timestamp: new Date('2024-03-05T00:00:00.000Z'),
      archiveId: 'mailroom_arch',
      resource,
      originatorArchiveId: '17',
    }),
  )
  events.push(
    buildJournalReadEvent(deps, {
      position: position(),
      actor: { accountId: 'cchaplin', accountName: 'Charlie', orgUnitRegNumber: 'VILLE' },
      timestamp: new Date('2024-03-05T00:00:00.000Z'),
      organizationRegNumber: SAFE,
      orgName: 'Ville',
      ownerOrgId: SAFE,
    }),
  )
  events.push(
    buildIntegrityCheckEvent(deps, {
      position: position(),
      actor: { accountId: 'superadmin', accountName: 'Admin', orgUnitRegNumber: 'VILLE' },
      timestamp: new Date('2024-03-05T00:00:00.000Z'),
      archiveId: 'mailroom_arch',
      resource,
      originatorArchiveId: '17',
      requesterOrgRegNumber: 'VILLE',
      result: { ok: false, info: 'Fingerprints do not match' },
    }),
  )
  return events
}

describe('toLifeCycleEvent', () => {
  it('formats timestamps as PHP c: whole seconds and +00:00', () => {
    expect(formatJournalTimestamp(new Date('2019-12-11T10:11:39.999Z'))).toBe('2019-12-11T10:11:39+00:00')
  })

  it('produces exactly the interface shape, with the whole archive history oldest first', () => {
    const events = journal()
    const [deposit, consultation, read, check] = events as [JournalEvent, JournalEvent, JournalEvent, JournalEvent]
    // Given in any order and with unrelated events, the history is filtered and sorted.
    const lifeCycle = toLifeCycleEvent(deposit, [check, read, consultation, deposit], 'Charlie')
    expect(Object.keys(lifeCycle)).toEqual([
      'eventId',
      'eventType',
      'instanceName',
      'timestamp',
      'orgRegNumber',
      'orgUnitRegNumber',
      'accountId',
      'objectClass',
      'objectId',
      'operationResult',
      'description',
      'eventInfo',
      'accountName',
    ])
    expect(lifeCycle).toEqual({
      eventId: 'mailroom_e1',
      eventType: 'recordsManagement/deposit',
      instanceName: 'mailroom',
      timestamp: '2024-03-04T05:06:07+00:00',
      orgRegNumber: SAFE,
      orgUnitRegNumber: 'VILLE',
      accountId: 'cchaplin',
      objectClass: 'recordsManagement/archive',
      objectId: 'mailroom_arch',
      operationResult: true,
      description: 'Deposit of archive mailroom_arch',
      eventInfo: [
        {
          eventId: 'mailroom_e1',
          eventType: 'recordsManagement/deposit',
          timestamp: '2024-03-04T05:06:07+00:00',
          orgRegNumber: SAFE,
          orgUnitRegNumber: 'VILLE',
          accountId: 'cchaplin',
          objectId: 'mailroom_arch',
          resId: '17',
          hashAlgorithm: 'SHA256',
          hash: fileHash,
          originatorOrgRegNumber: 'PJS',
          depositorOrgRegNumber: 'VILLE',
          archiverOrgRegNumber: 'VILLE',
          size: 1234,
        },
        {
          eventId: 'mailroom_e2',
          eventType: 'recordsManagement/consultation',
          timestamp: '2024-03-05T00:00:00+00:00',
          orgRegNumber: SAFE,
          orgUnitRegNumber: 'PJS',
          accountId: 'bbain',
          objectId: 'mailroom_arch',
          resId: '17',
          hashAlgorithm: 'SHA256',
          hash: fileHash,
          originatorOrgRegNumber: '',
          depositorOrgRegNumber: '',
          archiverOrgRegNumber: '',
          size: 1234,
        },
        {
          eventId: 'mailroom_e4',
          eventType: 'recordsManagement/integrityCheck',
          timestamp: '2024-03-05T00:00:00+00:00',
          orgRegNumber: SAFE,
          orgUnitRegNumber: 'VILLE',
          accountId: 'superadmin',
          objectId: 'mailroom_arch',
          resId: '17',
          hashAlgorithm: 'SHA256',
          hash: fileHash,
          originatorOrgRegNumber: '',
          depositorOrgRegNumber: '',
          archiverOrgRegNumber: '',
          size: 1234,
        },
      ],
      accountName: 'Charlie',
    })
    expect(Object.keys(lifeCycle.eventInfo[0]!)).toEqual([
      'eventId',
      'eventType',
      'timestamp',
      'orgRegNumber',
      'orgUnitRegNumber',
      'accountId',
      'objectId',
      'resId',
      'hashAlgorithm',
      'hash',
      'originatorOrgRegNumber',
      'depositorOrgRegNumber',
      'archiverOrgRegNumber',
      'size',
    ])
    expect(toLifeCycleEvent(check, events, 'Admin').operationResult).toBe(false)
  })
})

describe('journal envelope', () => {
  const head = { owner: SAFE, timestamp: new Date('2024-03-06T01:02:03.456Z'), accountName: 'Charlie' }

  it('builds the success and error envelopes in the interface order', () => {
    const envelope = journalEnvelope({ ...head, events: [] })
    expect(JSON.stringify(envelope)).toBe(
      '{"originatorOwnerOrgRegNumber":"21750001600019","timestamp":"2024-03-06T01:02:03+00:00","accountName":"Charlie","operationResult":true,"lifeCycleEvents":[]}',
    )
    expect(
      JSON.stringify(journalErrorEnvelope({ ...head, accountName: '', message: 'Missing authentication credential' })),
    ).toBe(
      '{"originatorOwnerOrgRegNumber":"21750001600019","timestamp":"2024-03-06T01:02:03+00:00","accountName":"","operationResult":false,"message":"Missing authentication credential"}',
    )
  })

  it('streams chunks whose concatenation equals the non-streamed envelope', async () => {
    const events = journal()
    const lifeCycle = events
      .filter((e) => e.objectClass === 'recordsManagement/archive')
      .map((e) => toLifeCycleEvent(e, events, 'Charlie'))
    for (const count of [0, 1, lifeCycle.length]) {
      const slice = lifeCycle.slice(0, count)
      const text = envelopeHead(head) + slice.map(renderLifeCycleEvent).join(',') + envelopeTail()
      expect(JSON.parse(text)).toEqual(journalEnvelope({ ...head, events: slice }))
      expect(text).toBe(JSON.stringify(journalEnvelope({ ...head, events: slice })))
      const chunks: string[] = []
      for await (const chunk of streamJournalEnvelope(head, slice)) chunks.push(chunk)
      expect(chunks.join('')).toBe(text)
    }
  })

  it('stays valid JSON for any strings, including ones that need escaping', async () => {
    const text = fc.string({ unit: 'binary', maxLength: 12 })
    await fc.assert(
      fc.asyncProperty(
        text,
        text,
        fc.array(fc.tuple(text, text), { maxLength: 4 }),
        async (owner, accountName, pairs) => {
          const events: LifeCycleEvent[] = pairs.map(([a, b]) => ({
            eventId: a,
            eventType: 'recordsManagement/deposit',
            instanceName: 'mailroom',
            timestamp: '2024-01-01T00:00:00+00:00',
            orgRegNumber: owner,
            orgUnitRegNumber: b,
            accountId: a,
            objectClass: 'recordsManagement/archive',
            objectId: b,
            operationResult: true,
            description: `${a}"${b}`,
            eventInfo: [],
            accountName,
          }))
          const h = { owner, accountName, timestamp: new Date(0) }
          async function* source() {
            yield* events
          }
          let streamed = ''
          for await (const chunk of streamJournalEnvelope(h, source())) streamed += chunk
          expect(JSON.parse(streamed)).toEqual(JSON.parse(JSON.stringify(journalEnvelope({ ...h, events }))))
        },
      ),
      { numRuns: 200 },
    )
  })
})
